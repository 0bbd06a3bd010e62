// The command line: help, exit codes, one message on bad input or bad usage.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "gb_builder.hpp"
#include "test_util.hpp"

namespace sync_summary {
namespace {

using test::contains;
using test::data_path;
using test::run;

TEST(Cli, HelpForEachCommand) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--help"}, {"-h"}, {"help"}}) {
    const auto r = run(args);
    EXPECT_EQ(r.rc, 0);
    EXPECT_TRUE(contains(r.out, "usage: sync_summary COMMAND"));
  }
  for (const char* cmd : {"report", "dtypes", "compare"}) {
    const auto r = run({cmd, "--help"});
    EXPECT_EQ(r.rc, 0) << cmd;
    EXPECT_TRUE(contains(r.out, std::string("usage: sync_summary ") + cmd)) << cmd;
    EXPECT_TRUE(r.err.empty());
    EXPECT_EQ(run({"help", cmd}).out, r.out);
  }
  EXPECT_TRUE(contains(run({"compare", "--help"}).out, "--threshold=PCT"));
}

TEST(Cli, BadUsageExitsTwoWithOneMessage) {
  const std::vector<std::vector<std::string>> cases = {
      {},
      {"summarize", "x.json"},
      {"report"},
      {"report", "--frobnicate", data_path("gb171_run.json")},
      {"report", "--format=html", data_path("gb171_run.json")},
      {"report", "--threshold=5", data_path("gb171_run.json")},  // a compare flag
      {"report", "--filter=(", data_path("gb171_run.json")},
      {"report", "--labels=a,b", data_path("gb171_run.json")},
      {"report", "-x", data_path("gb171_run.json")},
      {"report", data_path("gb171_run.json"), "--format"},
      {"compare", data_path("gb171_run.json")},
      {"compare", "--alpha=2", data_path("gb171_run.json"), data_path("gb171_run.json")},
      {"compare", "--threshold=abc", data_path("gb171_run.json"), data_path("gb171_run.json")},
      {"compare", "--wait-adjust=yes", data_path("gb171_run.json"), data_path("gb171_run.json")},
      // A label names its run in every table: one given twice or empty would not.
      {"report", "--labels=a,a", data_path("gb171_run.json"), data_path("gb183_run.json")},
      {"report", "--labels=,b", data_path("gb171_run.json"), data_path("gb183_run.json")},
      {"merge", "--output=-", data_path("gb171_run.json")},
      // Help on a command that does not exist: that command's error, not the overview and 0.
      {"help", "bogus"},
      {"--help", "bogus"},
  };
  for (const auto& args : cases) {
    const auto r = run(args);
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    EXPECT_EQ(r.rc, 2) << joined;
    EXPECT_TRUE(r.out.empty()) << joined;
    EXPECT_EQ(r.err.rfind("sync_summary: ", 0), 0u) << joined << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << joined << r.err;
  }
  EXPECT_TRUE(
      contains(run({"report", "--frobnicate", "x.json"}).err, "unknown flag '--frobnicate'"));
  EXPECT_TRUE(contains(run({"summarize"}).err, "unknown command 'summarize'"));
  EXPECT_TRUE(contains(run({"compare", "--wait-adjust=yes", "a.json", "b.json"}).err,
                       "--wait-adjust is on or off"));
}

