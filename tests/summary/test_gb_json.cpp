// Reading Google Benchmark JSON: real 1.7.1 output (fake_sync_bench), real 1.8.3 output (the
// 1.8.3 wheel), hand-made 1.8.3 edge cases, and inputs that must be refused with one message.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <string_view>

#include "errors.hpp"
#include "gb_json.hpp"
#include "json_sanitize.hpp"
#include "test_util.hpp"

namespace sync_summary {
namespace {

using test::data_path;

// string_view: see test_benchmarks.cpp's bench().
const Entry& find_entry(const sync_summary::Run& run, std::string_view name) {
  for (const auto& e : run.entries)
    if (e.name == name) return e;
  throw std::runtime_error("no entry " + std::string(name));
}

double counter(const sync_summary::Run& run, const Entry& e, const std::string& name) {
  for (const auto& c : e.counters)
    if (run.counter_name(c) == name) return c.value;
  return -12345.0;
}

TEST(GbJson, Reads171Run) {
  const sync_summary::Run run = load_run(data_path("gb171_run.json"));
  EXPECT_EQ(run.context_value("gpu_name"), "NVIDIA H100 80GB HBM3 (fake)");
  EXPECT_EQ(run.context_value("driver_version"), "13000");
  EXPECT_EQ(run.context_value("host_wait_mode"), "spin");
  EXPECT_EQ(run.context_value("num_cpus"), "2");  // numbers kept as text
  EXPECT_EQ(run.context_value("caches"), "");     // nested values are not kept
  EXPECT_EQ(run.entries.size(), 71u);
  const Entry& e = find_entry(run, "SmallGemm/DeviceSync/fp16/cublas/n:512/manual_time");
  EXPECT_FALSE(e.aggregate);
  EXPECT_TRUE(e.run_name.empty());  // the same as name: not kept twice
  EXPECT_EQ(e.unit, TimeUnit::ns);
  EXPECT_TRUE(e.has_times);
  EXPECT_GT(e.real_time, 9000.0);
  EXPECT_LT(e.real_time, 9600.0);
  EXPECT_DOUBLE_EQ(counter(run, e, "batch"), 16.0);
  EXPECT_GT(counter(run, e, "TFLOPS"), 0.0);
  const Entry& err = find_entry(run, "SmallGemm/DeviceSync/fp8/cublaslt/n:512/manual_time");
  EXPECT_TRUE(err.error);
  EXPECT_EQ(err.message, "fp8 GEMMs need compute capability 8.9 or newer");
}

TEST(GbJson, Reads171RepetitionsAndAggregates) {
  const sync_summary::Run run = load_run(data_path("gb171_reps.json"));
  const Entry& cv = find_entry(run, "NullKernel/Async/manual_time_cv");
  EXPECT_TRUE(cv.aggregate);
  EXPECT_EQ(cv.aggregate_name, "cv");
  EXPECT_TRUE(cv.percentage);
  EXPECT_EQ(cv.run_name, "NullKernel/Async/manual_time");
  EXPECT_EQ(cv.repetitions, 5);
  const Entry& rep = run.entries.front();
  EXPECT_EQ(rep.repetition_index, 0);
  EXPECT_EQ(rep.repetitions, 5);
}

TEST(GbJson, Reads183Run) {
  const sync_summary::Run run = load_run(data_path("gb183_run.json"));
  EXPECT_EQ(run.context_value("gpu_name"), "NVIDIA H200");
  EXPECT_EQ(run.context_value("host_wait_mode"), "yield");
  const Entry& e = find_entry(run, "SmallGemm/BulkRead/pinned/fp16/cublaslt/n:512/manual_time");
  EXPECT_EQ(e.unit, TimeUnit::us);
  EXPECT_GT(counter(run, e, "bytes_per_second"), 0.0);
}

TEST(GbJson, Reads183SkippedErrorsAndNonFinite) {
  const sync_summary::Run run = load_run(data_path("gb183_skipped.json"));
  EXPECT_EQ(run.context_value("library_version"), "v1.8.3");
  const Entry& skipped = find_entry(run, "NullKernel/DeviceSync/manual_time");
  EXPECT_TRUE(skipped.skipped);
  EXPECT_FALSE(skipped.error);
  EXPECT_EQ(skipped.message, "wait mode blocking: DeviceSync measured by the blocking family");
  EXPECT_TRUE(find_entry(run, "NullKernel/StreamSync/manual_time").error);
  EXPECT_TRUE(std::isnan(counter(run, find_entry(run, "NullKernel/Async/manual_time"), "TFLOPS")));
  const Entry& inf = find_entry(run, "NullKernel/EventSync/manual_time");
  EXPECT_EQ(counter(run, inf, "host_us"), INFINITY);
  EXPECT_EQ(counter(run, inf, "host_cpu_us"), -INFINITY);
  EXPECT_EQ(inf.label, "NaN in a label stays a label");
  const Entry& ms = find_entry(run, "BigGemm/Async/tf32/cublas/n:8192/manual_time_median");
  EXPECT_EQ(ms.unit, TimeUnit::ms);
}

struct BadInput {
  const char* file;
  const char* message;
};

TEST(GbJson, RefusesBadInputWithOneClearMessage) {
  const BadInput cases[] = {
      {"empty_file.json", "empty file"},
      {"empty_run.json", "empty run"},
      {"malformed_truncated.json", "malformed JSON"},
      {"malformed_trailing_comma.json", "malformed JSON"},
      {"not_gb_trace.json", "not Google Benchmark JSON (no \"benchmarks\" array)"},
      {"not_gb_array.json", "not Google Benchmark JSON (the top level is not an object)"},
      {"wrong_types.json", "\"real_time\" is not a number"},
      {"no_such_file.json", "cannot open file"},
  };
  for (const auto& c : cases) {
    try {
      load_run(data_path(c.file));
      ADD_FAILURE() << c.file << " was accepted";
    } catch (const InputError& e) {
      EXPECT_TRUE(test::contains(e.what(), c.message)) << c.file << ": " << e.what();
      EXPECT_TRUE(test::contains(e.what(), c.file)) << e.what();
    }
  }
}

TEST(GbJson, RefusesOtherShapes) {
  for (const char* text :
       {"42", "\"x\"", "null", "{}", "{\"benchmarks\": []}",
        "{\"context\": [], \"benchmarks\": [{}]}", "{\"context\": {}, \"benchmarks\": {}}",
        "{\"context\": {}, \"benchmarks\": [1]}",
        "{\"context\": {}, \"benchmarks\": [{\"real_time\": 1}]}",
        "{\"context\": {}, \"benchmarks\": [{\"name\": \"A/B\"}]}",
        "{\"context\": {}, \"benchmarks\": [{\"name\": \"A/B\", \"real_time\": "
        "1, \"time_unit\": \"fortnights\"}]}",
        "{\"context\": {}, \"benchmarks\": [{\"name\": \"A/B\", \"real_time\": "
        "1, \"time_unit\": \"us\", \"repetitions\": 1e300}]}",
        // A repetition's GPU (sync_summary merge writes it) must be a string.
        "{\"context\": {}, \"benchmarks\": [{\"name\": \"A/B\", \"real_time\": "
        "1, \"time_unit\": \"us\", \"gpu_uuid\": 5}]}",
        "{\"context\": {}, \"benchmarks\": [{\"name\": \"A/B\", \"real_time\": "
        "1, \"time_unit\": \"us\"}]} trailing"}) {
    EXPECT_THROW(parse_run(text, "t.json"), InputError) << text;
  }
}

// A time without its unit means nothing (Google Benchmark writes one beside every time), and a
// name longer than 1024 characters is refused before a --filter regex could recurse through it.
TEST(GbJson, RefusesATimeWithoutUnitAndAnEndlessName) {
  const auto refused = [](const std::string& text, const std::string& message) {
    try {
      parse_run(text, "t.json");
      ADD_FAILURE() << text.substr(0, 120);
    } catch (const InputError& e) {
      EXPECT_TRUE(test::contains(e.what(), message)) << e.what();
    }
  };
  refused("{\"context\": {}, \"benchmarks\": [{\"name\": \"A/B\", \"real_time\": 1}]}",
          "\"real_time\" without a \"time_unit\"");
  // An aggregate must say which statistic it holds: without it its values vanished unread.
  refused(
      "{\"context\": {}, \"benchmarks\": [{\"name\": \"A/B_median\", \"run_type\": "
      "\"aggregate\", \"real_time\": 1, \"time_unit\": \"us\"}]}",
      "with no \"aggregate_name\"");
  const std::string row = "\", \"real_time\": 1, \"time_unit\": \"us\"}]}";
  refused("{\"context\": {}, \"benchmarks\": [{\"name\": \"A/" + std::string(1100, 'B') + row,
          "\"name\" is 1102 characters long (at most 1024)");
  EXPECT_NO_THROW(
      parse_run("{\"context\": {}, \"benchmarks\": [{\"name\": \"A/" + std::string(1022, 'B') + row,
                "t.json"));
}

// A key twice in one row would read as two repetitions' values of it (or the second time silently
// winning): refused, naming the key.
TEST(GbJson, RefusesAKeyTwiceInOneRow) {
  for (const char* key : {"real_time", "overhead_us"}) {
    const std::string text = std::string(R"({"context": {}, "benchmarks": [{"name": "A/B",
        "real_time": 3, "time_unit": "us", "overhead_us": 1, ")") +
                             key + R"(": 2}]})";
    try {
      parse_run(text, "t.json");
      ADD_FAILURE() << key << " read twice";
    } catch (const InputError& e) {
      EXPECT_TRUE(test::contains(e.what(), "\"" + std::string(key) + "\" twice")) << e.what();
    }
  }
}

