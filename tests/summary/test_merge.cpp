// merge: K runs (one per sync_bench process) as one Google Benchmark JSON whose repetitions are
// the runs: each benchmark's iteration rows, then its mean/median/stddev/cv aggregates; refused
// for runs of different machines or settings, or of different benchmark sets.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "benchmarks.hpp"
#include "errors.hpp"
#include "gb_builder.hpp"
#include "gb_json.hpp"
#include "merge.hpp"
#include "test_util.hpp"

namespace sync_summary {
namespace {

using test::contains;
using test::paired;
using test::unpaired;

// A file of this test's own: ctest runs the tests as parallel processes.
std::string temp(const std::string& name) {
  return testing::TempDir() + "merge_" +
         testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + name + ".json";
}

// Run i of K: A paired (overhead 5 + i), B GPU-bound (100 + 10 i), one repetition each.
std::string run_file(int i, const std::map<std::string, std::string>& context = {},
                     bool fail_a = false, bool extra = false, bool drop_b = false) {
  std::vector<test::FakeBench> b;
  b.push_back(fail_a ? test::failing("NullKernel/DeviceSync", "cudaErrorLaunchFailure")
                     : paired("NullKernel/DeviceSync", {5.0 + i}));
  if (!drop_b) b.push_back(unpaired("GraphReplay/Replay/k:64", {100.0 + 10.0 * i}, 1.0));
  if (extra) b.push_back(unpaired("NullKernel/Async", {2.0}, 0.0));
  return test::write_run(temp("run" + std::to_string(i)), b, context);
}

nlohmann::json read_json(const std::string& path) {
  return nlohmann::json::parse(test::read_file(path));
}

TEST(Merge, RowsAreRepetitionsThenAggregates) {
  const std::vector<std::string> runs = {run_file(0), run_file(1), run_file(2)};
  const std::string out = temp("out");
  EXPECT_EQ(merge_runs(runs, out).repetitions, 3u);
  const nlohmann::json m = read_json(out);
  EXPECT_EQ(m["context"]["merged_runs"], 3);
  EXPECT_EQ(m["context"]["gpu_name"], "NVIDIA H100 80GB HBM3");
  const auto& rows = m["benchmarks"];
  ASSERT_EQ(rows.size(), 2u * (3 + 4));
  const std::string names[] = {"NullKernel/DeviceSync/manual_time",
                               "GraphReplay/Replay/k:64/manual_time"};
  for (std::size_t b = 0; b < 2; ++b) {
    for (int i = 0; i < 3; ++i) {
      const auto& r = rows[b * 7 + i];
      EXPECT_EQ(r["name"], names[b]);
      EXPECT_EQ(r["run_name"], names[b]);
      EXPECT_EQ(r["run_type"], "iteration");
      EXPECT_EQ(r["repetitions"], 3);
      EXPECT_EQ(r["repetition_index"], i);
    }
    const char* stats[] = {"mean", "median", "stddev", "cv"};
    for (int s = 0; s < 4; ++s) {
      const auto& a = rows[b * 7 + 3 + s];
      EXPECT_EQ(a["name"], names[b] + "_" + stats[s]);
      EXPECT_EQ(a["run_name"], names[b]);
      EXPECT_EQ(a["run_type"], "aggregate");
      EXPECT_EQ(a["aggregate_name"], stats[s]);
      EXPECT_EQ(a["repetitions"], 3);
    }
  }
  // The run-to-run values: real_time 7, 8, 9 (baseline 2 + overhead 5..7) of the paired row.
  EXPECT_DOUBLE_EQ(rows[0]["real_time"].get<double>(), 7.0);
  EXPECT_DOUBLE_EQ(rows[2]["overhead_us"].get<double>(), 7.0);
  EXPECT_DOUBLE_EQ(rows[3]["real_time"].get<double>(), 8.0);     // mean
  EXPECT_DOUBLE_EQ(rows[4]["overhead_us"].get<double>(), 6.0);   // median
  EXPECT_DOUBLE_EQ(rows[5]["real_time"].get<double>(), 1.0);     // stddev
  EXPECT_DOUBLE_EQ(rows[11]["real_time"].get<double>(), 110.0);  // B's median

  // What compare sees: three repetitions of each metric, from the processes.
  const RunData d = digest(load_run(out));
  ASSERT_EQ(d.benches.size(), 2u);
  const Metric* overhead = d.benches[0].metric("overhead_us");
  ASSERT_NE(overhead, nullptr);
  EXPECT_EQ(overhead->reps, (std::vector<double>{5.0, 6.0, 7.0}));
  EXPECT_EQ(d.benches[1].summary(std::string(kRealTime)).n, 3u);
}

TEST(Merge, FailedRowsAreKeptWithoutAggregates) {
  const std::string out = temp("failed");
  merge_runs({run_file(0), run_file(1, {}, /*fail_a=*/true), run_file(2)}, out);
  const nlohmann::json m = read_json(out);
  const auto& rows = m["benchmarks"];
  ASSERT_EQ(rows.size(), 3u + 3 + 4);  // A: three rows, no aggregates; B: three and four
  EXPECT_TRUE(rows[1].value("error_occurred", false));
  EXPECT_EQ(rows[1]["error_message"], "cudaErrorLaunchFailure");
  EXPECT_EQ(rows[1]["repetition_index"], 1);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(rows[i]["run_type"], "iteration");
  EXPECT_EQ(rows[6]["aggregate_name"], "mean");
  EXPECT_EQ(rows[6]["run_name"], "GraphReplay/Replay/k:64/manual_time");
}

TEST(Merge, OneRunHasNoAggregates) {
  const std::string out = temp("one");
  EXPECT_EQ(merge_runs({run_file(0)}, out).repetitions, 1u);
  const nlohmann::json m = read_json(out);
  const auto& rows = m["benchmarks"];
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& r : rows) EXPECT_EQ(r["run_type"], "iteration");
}

TEST(Merge, RefusesRunsOfDifferentMachinesOrSettings) {
  for (const char* key :
       {"gpu_name", "gpu_cc", "driver_version", "runtime_version", "nvml_driver_version",
        "host_wait_mode", "cpu_model", "sync_accounting", "multi_gpu_devices"}) {
    const std::string out = temp(std::string("ctx_") + key);
    std::filesystem::remove(out);
    const auto r =
        test::run({"merge", "--output=" + out, run_file(0), run_file(1, {{key, "other"}})});
    EXPECT_EQ(r.rc, 2) << key;
    EXPECT_TRUE(contains(r.err, std::string(" in ") + key + " ('other' vs")) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out)) << key;
  }
  // The date, the host name and the build may differ.
  const std::string other = run_file(1, {{"sync_bench_version", "0.2"}});
  std::string text = test::read_file(other);
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"2026-11-22T00", "2026-11-23T09"},
        {"\"host_name\": \"test\"", "\"host_name\": \"other\""}}) {
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  }
  test::write_file(other, text);
  const std::string out = temp("ctx_date");
  const auto r = test::run({"merge", "--output=" + out, run_file(0), other});
  EXPECT_EQ(r.rc, 0) << r.err;
}

