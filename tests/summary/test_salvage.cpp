// salvage: a run cut short (sync_bench killed mid-sweep) keeps its context and every complete row,
// byte for byte, and becomes a run every command reads; a complete run is refused with its own
// exit status (3), anything else with exit 2, and the other commands' message for a run cut short
// points to salvage.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "gb_json.hpp"
#include "json_sanitize.hpp"
#include "salvage.hpp"
#include "test_util.hpp"

namespace sync_summary {
namespace {

using test::contains;
using test::data_path;
using test::read_file;

std::string temp(const std::string& name) {
  return testing::TempDir() + "salvage_" +
         testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + name + ".json";
}

nlohmann::json parse_json(const std::string& text) {
  return nlohmann::json::parse(quote_non_finite(text));  // bare NaN as the string "NaN"
}

// Where Google Benchmark's rows end: one past the '}' of each element of "benchmarks", found in
// its layout (a row's brace alone on a line, indented 4) rather than by the code under test.
std::vector<std::size_t> row_ends(const std::string& text) {
  std::vector<std::size_t> ends;
  for (std::size_t at = text.find("\n    }"); at != std::string::npos;
       at = text.find("\n    }", at + 1))
    ends.push_back(at + 6);
  return ends;
}

// The file cut after every step-th byte, and after every byte near the end of every rows-th row
// and of the file: salvage keeps exactly the rows that end before the cut, byte for byte, and the
// context.
void check_every_cut(const std::string& file, std::size_t step, std::size_t rows) {
  const std::string whole = read_file(data_path(file));
  const nlohmann::json original = parse_json(whole);
  const std::vector<std::size_t> ends = row_ends(whole);
  ASSERT_EQ(ends.size(), original["benchmarks"].size()) << file;
  const std::size_t array_end = whole.rfind(']') + 1;
  std::vector<std::size_t> cuts;
  for (std::size_t c = 1; c < whole.size(); c += step) cuts.push_back(c);
  for (std::size_t r = 0; r < ends.size(); r += rows)
    for (std::size_t c = ends[r] - 3; c <= ends[r] + 8 && c < whole.size(); ++c) cuts.push_back(c);
  for (std::size_t c = array_end - 2; c < whole.size(); ++c) cuts.push_back(c);
  std::size_t salvaged = 0;
  for (std::size_t cut : cuts) {
    const std::string text = whole.substr(0, cut);
    const std::size_t kept =
        static_cast<std::size_t>(std::upper_bound(ends.begin(), ends.end(), cut) - ends.begin());
    // Cut in the last '}' or the newline after it: the JSON is whole, nothing to salvage.
    const bool complete = text.find_last_not_of(" \n") == whole.find_last_not_of(" \n");
    if (kept == 0 || complete) {
      try {
        salvage_text(text, "cut.json");
        ADD_FAILURE() << file << " cut at " << cut << " was salvaged";
      } catch (const CompleteRun& e) {
        EXPECT_TRUE(complete) << file << " cut at " << cut << ": " << e.what();
        EXPECT_EQ(std::string(e.what()), "nothing to salvage: cut.json is a complete run");
      } catch (const InputError& e) {
        EXPECT_FALSE(complete) << file << " cut at " << cut << ": " << e.what();
        EXPECT_TRUE(contains(e.what(), "no complete")) << e.what();
      }
      continue;
    }
    Salvaged s;
    try {
      s = salvage_text(text, "cut.json");
    } catch (const InputError& e) {
      ADD_FAILURE() << file << " cut at " << cut << ": " << e.what();
      continue;
    }
    ++salvaged;
    ASSERT_EQ(s.kept, kept) << file << " cut at " << cut;
    // The bytes as Google Benchmark wrote them, then the brackets it would have written.
    if (cut < array_end) {
      EXPECT_EQ(s.text, whole.substr(0, ends[kept - 1]) + "\n  ]\n}\n") << cut;
      EXPECT_EQ(s.dropped_partial, whole.find('{', ends[kept - 1]) < cut) << cut;
    } else {
      EXPECT_EQ(s.text, whole.substr(0, array_end) + "\n}\n") << cut;
      EXPECT_FALSE(s.dropped_partial);
    }
    // And the values: the context, and the original's first rows.
    const nlohmann::json got = parse_json(s.text);
    EXPECT_EQ(got["context"], original["context"]);
    ASSERT_EQ(got["benchmarks"].size(), kept);
    for (std::size_t i = 0; i < kept; ++i)
      EXPECT_EQ(got["benchmarks"][i], original["benchmarks"][i]) << cut << " row " << i;
    EXPECT_EQ(s.last_name, original["benchmarks"][kept - 1]["name"].get<std::string>());
  }
  EXPECT_GT(salvaged, 10u) << file;
}

TEST(Salvage, EveryCutKeepsTheCompleteRowsByteForByte) {
  check_every_cut("gb183_skipped.json", 3, 1);  // bare NaN and Infinity, errors, skips, ms
  check_every_cut("h100_async_repeat.json", 31, 1);
  check_every_cut("gb171_reps.json", 39989, 127);  // repetitions and aggregates, 1.7.1 (400 kB)
}

TEST(Salvage, RefusesWhatIsNotARunCutShort) {
  // Every refusal is an InputError; only a complete run's is a CompleteRun (the CLI's exit 3).
  const auto refused = [](const std::string& text, const std::string& message,
                          bool complete = false) {
    try {
      salvage_text(text, "in.json");
      ADD_FAILURE() << text.substr(0, 80);
    } catch (const InputError& e) {
      EXPECT_TRUE(contains(e.what(), message)) << e.what();
      EXPECT_EQ(dynamic_cast<const CompleteRun*>(&e) != nullptr, complete) << e.what();
    }
  };
  const std::string whole = read_file(data_path("gb183_skipped.json"));
  refused(whole, "nothing to salvage: in.json is a complete run", true);
  refused(whole + "\n\n", "nothing to salvage: in.json is a complete run", true);
  refused("", "empty file");
  refused("garbage", "not a run cut short");
  refused("{\"context\": {}, \"benchmarks\": [{\"name\": \"A/B\"} x", "not a run cut short");
  refused("[{\"context\": {}", "not a run cut short");
  refused("{\"foo\": [1, 2", "no complete \"context\" object");
  refused(whole.substr(0, 200), "no complete \"context\" object");  // cut in the context
  refused(whole.substr(0, whole.find("\"benchmarks\"") + 5), "no complete benchmark");
  refused(whole.substr(0, row_ends(whole)[0] - 2), "no complete benchmark");
  // A complete row that report refuses is not made a run.
  std::string bad = whole;
  for (int i = 0; i < 2; ++i)  // name and run_name
    bad.replace(bad.find("NullKernel/Async/manual_time"), 28, "BM_memcpy/8");
  refused(bad.substr(0, row_ends(bad)[1] + 20), "(in the complete rows: nothing salvaged)");
  // A complete JSON document followed by more: malformed, not cut short.
  refused(whole + "{", "not a run cut short");
  refused(whole + "N", "not a run cut short");
  refused(whole + "[1, ", "not a run cut short");
}

// The command: OUT is a run every command reads; exit 3 and nothing written for a complete run,
// exit 2 and nothing written when there is otherwise nothing to salvage; IN may be OUT.
TEST(Salvage, CommandWritesARunEveryCommandReads) {
  const std::string whole = read_file(data_path("gb171_reps.json"));
  const std::vector<std::size_t> ends = row_ends(whole);
  const std::string in = temp("in");
  test::write_file(in, whole.substr(0, ends[20] + 40));  // 21 rows and the start of the 22nd
  const std::string out = temp("out");
  std::filesystem::remove(out);

  // What the commands say about the file cut short.
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"report", in}, {"dtypes", in}, {"compare", in, in}, {"merge", "--output=" + out, in}}) {
    const auto r = test::run(args);
    EXPECT_EQ(r.rc, 2) << args[0];
    EXPECT_TRUE(contains(r.err, "in.json: malformed JSON: ")) << r.err;
    EXPECT_TRUE(contains(r.err,
                         "(a run cut short? `sync_summary salvage` keeps its complete "
                         "benchmarks)"))
        << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(out));

  const auto r = test::run({"salvage", in, "--output=" + out});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  const std::string last = parse_json(whole)["benchmarks"][20]["name"];
  EXPECT_EQ(r.err, "sync_summary: salvage: kept 21 benchmarks of a run cut short after '" + last +
                       "'; dropped a partial entry (wrote " + out + ")\n");
  EXPECT_EQ(read_file(out), whole.substr(0, ends[20]) + "\n  ]\n}\n");
  EXPECT_EQ(test::run({"report", out}).rc, 0);
  EXPECT_EQ(test::run({"dtypes", "--format=csv", out}).rc, 0);
  EXPECT_EQ(test::run({"compare", "--gate=all", out, out}).rc, 0);
  const std::string merged = temp("merged");
  EXPECT_EQ(test::run({"merge", "--output=" + merged, out,
                       test::as_another_process(out, temp("salvaged2"))})
                .rc,
            0);
  EXPECT_EQ(test::run({"report", merged}).rc, 0);

  // Only on failure: a complete run is refused with its own status (3), and OUT is left alone.
  const std::string merged_before = read_file(merged);
  const auto again = test::run({"salvage", out, "--output=" + merged});
  EXPECT_EQ(again.rc, 3);
  EXPECT_TRUE(again.out.empty());
  EXPECT_EQ(again.err, "sync_summary: nothing to salvage: " + out + " is a complete run\n");
  EXPECT_EQ(read_file(merged), merged_before);
  EXPECT_EQ(test::run({"report", merged}).rc, 0);
  // Nor is a new OUT written, or IN changed when it is OUT.
  const std::string unwritten = temp("unwritten");
  std::filesystem::remove(unwritten);
  EXPECT_EQ(test::run({"salvage", out, "--output=" + unwritten}).rc, 3);
  EXPECT_FALSE(std::filesystem::exists(unwritten));
  const std::string out_before = read_file(out);
  EXPECT_EQ(test::run({"salvage", out, "--output=" + out}).rc, 3);
  EXPECT_EQ(read_file(out), out_before);

  // Cut between two rows: nothing partial to drop.
  test::write_file(in, whole.substr(0, ends[3] + 2));
  const auto between = test::run({"salvage", "--output", out, in});
  EXPECT_EQ(between.rc, 0) << between.err;
  EXPECT_TRUE(contains(between.err, "kept 4 benchmarks")) << between.err;
  EXPECT_TRUE(contains(between.err, "; no partial entry to drop")) << between.err;

  // In place.
  test::write_file(in, whole.substr(0, ends[5] + 100));
  EXPECT_EQ(test::run({"salvage", in, "--output=" + in}).rc, 0);
  EXPECT_EQ(read_file(in), whole.substr(0, ends[5]) + "\n  ]\n}\n");

  // Refused otherwise: exit 2 (not 3), nothing written.
  const std::string none = temp("none");
  std::filesystem::remove(none);
  test::write_file(in, whole.substr(0, ends[0] - 10));
  const auto first_cut = test::run({"salvage", in, "--output=" + none});
  EXPECT_EQ(first_cut.rc, 2);
  EXPECT_TRUE(contains(first_cut.err, "no complete benchmark to salvage")) << first_cut.err;
  EXPECT_EQ(test::run({"salvage", data_path("not_gb_trace.json"), "--output=" + none}).rc, 2);
  EXPECT_EQ(test::run({"salvage", data_path("no_such_file.json"), "--output=" + none}).rc, 2);
  for (const std::string& text : {std::string(), std::string(" \n"), std::string("garbage"),
                                  whole + "{", whole.substr(0, 200)}) {
    test::write_file(in, text);
    const auto r = test::run({"salvage", in, "--output=" + none});
    EXPECT_EQ(r.rc, 2) << r.err;
    EXPECT_FALSE(contains(r.err, "is a complete run")) << r.err;
  }
  std::string bad = whole;     // a complete row that report refuses
  for (int i = 0; i < 2; ++i)  // name and run_name
    bad.replace(bad.find("NullKernel/Async/manual_time"), 28, "BM_memcpy/8");
  test::write_file(in, bad.substr(0, row_ends(bad)[0] + 20));
  const auto refused_rows = test::run({"salvage", in, "--output=" + none});
  EXPECT_EQ(refused_rows.rc, 2);
  EXPECT_TRUE(contains(refused_rows.err, "(in the complete rows: nothing salvaged)"))
      << refused_rows.err;
  EXPECT_FALSE(std::filesystem::exists(none));

  // Usage.
  EXPECT_EQ(test::run({"salvage", in}).rc, 2);                                    // no --output
  EXPECT_EQ(test::run({"salvage", in, in, "--output=" + none}).rc, 2);            // two inputs
  EXPECT_EQ(test::run({"salvage", "--filter=x", in, "--output=" + none}).rc, 2);  // no such flag
  const auto help = test::run({"salvage", "--help"});
  EXPECT_EQ(help.rc, 0);
  EXPECT_TRUE(contains(help.out, "usage: sync_summary salvage --output=OUT.json IN.json"));
  EXPECT_TRUE(contains(help.out, "exit status: 0 written; 3 IN is a complete run")) << help.out;
  EXPECT_TRUE(contains(test::run({"--help"}).out, "  salvage --output=OUT.json IN.json"));
}