// --wait-adjust reaches compare: between two GPUs, BigGemm's sync +12 us with SpinKernel's after
// 1 ms +12.3 is set aside (exit 0) unless it is off (exit 1, a regression).
TEST(Cli, WaitAdjustOffCountsAChangeItsWaitReferenceMadeToo) {
  // Nine processes around `overhead`, 0.01 us apart: a spread to judge.
  const auto sync_after = [](const std::string& id, double step, double overhead) {
    std::vector<double> processes;
    for (int i = 0; i < 9; ++i) processes.push_back(overhead + 0.01 * i);
    return test::sync_after_gpu_step(id, step, processes);
  };
  const auto write_run = [&](const std::string& name, const std::string& gpu, double cost) {
    std::string file = testing::TempDir() + name;
    test::write_file(
        file,
        test::gb_json({sync_after("BigGemm/DeviceSync/bf16/cublas/n:4096", 171.0, 14.0 + cost),
                       sync_after("SpinKernel/DeviceSync/us:1000", 1003.0, 100.0 + cost * 1.025)},
                      {{"gpu_uuid", gpu}}));
    return file;
  };
  const std::string base = write_run("cli_wait_base.json", "GPU-a", 0.0);
  const std::string next = write_run("cli_wait_new.json", "GPU-b", 12.0);
  const auto on = run({"compare", base, next});
  EXPECT_EQ(on.rc, 0) << on.out << on.err;
  EXPECT_TRUE(contains(on.out, "1 change between the two machines set aside")) << on.out;
  const auto off = run({"compare", "--wait-adjust=off", base, next});
  EXPECT_EQ(off.rc, 1) << off.out << off.err;
  EXPECT_FALSE(contains(off.out, "set aside")) << off.out;
}

TEST(Cli, BadInputExitsTwoWithOneMessage) {
  for (const char* f : {"empty_file.json", "empty_run.json", "malformed_truncated.json",
                        "malformed_trailing_comma.json", "not_gb_trace.json", "not_gb_array.json",
                        "unknown_name.json", "wrong_types.json", "does_not_exist.json"}) {
    for (const char* cmd : {"report", "dtypes"}) {
      const auto r = run({cmd, data_path(f)});
      EXPECT_EQ(r.rc, 2) << f;
      EXPECT_TRUE(r.out.empty()) << f;
      EXPECT_TRUE(contains(r.err, f)) << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
    EXPECT_EQ(run({"compare", data_path("gb171_run.json"), data_path(f)}).rc, 2) << f;
  }
}

TEST(Cli, ReportFormatsAndFilter) {
  const std::string f = data_path("gb171_run.json");
  const auto console = run({"report", f});
  EXPECT_EQ(console.rc, 0);
  EXPECT_TRUE(contains(console.out, "NullKernel: time per step (us), overhead against Async"));
  const auto md = run({"report", "--format=markdown", f});
  EXPECT_TRUE(contains(md.out, "| n | Async | DeviceSync | +us | +% |"));
  EXPECT_TRUE(contains(md.out, "|---:|---:|"));
  const auto csv = run({"report", "--format", "csv", f});
  EXPECT_EQ(csv.out.rfind("run,benchmark,family,", 0), 0u);
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 72);
  const auto filtered = run({"report", "--filter=^HostCopy/", f});
  EXPECT_TRUE(contains(filtered.out, "HostCopy: bandwidth"));
  EXPECT_FALSE(contains(filtered.out, "NullKernel"));
  const auto none = run({"report", "--filter=^Nothing", f});
  EXPECT_EQ(none.rc, 2);
  EXPECT_TRUE(contains(none.err, "no benchmark matches"));
}

// A filter written for --benchmark_filter, which sees the name with its suffixes
// ("HostCopy/D2H/pinned/bytes:4096/manual_time"), picks the same rows here: the gate's default set
// (scripts/ci_regress.sh) ends its names with "/".
TEST(Cli, FilterSeesTheNameWithItsSuffixes) {
  const std::string f = data_path("compare_base.json");
  const auto csv = run({"report", "--format=csv", "--filter=/bytes:4096/", f});
  EXPECT_EQ(csv.rc, 0) << csv.err;
  EXPECT_TRUE(contains(csv.out, "HostCopy/D2H/pinned/bytes:4096,"));
  EXPECT_FALSE(contains(csv.out, "bytes:16777216"));
  const auto suffix = run({"compare", "--filter=manual_time$", f, f});
  EXPECT_EQ(suffix.rc, 0) << suffix.err;
  EXPECT_TRUE(contains(suffix.out, "HostCopy/D2H/pinned/bytes:4096"));
}