// Runs of one GPU model from several machines merge; the merged run then names no GPU, so that
// compare judges it with the between-machine threshold against any run.
TEST(Merge, RunsOfSeveralGpusNameNone) {
  const std::string same = temp("same_gpu");
  merge_runs({run_file(0, {{"gpu_uuid", "GPU-a"}}), run_file(1, {{"gpu_uuid", "GPU-a"}})}, same);
  EXPECT_EQ(read_json(same)["context"]["gpu_uuid"], "GPU-a");
  const std::string mixed = temp("mixed_gpus");
  merge_runs({run_file(0, {{"gpu_uuid", "GPU-a"}}), run_file(1, {{"gpu_uuid", "GPU-b"}})}, mixed);
  EXPECT_FALSE(read_json(mixed)["context"].contains("gpu_uuid"));
}

// Processes of several builds merge; the merged run then names no build (a version or a source
// fingerprint that only some of its processes had), and one build's processes keep theirs.
TEST(Merge, RunsOfSeveralBuildsNameNone) {
  const std::map<std::string, std::string> a = {{"sync_bench_version", "0.1.0"},
                                                {"sync_bench_source", "0123456789abcdef"}};
  const std::string same = temp("same_build");
  merge_runs({run_file(0, a), run_file(1, a), run_file(2, a)}, same);
  EXPECT_EQ(read_json(same)["context"]["sync_bench_version"], "0.1.0");
  EXPECT_EQ(read_json(same)["context"]["sync_bench_source"], "0123456789abcdef");
  for (const char* key : {"sync_bench_version", "sync_bench_source"}) {
    std::map<std::string, std::string> b = a;
    b[key] = "other";
    const std::string mixed = temp(std::string("mixed_") + key);
    merge_runs({run_file(0, a), run_file(1, a), run_file(2, b)}, mixed);
    const nlohmann::json context = read_json(mixed)["context"];
    EXPECT_FALSE(context.contains(key)) << key;
    EXPECT_EQ(context.contains("sync_bench_version"), std::string(key) != "sync_bench_version");
  }
}