TEST(GbJson, AcceptsMinimalRun) {
  const sync_summary::Run run = parse_run(
      "{\"context\": {}, \"benchmarks\": [{\"name\": \"A/B\", \"real_time\": 1.5, \"cpu_time\": "
      "2, \"time_unit\": \"ms\", \"extra\": [1, {\"x\": 2}], \"my_counter\": 7}]}",
      "t.json");
  ASSERT_EQ(run.entries.size(), 1u);
  EXPECT_EQ(run.entries[0].unit, TimeUnit::ms);
  EXPECT_DOUBLE_EQ(run.entries[0].real_time, 1.5);
  EXPECT_DOUBLE_EQ(counter(run, run.entries[0], "my_counter"), 7.0);
  EXPECT_EQ(run.entries[0].counters.size(), 1u);
}

// A field that is neither known nor a number is no counter; it is counted, so that report can say
// so, never taken silently. Known string fields and Google Benchmark's own output count nothing.
TEST(GbJson, CountsFieldsThatAreNoNumbers) {
  const sync_summary::Run run = parse_run(
      "{\"context\": {\"note\": \"a string\", \"caches\": [1]}, \"benchmarks\": [{\"name\": "
      "\"A/B\", \"run_name\": \"A/B\", \"run_type\": \"iteration\", \"real_time\": 1, "
      "\"time_unit\": \"us\", \"label\": \"x\", \"big_o\": \"N\", \"gpu_uuid\": \"GPU-1\", "
      "\"tool_note\": \"by hand\", \"str_counter\": \"12.5\", \"flag\": true, \"none\": null, "
      "\"nested\": [1, [2]], \"nan_counter\": \"NaN\", \"counter\": 3}, {\"name\": \"A/C\", "
      "\"real_time\": 1, \"time_unit\": \"us\", \"error_occurred\": true, \"error_message\": "
      "\"e\", \"skipped\": false, \"skip_message\": \"s\", \"aggregate_unit\": \"time\", "
      "\"str_counter\": \"7\"}]}",
      "t.json");
  EXPECT_EQ(run.ignored_fields, 6u);  // tool_note, str_counter twice, flag, none, nested
  EXPECT_EQ(run.ignored_example, "tool_note");
  ASSERT_EQ(run.entries.size(), 2u);
  EXPECT_EQ(run.entries[0].counters.size(), 2u);  // nan_counter and counter
  EXPECT_EQ(counter(run, run.entries[0], "str_counter"), -12345.0);
  EXPECT_TRUE(std::isnan(counter(run, run.entries[0], "nan_counter")));
  for (const char* file : {"gb171_run.json", "gb171_reps.json", "gb171_aggregates_only.json",
                           "gb183_run.json", "gb183_skipped.json", "h100_reps_nullkernel.json"}) {
    const sync_summary::Run gb = load_run(data_path(file));
    EXPECT_EQ(gb.ignored_fields, 0u) << file << ": " << gb.ignored_example;
  }
}

TEST(JsonSanitize, QuotesBareNonFiniteWordsOnly) {
  EXPECT_EQ(quote_non_finite("{\"a\": NaN, \"b\": -Infinity, \"c\": Infinity}"),
            "{\"a\": \"NaN\", \"b\": \"-Infinity\", \"c\": \"Infinity\"}");
  EXPECT_EQ(quote_non_finite("{\"NaN\": \"Infinity \\\" NaN\", \"x\": -1.5}"),
            "{\"NaN\": \"Infinity \\\" NaN\", \"x\": -1.5}");
  EXPECT_EQ(quote_non_finite("[NaNx]"), "[NaNx]");  // not a whole word: left to the parser
  EXPECT_EQ(quote_non_finite(""), "");
}

TEST(JsonSanitize, NonFiniteValues) {
  EXPECT_TRUE(std::isnan(*non_finite_value("NaN")));
  EXPECT_EQ(*non_finite_value("Infinity"), INFINITY);
  EXPECT_EQ(*non_finite_value("-Infinity"), -INFINITY);
  EXPECT_FALSE(non_finite_value("nan").has_value());
}

}  // namespace
}  // namespace sync_summary