TEST(Cli, CompareExitCodes) {
  const auto reg = run({"compare", data_path("compare_base.json"), data_path("compare_new.json")});
  EXPECT_EQ(reg.rc, 1);
  EXPECT_TRUE(contains(reg.out,
                       "Result: 6 regressions (1 newly failing, 1 missing from NEW), 1 "
                       "improvement; 11 "
                       "compared, 9 gated, 2 not gated"));
  const auto same =
      run({"compare", data_path("compare_base.json"), data_path("compare_base.json")});
  EXPECT_EQ(same.rc, 0);
  EXPECT_TRUE(contains(same.out, "Result: no regression"));
  const auto loose = run({"compare", "--threshold=250", data_path("compare_base.json"),
                          data_path("compare_new.json")});
  EXPECT_EQ(loose.rc, 1);  // the newly failing benchmark is a regression at any threshold
  EXPECT_TRUE(contains(loose.out, "Result: 2 regressions (1 newly failing, 1 missing from NEW)"));
  const auto negative = run({"compare", "--machine-threshold=-1", data_path("compare_base.json"),
                             data_path("compare_new.json")});
  EXPECT_EQ(negative.rc, 2);
  EXPECT_TRUE(contains(negative.err, "--machine-threshold must not be negative")) << negative.err;
  const auto filtered = run({"compare", "--filter=StreamSync", data_path("compare_base.json"),
                             data_path("compare_new.json")});
  EXPECT_EQ(filtered.rc, 0);  // only the improvement is left
  EXPECT_TRUE(contains(filtered.out, "improvement"));
  const auto warn = run(
      {"compare", "--gate=all", data_path("gb171_reps.json"), data_path("gb171_blocking.json")});
  EXPECT_EQ(warn.rc, 1);
  EXPECT_TRUE(contains(warn.err, "warning: runs differ in host_wait_mode: 'spin' vs 'blocking'"));
  EXPECT_TRUE(contains(warn.out, "WARNING: the runs come from different machines or settings"));
}