// Each process measured its host's clock; the merged run holds their range, and none when one
// run does not say.
TEST(Merge, HostClockBecomesTheProcessesRange) {
  const auto clock_of = [](const std::vector<std::string>& clocks) {
    std::vector<std::string> files;
    for (std::size_t i = 0; i < clocks.size(); ++i)
      files.push_back(clocks[i] == "none"
                          ? run_file(static_cast<int>(i))
                          : run_file(static_cast<int>(i), {{"host_clock_ghz", clocks[i]}}));
    const std::string out = temp("clock");
    merge_runs(files, out);
    const nlohmann::json context = read_json(out)["context"];
    return context.contains("host_clock_ghz") ? context["host_clock_ghz"].get<std::string>()
                                              : std::string("absent");
  };
  EXPECT_EQ(clock_of({"2.97", "2.86", "2.91-2.95"}), "2.86-2.97");
  EXPECT_EQ(clock_of({"2.50", "2.50"}), "2.50");
  EXPECT_EQ(clock_of({"2.50", "none"}), "absent");
  EXPECT_EQ(clock_of({"2.50", "fast"}), "absent");
}

// Each repetition's row names its run's GPU, and a row merged before keeps its own: a baseline
// merged from merged runs still knows every process's machine.
TEST(Merge, EveryRepetitionNamesItsGpu) {
  const std::string ab = temp("ab");
  merge_runs({run_file(0, {{"gpu_uuid", "GPU-a"}}), run_file(1, {{"gpu_uuid", "GPU-b"}})}, ab);
  const std::string abc = temp("abc");
  merge_runs({ab, run_file(2, {{"gpu_uuid", "GPU-c"}})}, abc);
  std::vector<std::string> gpus;
  const nlohmann::json merged = read_json(abc);
  for (const auto& r : merged["benchmarks"])
    if (r["run_type"] == "iteration" && r["name"] == "NullKernel/DeviceSync/manual_time")
      gpus.push_back(r["gpu_uuid"]);
  EXPECT_EQ(gpus, (std::vector<std::string>{"GPU-a", "GPU-b", "GPU-c"}));
  const RunData d = digest(load_run(abc));
  EXPECT_EQ(d.find("NullKernel/DeviceSync")->rep_gpus,
            (std::vector<std::string>{"GPU-a", "GPU-b", "GPU-c"}));
  // A run merged before counts as its processes, and the GPUs are counted across both.
  EXPECT_EQ(merged["context"]["merged_runs"], 3);
  const std::string abcc = temp("abcc");
  EXPECT_EQ(merge_runs({abc, run_file(3, {{"gpu_uuid", "GPU-c"}})}, abcc).gpus, 3u);
  EXPECT_EQ(read_json(abcc)["context"]["merged_runs"], 4);
  const auto r =
      test::run({"merge", "--output=" + abcc, abc, run_file(4, {{"gpu_uuid", "GPU-d"}})});
  EXPECT_EQ(r.rc, 0);
  EXPECT_TRUE(contains(r.err, "(4 repetitions a benchmark, from 4 GPUs)")) << r.err;
  // An unmerged run's repetitions are on its context's GPU.
  const RunData one = digest(load_run(run_file(3, {{"gpu_uuid", "GPU-d"}})));
  EXPECT_EQ(one.find("NullKernel/DeviceSync")->rep_gpus, (std::vector<std::string>{"GPU-d"}));
}