// The hint is for a text that ends early, wherever in a token it ends (a bare NaN or Infinity
// too), never for JSON malformed before its end.
TEST(Salvage, OnlyATextThatEndsEarlyIsCalledCutShort) {
  const std::string head =
      "{\"context\": {}, \"benchmarks\": [{\"name\": \"A/B\", \"real_time\": 1, "
      "\"time_unit\": \"us\"}, {\"name\": \"A/C\", \"real_time\": ";
  for (const char* tail : {"", "1", "1.", "1e", "-", "N", "Na", "NaN", "I", "Infin", "-Inf", "\"x",
                           "1, \"label\": \"\\u12", "1, \"label\": tru",
                           "1, \"time_unit\": \"us\"}", "1, \"time_unit\": \"us\"}, "}) {
    try {
      parse_run(head + tail, "t.json");
      ADD_FAILURE() << tail;
    } catch (const TruncatedInput& e) {
      EXPECT_TRUE(contains(e.what(), "`sync_summary salvage`")) << e.what();
    } catch (const InputError& e) {
      ADD_FAILURE() << tail << ": not taken for a run cut short: " << e.what();
    }
  }
  for (const char* tail :
       {"1,,", "x1", "1, \"time_unit\": \"us\"}]}}", "Nab", "1] ", "1, \"label\": tru}"}) {
    try {
      parse_run(head + tail, "t.json");
      ADD_FAILURE() << tail;
    } catch (const TruncatedInput& e) {
      ADD_FAILURE() << tail << ": taken for a run cut short: " << e.what();
    } catch (const InputError& e) {
      EXPECT_FALSE(contains(e.what(), "salvage")) << e.what();
    }
  }
  const auto r = test::run({"report", data_path("malformed_trailing_comma.json")});
  EXPECT_EQ(r.rc, 2);
  EXPECT_FALSE(contains(r.err, "salvage")) << r.err;
}

}  // namespace
}  // namespace sync_summary