// The gate's exit codes on runs written here: 2 when nothing could be compared or gated or the
// input is bad, 1 on a newly failing benchmark, with the reason listed.
TEST(Cli, CompareExitCodesOfTheGate) {
  using test::paired;
  using test::unpaired;
  const std::string dir = testing::TempDir();
  const auto file = [&](const std::string& name, const std::vector<test::FakeBench>& b) {
    return test::write_run(dir + "gate_" + name + ".json", b);
  };
  const std::vector<double> reps = {5.0, 5.1, 4.9};
  // A paired row gated by default must resolve 5% of its step from three repetitions.
  const std::vector<double> tight = {5.0, 5.02, 4.98};
  const std::string base =
      file("base", {paired("NullKernel/DeviceSync", tight), unpaired("NullKernel/Async", reps, 0.0),
                    unpaired("GraphReplay/Replay/k:64", reps, 1.0)});

  const auto other = run({"compare", base, file("other", {paired("NullKernel/Print", reps)})});
  EXPECT_EQ(other.rc, 2);
  EXPECT_TRUE(contains(other.err, "no benchmark could be compared")) << other.err;

  const auto nope = run({"compare", "--metric=nope", base, base});
  EXPECT_EQ(nope.rc, 2);
  EXPECT_TRUE(contains(nope.err, "no benchmark has the metric 'nope'")) << nope.err;
  EXPECT_TRUE(nope.out.empty());

  const std::string failed = file(
      "failed", {paired("NullKernel/DeviceSync", tight), unpaired("NullKernel/Async", reps, 0.0),
                 test::failing("GraphReplay/Replay/k:64", "cudaErrorIllegalAddress")});
  const auto gone = run({"compare", base, failed});
  EXPECT_EQ(gone.rc, 1);
  EXPECT_TRUE(contains(gone.out, "error in NEW: cudaErrorIllegalAddress")) << gone.out;
  EXPECT_TRUE(contains(gone.out, "Result: 1 regression (1 newly failing)")) << gone.out;
  const auto back = run({"compare", failed, base});  // failing in BASE: skipped, not a regression
  EXPECT_EQ(back.rc, 0) << back.out;
  // Every benchmark failing in NEW: nothing was compared, exit 2 (the rows are still listed).
  const std::string broken = file("broken", {test::failing("NullKernel/DeviceSync", "no GPU"),
                                             test::failing("NullKernel/Async", "no GPU"),
                                             test::failing("GraphReplay/Replay/k:64", "no GPU")});
  const auto all_failed = run({"compare", base, broken});
  EXPECT_EQ(all_failed.rc, 2);
  EXPECT_TRUE(contains(all_failed.err, "every benchmark failed in NEW (3 newly failing)"))
      << all_failed.err;
  EXPECT_TRUE(contains(all_failed.out, "error in NEW: no GPU"));

  const std::string host = file("host", {unpaired("NullKernel/Async", reps, 0.0)});
  const auto ungated = run({"compare", host, host});
  EXPECT_EQ(ungated.rc, 2);
  EXPECT_TRUE(contains(ungated.err, "no row is gated")) << ungated.err;
  EXPECT_EQ(run({"compare", "--gate=all", host, host}).rc, 0);

  const std::string one = file("one", {paired("NullKernel/DeviceSync", {5.0})});
  const auto single = run({"compare", one, one});
  EXPECT_EQ(single.rc, 0);
  EXPECT_TRUE(contains(single.out, "no significance test ran")) << single.out;
  const std::string warned = "fewer than two repetitions of a benchmark: no U test runs";
  EXPECT_TRUE(contains(single.err, warned)) << single.err;
  // One side alone with one repetition is enough: no U test can run on the row.
  const std::string three = file("three", {paired("NullKernel/DeviceSync", tight)});
  const auto one_side = run({"compare", three, one});
  EXPECT_EQ(one_side.rc, 0) << one_side.out;
  EXPECT_TRUE(contains(one_side.err, warned)) << one_side.err;
  const auto repeated = run({"compare", base, base});
  EXPECT_FALSE(contains(repeated.out, "no significance test ran"));
  EXPECT_FALSE(contains(repeated.err, warned)) << repeated.err;

  const std::pair<double, const char*> bad_times[] = {
      {std::nan(""), "NaN"}, {-3.0, "-3"}, {1e308, "1e+308"}};
  for (const auto& [bad, text] : bad_times) {
    test::FakeBench b = unpaired("GraphReplay/Replay/k:64", reps, 1.0);
    b.times[1] = bad;
    const auto r = run({"compare", base, file("bad", {paired("NullKernel/DeviceSync", reps), b})});
    EXPECT_EQ(r.rc, 2) << text;
    EXPECT_TRUE(contains(r.err, std::string(": GraphReplay/Replay/k:64: real_time is ") + text))
        << r.err;
  }
}