// --filter merges only the benchmarks it finds, so runs of different sets merge on the ones they
// share; a filter that finds nothing is an error.
TEST(Merge, FilterPicksTheBenchmarks) {
  const std::string out = temp("filtered");
  const std::regex only_sync("DeviceSync");
  EXPECT_EQ(merge_runs({run_file(0), run_file(1, {}, false, /*extra=*/true)}, out, &only_sync)
                .repetitions,
            2u);
  const nlohmann::json merged = read_json(out);
  for (const auto& r : merged["benchmarks"])
    EXPECT_EQ(r["run_name"], "NullKernel/DeviceSync/manual_time");
  const std::regex nothing("Nothing");
  EXPECT_THROW(merge_runs({run_file(0), run_file(1)}, out, &nothing), InputError);
  EXPECT_EQ(test::run({"merge", "--output=" + out, "--filter=DeviceSync", run_file(0),
                       run_file(1, {}, false, true)})
                .rc,
            0);
  EXPECT_EQ(test::run({"merge", "--output=" + out, "--filter=(", run_file(0)}).rc, 2);
}

// merge's --filter finds what report's and compare's find: the identity as well as the name as
// written, so "DeviceSync$" (the written name ends in "/manual_time") picks the same benchmark.
TEST(Merge, FilterSeesTheIdentityToo) {
  const std::string out = temp("filtered_identity");
  const std::regex at_the_end("DeviceSync$");
  EXPECT_EQ(merge_runs({run_file(0), run_file(1)}, out, &at_the_end).repetitions, 2u);
  const nlohmann::json merged = read_json(out);
  ASSERT_FALSE(merged["benchmarks"].empty());
  for (const auto& r : merged["benchmarks"])
    EXPECT_EQ(r["run_name"], "NullKernel/DeviceSync/manual_time");
  const auto cli = test::run({"report", "--format=csv", "--filter=DeviceSync$", out});
  EXPECT_EQ(cli.rc, 0) << cli.err;
  EXPECT_TRUE(contains(cli.out, "NullKernel/DeviceSync")) << cli.out;
}

TEST(Merge, RefusesDifferentBenchmarkSets) {
  const std::string out = temp("sets");
  try {
    merge_runs({run_file(0), run_file(1, {}, false, /*extra=*/true)}, out);
    ADD_FAILURE() << "merged a run with an extra benchmark";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "NullKernel/Async/manual_time is in")) << e.what();
  }
  try {
    merge_runs({run_file(0), run_file(1, {}, false, false, /*drop_b=*/true)}, out);
    ADD_FAILURE() << "merged a run missing a benchmark";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "GraphReplay/Replay/k:64/manual_time is in")) << e.what();
    EXPECT_TRUE(contains(e.what(), "but not in")) << e.what();
  }
  const auto r = test::run({"merge", "--output=" + out, run_file(0), run_file(1, {}, false, true)});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(test::run({"merge", run_file(0)}).rc, 2);  // no --output
  EXPECT_EQ(test::run({"merge", "--output=" + out, test::data_path("not_gb_array.json")}).rc, 2);
}

// merge reads each run as every command does, then copies its rows: what report refuses, merge
// refuses, naming the file; and its aggregates average numbers of one unit only.
TEST(Merge, RefusesWhatReportRefuses) {
  const std::string out = temp("out");
  const std::string good = run_file(0);
  const auto refused = [&](const std::string& bad, const std::string& message) {
    try {
      merge_runs({good, bad}, out);
      ADD_FAILURE() << "merged " << bad;
    } catch (const InputError& e) {
      EXPECT_TRUE(contains(e.what(), message)) << e.what();
    }
  };
  refused(test::data_path("wrong_types.json"), "wrong_types.json");
  refused(test::data_path("unknown_name.json"), "does not follow the grammar");
  test::FakeBench nan_time = paired("NullKernel/DeviceSync", {std::nan("")});
  refused(test::write_run(temp("nan"), {nan_time}), "real_time is NaN");

  // The same benchmarks in ms: the numbers would be averaged as if they were us.
  std::string ms = test::read_file(run_file(1));
  const std::string us = "\"time_unit\": \"us\"";
  for (std::size_t at = 0; (at = ms.find(us, at)) != std::string::npos;)
    ms.replace(at, us.size(), "\"time_unit\": \"ms\"");
  const std::string ms_file = temp("ms");
  test::write_file(ms_file, ms);
  refused(ms_file, "merge runs of one time unit");

  // A value nested 100,000 deep beside the rows: no Google Benchmark output, and a DOM copy of it
  // overflowed the stack.
  std::string deep = test::read_file(run_file(2));
  deep.insert(deep.find('{') + 1,
              "\"deep\": " + std::string(100000, '[') + std::string(100000, ']') + ", ");
  const std::string deep_file = temp("deep");
  test::write_file(deep_file, deep);
  refused(deep_file, "nested deeper than 32 levels");
}

// The merged file, byte for byte, against files written by merge when it built every run and the
// output as one nlohmann::ordered_json document (before it streamed them): its numbers, key order
// and layout are unchanged. Rewritten with SYNC_SUMMARY_UPDATE_GOLDEN=1, as the other golden files.
TEST(Merge, OutputMatchesGoldenFiles) {
  struct Case {
    const char* golden;
    std::vector<std::string> args;
  };
  const std::string dir = std::string(SYNC_SUMMARY_TEST_DATA) + "/";
  const std::string async = temp("golden_async");
  const Case cases[] = {
      // bare NaN and Infinity, errors, skips, aggregates in ms
      {"merge_183_skipped.json",
       {dir + "gb183_skipped.json",
        test::as_another_process(dir + "gb183_skipped.json", temp("skipped2"))}},
      // gpu_uuid, repetitions
      {"merge_h100_async.json", {dir + "h100_async_base.json", dir + "h100_async_repeat.json"}},
      // a run merged before (the previous case's output) and a process it does not hold
      {"merge_h100_async_again.json",
       {async, test::with_slower_steps(dir + "h100_async_repeat.json", temp("repeat_slower"))}},
      {"merge_171_filtered.json",
       {"--filter=^(NullKernel|SmallGemm/DeviceSync/fp8)", dir + "gb171_run.json",
        test::as_another_process(dir + "gb171_run.json", temp("run2")),
        test::as_another_process(temp("run2"), temp("run3"))}},
  };
  const char* update = std::getenv("SYNC_SUMMARY_UPDATE_GOLDEN");
  for (const Case& c : cases) {
    const std::string out = c.golden == std::string("merge_h100_async.json") ? async : temp("out");
    std::vector<std::string> args = {"merge", "--output=" + out};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = test::run(args);
    ASSERT_EQ(r.rc, 0) << r.err;
    const std::string golden = dir + "golden/" + c.golden;
    if (update && std::string(update) == "1") {
      test::write_file(golden, test::read_file(out));
      continue;  // compared with itself it would pass
    }
    EXPECT_EQ(test::read_file(out), test::read_file(golden)) << c.golden;
  }
  if (update && std::string(update) == "1") GTEST_SKIP() << "rewrote the merge goldens";
}