TEST(Cli, SvgChartsAreWritten) {
  const std::string dir = testing::TempDir() + "sync_summary_svg_cli";
  std::filesystem::remove_all(dir);
  const auto r = run({"report", "--svg=" + dir, data_path("gb171_run.json")});
  EXPECT_EQ(r.rc, 0);
  EXPECT_TRUE(contains(r.err, "wrote 3 SVG charts to " + dir));
  EXPECT_TRUE(std::filesystem::exists(dir + "/overhead-SmallGemm_cublas_DeviceSync.svg"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/bandwidth-HostCopy.svg"));
  std::filesystem::remove_all(dir);

  // A --svg that is a file: refused before any report is printed.
  const std::string file = testing::TempDir() + "sync_summary_svg_is_a_file";
  test::write_file(file, "x");
  const auto onto_file = run({"report", "--svg=" + file, data_path("gb171_run.json")});
  EXPECT_EQ(onto_file.rc, 2);
  EXPECT_TRUE(onto_file.out.empty()) << onto_file.out.substr(0, 200);
}

// Chart file names fold every character but letters and digits to '_': variants a.b and a-b
// fold to one name, and the second chart is written beside the first, not over it.
TEST(Cli, SvgChartsWhoseNamesFoldToOneAreBothWritten) {
  const std::string dir = testing::TempDir() + "sync_summary_svg_fold";
  std::filesystem::remove_all(dir);
  const std::vector<double> reps = {5.0, 5.1, 4.9};
  const std::string runs =
      test::write_run(testing::TempDir() + "svg_fold.json",
                      {test::unpaired("SmallGemm/Async/fp16/cublas/n:512", reps, 0.0),
                       test::unpaired("SmallGemm/DeviceSync/a.b/fp16/cublas/n:512", reps, 0.0),
                       test::unpaired("SmallGemm/DeviceSync/a-b/fp16/cublas/n:512", reps, 0.0)});
  const auto r = run({"report", "--svg=" + dir, runs});
  ASSERT_EQ(r.rc, 0) << r.err;
  std::size_t written = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    (void)entry;
    ++written;
  }
  EXPECT_EQ(written, 2u);
  EXPECT_TRUE(contains(r.err, "wrote 2 SVG charts")) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/overhead-SmallGemm_cublas_DeviceSync_a_b-2.svg"))
      << r.err;
  std::filesystem::remove_all(dir);
}

// --metric names a counter of the runs: an unknown one is bad usage for every command, not a table
// of dashes.
// Fields that are no numbers are no counters: report, dtypes and compare say so once per file on
// stderr (the output is unchanged), and nothing for Google Benchmark's own files.
TEST(Cli, NonNumericFieldsAreNoted) {
  std::string text = test::read_file(data_path("gb171_run.json"));
  const std::string unit = "\"time_unit\": \"ns\"";
  for (std::size_t at = 0, n = 0; n < 3 && (at = text.find(unit, at)) != std::string::npos; ++n)
    text.insert(at += unit.size(), ",\n      \"tool_counter\": \"1.5\"");
  const std::string file = testing::TempDir() + "cli_non_numeric.json";
  test::write_file(file, text);
  const std::string note = "sync_summary: note: " + file +
                           ": ignored 3 non-numeric fields (e.g. 'tool_counter'): "
                           "not counters\n";
  const auto r = run({"report", file});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err, note);
  EXPECT_EQ(run({"dtypes", file}).err, note);
  const auto c = run({"compare", "--gate=all", data_path("gb171_run.json"), file});
  EXPECT_EQ(c.rc, 0) << c.err;
  EXPECT_TRUE(contains(c.err, note)) << c.err;
  EXPECT_EQ(c.err.find("note:"), c.err.rfind("note:")) << c.err;  // once
  // The report is what it is without them.
  test::write_file(file, test::read_file(data_path("gb171_run.json")));
  const auto plain = run({"report", file});
  EXPECT_EQ(plain.out, r.out);
  EXPECT_TRUE(plain.err.empty()) << plain.err;
  for (const char* gb : {"gb171_run.json", "gb183_run.json", "gb183_skipped.json"})
    EXPECT_FALSE(contains(run({"report", data_path(gb)}).err, "note:")) << gb;
}

TEST(Cli, UnknownMetricIsRefused) {
  for (const char* cmd : {"report", "dtypes"}) {
    const auto r = run({cmd, "--metric=nope", data_path("gb171_run.json")});
    EXPECT_EQ(r.rc, 2) << cmd;
    EXPECT_TRUE(r.out.empty()) << cmd;
    EXPECT_TRUE(contains(r.err, "no benchmark has the metric 'nope'")) << r.err;
  }
  EXPECT_EQ(run({"report", "--metric=batch", data_path("gb171_run.json")}).rc, 0);
}

}  // namespace
}  // namespace sync_summary