// merge_texts (the fuzz target's) writes what merge_runs writes; and the output may be one of the
// inputs (a baseline merged into itself): it is read before it is written.
TEST(Merge, InMemoryAndInPlace) {
  const std::string a = run_file(0), b = run_file(1);
  const std::string out = temp("out");
  merge_runs({a, b}, out);
  const std::string ta = test::read_file(a), tb = test::read_file(b);
  std::ostringstream mem;
  EXPECT_EQ(merge_texts({{a, ta}, {b, tb}}, mem).repetitions, 2u);
  EXPECT_EQ(mem.str(), test::read_file(out));
  const auto r = test::run({"merge", "--output=" + a, a, b});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(test::read_file(a), test::read_file(out));
}

// Fields that are no numbers (a counter some tool wrote as a string, an unknown key) are not
// counters: merge keeps them in each row as they are, and averages none of them.
TEST(Merge, KeepsNonNumericFieldsAsTheyAre) {
  std::vector<std::string> runs;
  for (int i = 0; i < 2; ++i) {
    std::string text = test::read_file(run_file(i));
    const std::string key = "\"time_unit\": \"us\"";
    text.replace(
        text.find(key), key.size(),
        key + ", \"tool_note\": \"run " + std::to_string(i) +
            "\", \"str_counter\": \"12.5\", \"flag\": true, \"nested\": [1, {\"x\": null}]");
    runs.push_back(temp("strings" + std::to_string(i)));
    test::write_file(runs.back(), text);
  }
  const std::string out = temp("out");
  merge_runs(runs, out);
  const nlohmann::json m = read_json(out);
  const auto& rows = m["benchmarks"];
  ASSERT_EQ(rows.size(), 2u * (2 + 4));
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(rows[i]["tool_note"], "run " + std::to_string(i));
    EXPECT_EQ(rows[i]["str_counter"], "12.5");
    EXPECT_EQ(rows[i]["flag"], true);
    EXPECT_EQ(rows[i]["nested"], nlohmann::json::parse("[1, {\"x\": null}]"));
  }
  for (int s = 2; s < 6; ++s) {  // the aggregates: numbers only
    EXPECT_EQ(rows[s]["run_type"], "aggregate");
    EXPECT_FALSE(rows[s].contains("tool_note"));
    EXPECT_FALSE(rows[s].contains("str_counter"));
    EXPECT_TRUE(rows[s].contains("overhead_us"));
  }
  EXPECT_FALSE(rows[6].contains("tool_note"));  // only the row that had it
}

// merge checks each run as digest does (check_run): two rows of one repetition are refused.
TEST(Merge, RefusesTwoRowsOfOneRepetition) {
  std::string text = test::read_file(run_file(0));
  const std::size_t row = text.find("\n    {");
  const std::size_t end = text.find('}', row) + 1;
  text.insert(end, "," + text.substr(row, end - row));
  const std::string twice = temp("twice");
  test::write_file(twice, text);
  try {
    merge_runs({twice}, temp("out"));
    ADD_FAILURE() << "merged two rows of one repetition";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "two rows of repetition 0 of NullKernel/DeviceSync"))
        << e.what();
  }
  EXPECT_EQ(test::run({"report", twice}).rc, 2);
}

// A row with a real_time and no cpu_time: its aggregates still say their unit, so that the merged
// run is read (the fuzzer's find: tests/data/fuzz/merge_aggregate_without_time_unit.json).
TEST(Merge, AggregatesWithoutCpuTimeKeepTheirUnit) {
  std::string text = test::read_file(run_file(0));
  const std::size_t at = text.find("\"cpu_time\": ");
  text.erase(at, text.find(", ", at) + 2 - at);
  const std::string file = temp("no_cpu");
  test::write_file(file, text);
  const std::string out = temp("out");
  merge_runs({file, test::as_another_process(file, temp("no_cpu2"))}, out);
  const nlohmann::json m = read_json(out);
  EXPECT_FALSE(m["benchmarks"][0].contains("cpu_time"));
  EXPECT_EQ(m["benchmarks"][2]["aggregate_name"], "mean");
  EXPECT_EQ(m["benchmarks"][2]["time_unit"], "us");
  EXPECT_EQ(test::run({"report", out}).rc, 0);
}

// One run given twice (the same file, a link to it, a copy) would count its processes twice and
// shrink the noise the gate sees: refused, naming both. Runs that only failed may be alike byte
// for byte and carry no number: merged.
TEST(Merge, RefusesOneRunGivenTwice) {
  const std::string run = run_file(0);
  const std::string link = temp("link");
  std::filesystem::remove(link);
  std::filesystem::create_symlink(run, link);
  const std::string copy = temp("copy");
  std::filesystem::copy_file(run, copy, std::filesystem::copy_options::overwrite_existing);
  for (const std::string& again : {run, link, copy}) {
    const std::string out = temp("out");
    std::filesystem::remove(out);
    const auto r = test::run({"merge", "--output=" + out, run, run_file(1), again});
    EXPECT_EQ(r.rc, 2) << again;
    EXPECT_TRUE(contains(r.err, again + " is the same run as " + run)) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
  }
  const std::string failed = test::write_run(
      temp("failed"), {test::failing("NullKernel/DeviceSync", "cudaErrorNoDevice")});
  const std::string failed_copy = temp("failed_copy");
  std::filesystem::copy_file(failed, failed_copy,
                             std::filesystem::copy_options::overwrite_existing);
  EXPECT_EQ(test::run({"merge", "--output=" + temp("out"), failed, failed_copy}).rc, 0);
}

// A merged run given again with a run it holds (a baseline rebuilt from itself and its runs), or
// beside another merged run that shares a process: no two files alike, but one process's rows
// twice, which would count it twice. Refused, naming both files; a merged run with a process it
// does not hold is merged. Made-up runs that repeat each other's rows, none merged before, are
// told apart by the byte-for-byte check alone.
TEST(Merge, RefusesAProcessAlreadyInAMergedRun) {
  const std::string first = run_file(0), second = run_file(1), third = run_file(2);
  const std::string base = temp("base"), other = temp("other"), out = temp("out");
  ASSERT_EQ(test::run({"merge", "--output=" + base, first, second}).rc, 0);
  ASSERT_EQ(test::run({"merge", "--output=" + other, second, third}).rc, 0);
  for (const auto& [again, named] : std::vector<std::pair<std::string, std::string>>{
           {first, first}, {second, second}, {other, other}}) {
    std::filesystem::remove(out);
    const auto r = test::run({"merge", "--output=" + out, base, again});
    EXPECT_EQ(r.rc, 2) << again;
    EXPECT_TRUE(contains(r.err, "one process is in both " + base + " and " + named)) << r.err;
    EXPECT_TRUE(contains(r.err, "alike in every benchmark")) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
  }
  const auto grown = test::run({"merge", "--output=" + out, base, third});
  EXPECT_EQ(grown.rc, 0) << grown.err;
  EXPECT_EQ(read_json(out)["context"]["merged_runs"], 3);
  const std::string copy = test::as_another_process(third, temp("copy"));
  EXPECT_EQ(test::run({"merge", "--output=" + out, third, copy}).rc, 0) << "made-up processes";
  // A process alike in one benchmark only (first's DeviceSync row, another Replay time) is another.
  const std::string alike_in_one = test::write_run(
      temp("alike_in_one"),
      {paired("NullKernel/DeviceSync", {5.0}), unpaired("GraphReplay/Replay/k:64", {777.0}, 1.0)});
  const auto other_process = test::run({"merge", "--output=" + out, base, alike_in_one});
  EXPECT_EQ(other_process.rc, 0) << other_process.err;
}

}  // namespace
}  // namespace sync_summary
