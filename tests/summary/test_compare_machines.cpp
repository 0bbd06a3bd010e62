// compare between machines: the context warnings (GPU, driver, wait mode, devices, host clocks),
// the machine threshold and the spread BASE's GPUs measured, the GPU idle a host paces, graphs of
// empty kernels, the wait reference, and a NEW host outside BASE's machines.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "compare.hpp"
#include "compare_helpers.hpp"
#include "gb_builder.hpp"
#include "gb_json.hpp"
#include "merge.hpp"
#include "run_info.hpp"
#include "statistics.hpp"
#include "test_util.hpp"

namespace sync_summary {
namespace {

using test::document_says;
using test::load;
using test::nine;
using test::on_gpu;
using test::row;
using test::Runs;

TEST(Compare, DifferentMachinesOrWaitModesWarn) {
  const Runs r = load("gb171_reps.json", "gb171_blocking.json");
  CompareOptions all;
  all.gate = Gate::all;  // these fixtures carry no gpu_bound: nothing is gated by default
  const CompareResult res = compare_runs(r.base, r.next, all);
  ASSERT_EQ(res.context_warnings.size(), 1u);
  EXPECT_EQ(res.context_warnings[0], "host_wait_mode: 'spin' vs 'blocking'");
  // The blocking run is 8% slower on every benchmark, 5 repetitions apart: a regression wherever
  // 8% is beyond the limit (0.5 us at least), unchanged elsewhere.
  std::size_t beyond = 0;
  for (const auto& c : res.rows) {
    EXPECT_NEAR(c.change, 0.08, 0.02) << c.identity;
    EXPECT_EQ(c.verdict, std::abs(c.delta) > c.limit ? Verdict::regression : Verdict::unchanged)
        << c.identity;
    beyond += std::abs(c.delta) > c.limit;
  }
  EXPECT_GT(beyond, 40u);
  EXPECT_EQ(res.regressions, beyond);
  const Runs g = load("gb171_run.json", "gb183_run.json");
  const CompareResult other = compare_runs(g.base, g.next, CompareOptions{});
  EXPECT_EQ(other.context_warnings.size(), 3u);  // gpu_name, runtime_version, host_wait_mode
  EXPECT_TRUE(other.rows.empty());
}

// MultiGpu on other GPUs, or on one GPU named twice (--devices=0,0: across two streams, where an
// event wait costs a fraction of what it costs between two GPUs), is another setting.
TEST(Compare, RunsOfOtherMultiGpuDevicesWarn) {
  const auto run = [](const char* name, const std::map<std::string, std::string>& context) {
    return digest(parse_run(
        test::gb_json({test::paired("MultiGpu/CrossDevice/event_wait", {2.5, 2.6, 2.4})}, context),
        name));
  };
  const RunData two_gpus = run("default.json", {});
  const RunData one_gpu_twice = run("devices_00.json", {{"multi_gpu_devices", "0,0"}});
  const CompareResult res = compare_runs(two_gpus, one_gpu_twice, CompareOptions{});
  ASSERT_EQ(res.context_warnings.size(), 1u);
  EXPECT_EQ(res.context_warnings[0], "multi_gpu_devices: '?' vs '0,0'");
  EXPECT_TRUE(
      compare_runs(one_gpu_twice, one_gpu_twice, CompareOptions{}).context_warnings.empty());
}

// The hosts' measured clocks: a warning when they lie over 15% apart, none when they overlap or
// are close, or when a run does not say; text that is no clock is shown as it is.
TEST(Compare, WarnsOfHostClocksApart) {
  const auto warnings = [](const char* base_clock, const char* new_clock) {
    const auto run = [](const char* clock, const char* file) {
      std::map<std::string, std::string> context;
      if (*clock) context["host_clock_ghz"] = clock;
      return digest(parse_run(
          test::gb_json({test::unpaired("NullKernel/Async", {3.0}, 0.0)}, context), file));
    };
    return compare_runs(run(base_clock, "base.json"), run(new_clock, "new.json"), CompareOptions{})
        .context_warnings;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(warnings("2.86-2.97", "2.41"),
            V{"host_clock_ghz: '2.86-2.97' vs '2.41' (NEW's core slower, 19% apart)"});
  EXPECT_EQ(warnings("2.41", "2.86-2.97"),
            V{"host_clock_ghz: '2.41' vs '2.86-2.97' (NEW's core faster, 19% apart)"});
  EXPECT_EQ(warnings("2.58", "2.31"), V{});       // 12%: two processes of one VM (host_clock/call3)
  EXPECT_EQ(warnings("2.86-2.97", "2.70"), V{});  // 2.86 / 2.70: 6% apart
  EXPECT_EQ(warnings("2.37-2.58", "2.80"), V{});  // 8.5% over the range's high
  EXPECT_EQ(warnings("2.97", ""), V{});
  EXPECT_EQ(warnings("", "2.41"), V{});
  EXPECT_EQ(warnings("2.97", "fast"), V{"host_clock_ghz: '2.97' vs 'fast' (unreadable)"});
}

TEST(Compare, ReadsClockRanges) {
  ASSERT_TRUE(parse_clock_range("2.97"));
  EXPECT_DOUBLE_EQ(parse_clock_range("2.97")->low, 2.97);
  EXPECT_DOUBLE_EQ(parse_clock_range("2.97")->high, 2.97);
  ASSERT_TRUE(parse_clock_range("2.86-2.97"));
  EXPECT_DOUBLE_EQ(parse_clock_range("2.86-2.97")->low, 2.86);
  EXPECT_DOUBLE_EQ(parse_clock_range("2.86-2.97")->high, 2.97);
  for (const char* bad : {"", "-", "2.97-", "-2.97", "2.97-2.86", "0", "nan", "inf", "2.9x",
                          " 2.97", "2.86--2.97", "1e999"})
    EXPECT_FALSE(parse_clock_range(bad)) << bad;
  EXPECT_EQ(clock_range_text({2.86, 2.97}), "2.86-2.97");
  EXPECT_EQ(clock_range_text({2.5, 2.5}), "2.50");
}

// TrainLoop/ItemEveryStep's .item() waits less on a slower host (results/h200/item_every_step/):
// 14-16 us where the host is fast, 8-10 where it is slow, a switch no slope fits. Between two
// machines whose hosts differ, the row is not gated; on one machine it is, raw (no negative slope).
TEST(Compare, WaitThatTheHostSpeedSetsIsNotGatedBetweenMachines) {
  const std::string id = "TrainLoop/ItemEveryStep/bf16/cublas/n:512";
  const auto run = [&](const std::string& gpu, double first_host, double cost) {
    std::vector<double> base, overhead;
    for (int i = 0; i < 10; ++i) {
      base.push_back(first_host + 2.0 * i);
      overhead.push_back((base.back() < 44.0 ? 15.0 : 10.0) - 0.1 * (base.back() - 30.0) + cost);
    }
    test::FakeBench b = test::syncing_every_step(test::paired_processes(id, base, overhead));
    std::vector<RunData> r;
    r.push_back(digest(parse_run(test::gb_json({b}, {{"gpu_uuid", gpu}}), gpu + ".json")));
    return std::move(r[0]);
  };
  // BASE on a slow host (40-58 us: 2 processes fast), NEW on a fast one (30-48: 7 fast).
  std::vector<RunData> between = {run("GPU-a", 40.0, 0.0), run("GPU-b", 30.0, 0.0)};
  assign_labels(between, {});
  const CompareResult res = compare_runs(between[0], between[1], {});
  const Comparison& c = row(res, id);
  EXPECT_FALSE(c.gated);
  EXPECT_EQ(c.verdict, Verdict::not_gated);
  EXPECT_NE(c.gate.find("a slower host waits less in this sync"), std::string::npos) << c.gate;
  EXPECT_EQ(res.regressions, 0);

  // One machine (a slow host: one regime): gated, not adjusted along the negative slope, and a
  // +3 us cost is caught.
  std::vector<RunData> same = {run("GPU-a", 46.0, 0.0), run("GPU-a", 46.0, 3.0)};
  assign_labels(same, {});
  const CompareResult one = compare_runs(same[0], same[1], {});
  const Comparison& g = row(one, id);
  EXPECT_TRUE(g.gated) << g.gate;
  EXPECT_DOUBLE_EQ(g.host_slope, 0.0);
  EXPECT_EQ(g.verdict, Verdict::regression);
}

// Between two machines, a sync after a long GPU step that changed as its wait reference (the same
// sync after 1 ms of SpinKernel) did is what such a wait cost there (results/h200/
// review_ca3eae1a/call4: +8.8 and +9.1 us; here +12, over the 5% between machines): set aside,
// regressions and improvements alike, and said so.
namespace wait_reference_runs {

const std::string kGemm = "BigGemm/DeviceSync/bf16/cublas/n:4096";  // a 171 us step
const std::string kRead = "BigGemm/ScalarRead/pinned/bf16/cublas/n:4096";
const std::string kShorter = "BigGemm/DeviceSync/fp16/cublas/n:2048";  // 140 us: not a long wait
const std::string kSmall = "SmallGemm/DeviceSync/fp16/cublas/n:512";
const std::string kSpin = "SpinKernel/DeviceSync/us:1000";
const std::string kSpinRead = "SpinKernel/ScalarRead/pinned/us:1000";

using test::sync_after_gpu_step;

struct Costs {
  double gemm = 0.0, spin = 0.0;  // added to every GEMM row's and every SpinKernel row's overhead
  bool reference = true;          // the SpinKernel rows are in the run
  double spin_mad = 0.1;          // their spread between processes (30: too noisy to be gated)
};

Costs costs(double gemm, double spin, bool reference = true, double spin_mad = 0.1) {
  Costs k;
  k.gemm = gemm;
  k.spin = spin;
  k.reference = reference;
  k.spin_mad = spin_mad;
  return k;
}

RunData run(const std::string& gpu, const Costs& k) {
  std::vector<test::FakeBench> benches = {sync_after_gpu_step(kGemm, 171.0, nine(14.0 + k.gemm)),
                                          sync_after_gpu_step(kRead, 171.0, nine(22.0 + k.gemm)),
                                          sync_after_gpu_step(kShorter, 140.0, nine(14.0 + k.gemm)),
                                          sync_after_gpu_step(kSmall, 10.0, nine(8.0 + k.gemm))};
  if (k.reference)
    for (const std::string& id : {kSpin, kSpinRead})
      benches.push_back(sync_after_gpu_step(id, 1003.0, nine(100.0 + k.spin, k.spin_mad)));
  return on_gpu(benches, gpu);
}

}  // namespace wait_reference_runs

TEST(Compare, ChangeItsWaitReferenceMadeTooIsSetAsideBetweenMachines) {
  using namespace wait_reference_runs;
  const RunData base = run("GPU-a", {});
  for (const double sign : {1.0, -1.0}) {
    const RunData next = run("GPU-b", costs(12.0 * sign, 12.3 * sign));
    const CompareResult res = compare_runs(base, next, {});
    CompareOptions off;
    off.wait_adjust = false;
    const CompareResult counted = compare_runs(base, next, off);
    for (const std::string& id : {kGemm, kRead}) {
      const Comparison& c = row(res, id);
      EXPECT_EQ(c.verdict, Verdict::unchanged) << c.gate;
      EXPECT_EQ(row(counted, id).verdict, sign > 0 ? Verdict::regression : Verdict::improvement);
      EXPECT_NEAR(c.wait_reference_delta, 12.3 * sign, 1e-9);
    }
    EXPECT_NE(row(res, kGemm)
                  .gate.find(sign > 0 ? "SpinKernel/DeviceSync/us:1000 moved +12.30 us "
                                        "and this row +12.00 us"
                                      : "SpinKernel/DeviceSync/us:1000 moved -12.30 us "
                                        "and this row -12.00 us"),
              std::string::npos)
        << row(res, kGemm).gate;
    EXPECT_NE(row(res, kRead).gate.find("SpinKernel/ScalarRead/pinned/us:1000 moved"),
              std::string::npos);
    // Not a long wait, or no reference: counted. The references are judged as themselves.
    EXPECT_EQ(row(res, kShorter).verdict, sign > 0 ? Verdict::regression : Verdict::improvement);
    EXPECT_EQ(row(res, kSmall).verdict, sign > 0 ? Verdict::regression : Verdict::improvement);
    EXPECT_EQ(row(res, kSpin).verdict, Verdict::unchanged);  // 5% of its 1 ms step
    EXPECT_EQ(res.machine_waits, 2u);
    EXPECT_EQ(sign > 0 ? res.regressions : res.improvements, 2u);
    EXPECT_EQ(sign > 0 ? res.improvements : res.regressions, 0u);
    EXPECT_TRUE(document_says(compare_document(res, base, next, {}),
                              "2 changes between the two machines set aside"));
  }
}

// What is not set aside: one GPU; a reference that moved the other way, by less than half the
// row's change (+3 beside +12: a change to the GEMM in a run whose long waits barely moved, though
// +12 - 3 is within the limit) or several times as far (a cost in proportion to each step); a
// reference too noisy to be gated; --wait-adjust=off; a metric the user chose; no reference. And a
// row the U test did not confirm stays as it was.
TEST(Compare, WaitReferenceSetsNothingAsideOtherwise) {
  using namespace wait_reference_runs;
  const RunData base = run("GPU-a", {});
  CompareOptions off;
  off.wait_adjust = false;
  CompareOptions metric;
  metric.metric = "overhead_us";
  metric.metric_given = true;
  const auto judged = [&](const std::string& gpu, const Costs& k, const CompareOptions& o) {
    return compare_runs(base, run(gpu, k), o);
  };
  const RunData noisy_base = run("GPU-a", costs(0.0, 0.0, true, 30.0));
  const RunData no_reference = run("GPU-a", costs(0.0, 0.0, false));
  for (const CompareResult& counted :
       {judged("GPU-a", costs(12.0, 12.3), {}), judged("GPU-b", costs(12.0, -12.3), {}),
        judged("GPU-b", costs(12.0, 3.0), {}), judged("GPU-b", costs(12.0, 100.0), {}),
        compare_runs(noisy_base, run("GPU-b", costs(12.0, 12.3, true, 30.0)), {}),
        judged("GPU-b", costs(12.0, 12.3), off), judged("GPU-b", costs(12.0, 12.3), metric),
        compare_runs(no_reference, run("GPU-b", costs(12.0, 0.0, false)), {})}) {
    const Comparison& c = row(counted, kGemm);
    EXPECT_EQ(c.verdict, Verdict::regression) << c.gate;
    EXPECT_TRUE(std::isnan(c.wait_reference_delta));
    EXPECT_EQ(c.gate.find("a wait after a long GPU step"), std::string::npos) << c.gate;
    EXPECT_EQ(counted.machine_waits, 0u);
  }
  const CompareResult noisy_res =
      compare_runs(noisy_base, run("GPU-b", costs(0.0, 12.3, true, 30.0)), {});
  const Comparison& noisy = row(noisy_res, kSpin);
  EXPECT_FALSE(noisy.gated) << noisy.gate;  // the case above is the reference left out of the gate

  // +12 us in five processes of nine, the other four as BASE's: beyond the limit, not significant
  // at alpha 0.001. It stays so, and no count moves.
  const std::vector<double> split = {14.0, 14.1, 13.9, 14.05, 26.0, 26.1, 25.9, 26.05, 26.0};
  RunData next = on_gpu(
      {sync_after_gpu_step(kGemm, 171.0, split), sync_after_gpu_step(kSpin, 1003.0, nine(112.3))},
      "GPU-b");
  RunData base_two = on_gpu({sync_after_gpu_step(kGemm, 171.0, nine(14.0)),
                             sync_after_gpu_step(kSpin, 1003.0, nine(100.0))},
                            "GPU-a");
  CompareOptions strict;
  strict.alpha = 0.001;
  const CompareResult res = compare_runs(base_two, next, strict);
  EXPECT_EQ(row(res, kGemm).verdict, Verdict::not_significant) << row(res, kGemm).gate;
  EXPECT_EQ(res.improvements, 0u);
  EXPECT_EQ(res.regressions, 0u);
  EXPECT_EQ(res.machine_waits, 0u);
}

// Machines of one kind differ by more than one machine's processes: between two GPUs (or when a
// run does not say which GPU it ran on) the threshold is --machine-threshold.
TEST(Compare, DifferentGpusUseTheMachineThreshold) {
  using test::unpaired;
  const std::string id = "GraphReplay/Replay/null_kernel/k:100";
  std::vector<double> slower;
  for (double t : nine(70.0)) slower.push_back(t * 1.03);
  const auto runs = [&](const std::string& base_gpu, const std::string& new_gpu) {
    std::vector<RunData> r;
    r.push_back(digest(parse_run(
        test::gb_json({unpaired(id, nine(70.0), 1.0)}, {{"gpu_uuid", base_gpu}}), "a.json")));
    r.push_back(digest(
        parse_run(test::gb_json({unpaired(id, slower, 1.0)}, {{"gpu_uuid", new_gpu}}), "b.json")));
    assign_labels(r, {});
    return r;
  };
  const auto same = runs("GPU-a", "GPU-a");
  const CompareResult one = compare_runs(same[0], same[1], {});
  EXPECT_TRUE(one.same_gpu);
  EXPECT_DOUBLE_EQ(one.threshold_pct, 2.0);
  EXPECT_EQ(row(one, id).verdict, Verdict::regression);  // +3% on one GPU
  const auto other = runs("GPU-a", "GPU-b");
  const CompareResult two = compare_runs(other[0], other[1], {});
  EXPECT_FALSE(two.same_gpu);
  EXPECT_DOUBLE_EQ(two.threshold_pct, 5.0);
  EXPECT_NEAR(row(two, id).limit, 0.05 * 70.0, 1e-9);
  EXPECT_EQ(row(two, id).verdict, Verdict::unchanged);  // +3% between two GPUs
  const Document doc = compare_document(two, other[0], other[1], {});
  EXPECT_TRUE(document_says(doc, "different GPUs"));
  const auto unknown = runs("", "GPU-a");
  EXPECT_FALSE(compare_runs(unknown[0], unknown[1], {}).same_gpu);
  CompareOptions tight;
  tight.machine_threshold_pct = 2.0;
  EXPECT_EQ(row(compare_runs(other[0], other[1], tight), id).verdict, Verdict::regression);
}

// A BASE as a CI job builds it over several machines: one run per GPU (three processes each,
// their overheads medians[g] +-0.02 us, the Async baseline 30 us), merged by sync_summary merge.
RunData merged_base(const std::string& id, const std::vector<double>& medians) {
  const std::string dir = testing::TempDir() + "compare_" +
                          testing::UnitTest::GetInstance()->current_test_info()->name() + "_";
  std::vector<std::string> runs;
  for (std::size_t g = 0; g < medians.size(); ++g) {
    const double m = medians[g];
    runs.push_back(
        test::write_run(dir + std::to_string(g) + ".json",
                        {test::paired_processes(id, {30.0, 30.0, 30.0}, {m - 0.02, m, m + 0.02})},
                        {{"gpu_uuid", "GPU-" + std::to_string(g)}}));
  }
  merge_runs(runs, dir + "merged.json");
  return digest(load_run(dir + "merged.json"));
}

// Between two machines a GPU-bound step's idle time is the host's to set where the host takes a
// quarter of the step or more to submit it: the limit is the flat --machine-threshold plus BASE's
// idle per step. A step whose host submits it in a tenth of it keeps the flat limit. On one GPU
// the limit takes kHostPacedProcessShare of the idle time (a process's host moves it, less than
// another machine's).
TEST(Compare, GpuIdleTheHostPacesWidensTheLimitBetweenMachines) {
  using test::unpaired;
  const std::string id = "GraphReplay/Replay/null_kernel/k:100";
  // BASE: 68 us a step, the GPU busy 66.5 of it; NEW 6% slower (72.1 us: a slower host).
  std::vector<double> slower;
  for (double t : nine(68.0)) slower.push_back(t * 1.06);
  const auto bench = [&](const std::vector<double>& times, double host_us) {
    test::FakeBench b = unpaired(id, times, 1.0);
    b.counters["gpu_busy_us"] = std::vector<double>(times.size(), 66.5);
    b.counters["host_us"] = std::vector<double>(times.size(), host_us);
    return b;
  };
  const auto judged = [&](double base_host_us, const std::string& new_gpu) {
    const RunData base = on_gpu({bench(nine(68.0), base_host_us)}, "GPU-a");
    const RunData next = on_gpu({bench(slower, base_host_us)}, new_gpu);
    return row(compare_runs(base, next, {}), id);
  };
  const Comparison host_paced = judged(20.0, "GPU-b");
  EXPECT_NEAR(host_paced.host_paced_us, 1.5, 1e-9);
  EXPECT_NEAR(host_paced.limit, 0.05 * 68.0 + 1.5, 1e-9);
  EXPECT_EQ(host_paced.verdict, Verdict::unchanged);
  EXPECT_NE(host_paced.gate.find("the host paces it"), std::string::npos) << host_paced.gate;
  const Comparison gpu_paced = judged(6.8, "GPU-b");  // the host needs a tenth of the step
  EXPECT_EQ(gpu_paced.host_paced_us, 0.0);
  EXPECT_EQ(gpu_paced.verdict, Verdict::regression);
  const Comparison one_gpu = judged(20.0, "GPU-a");
  EXPECT_NEAR(one_gpu.host_paced_us, kHostPacedProcessShare * 1.5, 1e-9);
  EXPECT_NEAR(one_gpu.limit, 0.02 * 68.0 + kHostPacedProcessShare * 1.5, 1e-9);
  EXPECT_EQ(one_gpu.verdict, Verdict::regression);  // +6% is more than the host's part moves
  EXPECT_NE(one_gpu.gate.find("of its GPU idle a step: the host paces it"), std::string::npos)
      << one_gpu.gate;
}

// On one GPU, a step whose GPU idles while the host does its part (a legacy-stream memcpy that
// waits for a spin kernel) moves with the processes' hosts: MultiStream/LegacyMemcpy's 218 us, the
// GPU busy 203 of it, read 218.0 in every process of one H100 call and 222.7 (the median) in the
// next, whose processes fell 7 of 10 on the slow side (results/h100/acceptance8/). That is no
// regression; a 10% slower GPU (the injected gpu:10%) still is.
TEST(Compare, GpuIdleTheHostPacesWidensTheLimitOnOneGpu) {
  using test::unpaired;
  const std::string id = "MultiStream/LegacyMemcpy/blocking_stream/spin_us:200";
  const auto bench = [&](const std::vector<double>& times) {
    test::FakeBench b = unpaired(id, times, 1.0);
    b.counters["gpu_busy_us"] = std::vector<double>(times.size(), 203.0);
    b.counters["host_us"] = times;
    b.counters["syncs_per_step"] = std::vector<double>(times.size(), 2.0);
    return b;
  };
  const std::vector<double> fast = {217.5, 217.7, 217.8, 217.9, 218.0,
                                    218.0, 218.2, 218.3, 218.3, 218.3};
  const std::vector<double> mixed = {217.9, 218.5, 218.7, 222.2, 222.3,
                                     223.1, 223.1, 223.5, 224.5, 225.7};
  std::vector<double> slower_gpu;
  for (double t : fast) slower_gpu.push_back(t + 0.1 * 203.0);
  const RunData base = on_gpu({bench(fast)}, "GPU-a");
  const Comparison process_mix = row(compare_runs(base, on_gpu({bench(mixed)}, "GPU-a"), {}), id);
  EXPECT_NEAR(process_mix.host_paced_us, kHostPacedProcessShare * (218.0 - 203.0), 1e-9);
  EXPECT_GT(process_mix.delta, 0.02 * 218.0);  // over the flat threshold alone
  EXPECT_EQ(process_mix.verdict, Verdict::unchanged);
  // scripts/gate_rates.sh and acceptance.sh read the CSV's columns with awk -F,: no comma.
  EXPECT_EQ(process_mix.gate.find(','), std::string::npos) << process_mix.gate;
  EXPECT_EQ(row(compare_runs(base, on_gpu({bench(slower_gpu)}, "GPU-a"), {}), id).verdict,
            Verdict::regression);
  // Between machines a step that syncs keeps --machine-threshold alone.
  const Comparison other_gpu = row(compare_runs(base, on_gpu({bench(mixed)}, "GPU-b"), {}), id);
  EXPECT_EQ(other_gpu.bound, "sync");
  EXPECT_EQ(other_gpu.host_paced_us, 0.0);
}

// A graph of empty kernels is timed by the GPU's launch rate, which differs between machines of
// one kind by more than work does (kLaunchRateNodeUs): between two GPUs it is judged with
// kLaunchRateMachinePct, so +8% passes and +15% is caught; on one GPU +8% is caught. A graph of
// GEMMs (3.3 us of GPU work a node) keeps the 5% between two GPUs, and so does an empty graph
// under --metric. BASE's counters decide: NEW's say nothing.
TEST(Compare, GraphOfEmptyKernelsTakesAWiderThresholdBetweenMachines) {
  using test::unpaired;
  const auto scaled = [](double by) {
    std::vector<double> v;
    for (double t : nine(68.0)) v.push_back(t * by);
    return v;
  };
  const auto bench = [&](const std::string& id, const std::vector<double>& times, double nodes,
                         double busy) {
    test::FakeBench b = unpaired(id, times, 1.0);
    b.counters["graph_nodes"] = std::vector<double>(times.size(), nodes);
    b.counters["gpu_busy_us"] = std::vector<double>(times.size(), busy);
    return b;
  };
  const std::string empty = "GraphReplay/Replay/null_kernel/k:100";
  const std::string gemms = "GraphReplay/Replay/fp16/cublas/n:512/k:20";
  // NEW's graphs are said to hold a single node: were NEW's counters read, neither row would be
  // a graph of empty kernels.
  const auto judged = [&](double by, const std::string& new_gpu, const CompareOptions& o) {
    const RunData base = on_gpu(
        {bench(empty, nine(68.0), 100.0, 66.5), bench(gemms, nine(68.0), 20.0, 66.5)}, "GPU-a");
    const RunData next =
        on_gpu({bench(empty, scaled(by), 1.0, 66.5), bench(gemms, scaled(by), 1.0, 66.5)}, new_gpu);
    return compare_runs(base, next, o);
  };
  const CompareResult two = judged(1.08, "GPU-b", {});
  EXPECT_EQ(row(two, empty).verdict, Verdict::unchanged);
  EXPECT_NEAR(row(two, empty).limit, 0.10 * 68.0, 1e-9);
  EXPECT_NE(row(two, empty).gate.find("launch rate"), std::string::npos) << row(two, empty).gate;
  EXPECT_EQ(row(two, gemms).verdict, Verdict::regression);  // +8% over the 5% between machines
  EXPECT_EQ(row(two, gemms).gate.find("launch rate"), std::string::npos) << row(two, gemms).gate;
  EXPECT_EQ(row(judged(1.15, "GPU-b", {}), empty).verdict, Verdict::regression);
  const CompareResult one = judged(1.08, "GPU-a", {});
  EXPECT_EQ(row(one, empty).verdict, Verdict::regression);
  EXPECT_EQ(row(one, gemms).verdict, Verdict::regression);
  CompareOptions by_metric;
  by_metric.metric = std::string(kRealTime);
  by_metric.metric_given = true;
  EXPECT_EQ(row(judged(1.08, "GPU-b", by_metric), empty).verdict, Verdict::regression);
}

// From kMinMachines GPUs on, BASE's spread between its GPUs sets the limit between machines:
// Student's prediction interval for one more machine's median. A row that barely moves between
// machines gates a change under --machine-threshold; one that moves a lot does not flag a change
// over it; with fewer GPUs, or NEW on BASE's one GPU, the rules of one machine hold.
TEST(Compare, MachinesMeasuredInBaseSetTheLimitBetweenMachines) {
  const std::string id = "SmallGemm/DeviceSync/fp16/cublas/n:512";
  // 30 us of Async baseline + 10 us of overhead: a 40 us step; NEW's overhead is 1.2 us (3%)
  // longer.
  const std::vector<double> longer = nine(11.2, 0.05);
  const RunData next =
      on_gpu({test::paired_processes(id, std::vector<double>(9, 30.0), longer)}, "GPU-new");
  const std::vector<double> tight = {10.0, 10.05, 9.95, 10.02, 9.98, 10.0};
  const RunData base = merged_base(id, tight);
  // Rows are copied: each comes from a temporary CompareResult.
  const Comparison c = row(compare_runs(base, next, {}), id);
  EXPECT_EQ(c.machines, 6u);
  const double expected =
      student_t_quantile(kMachineAlpha, 5) * describe(tight).stddev * std::sqrt(1.0 + 1.0 / 6.0);
  EXPECT_NEAR(c.machine_limit, expected, 1e-9);
  EXPECT_LT(c.machine_limit, 0.02 * 40.0);    // under --threshold: that is the floor
  EXPECT_NEAR(c.limit, 0.02 * 40.0, 0.02);    // ~2% of the step, not 5%
  EXPECT_EQ(c.verdict, Verdict::regression);  // +3% caught
  EXPECT_TRUE(test::contains(c.gate, "between BASE's 6 GPUs"));

  // BASE's first GPU alone, another GPU in NEW: the flat 5%, and +3% passes.
  const RunData one = merged_base(id, {10.0});
  const Comparison flat = row(compare_runs(one, next, {}), id);
  EXPECT_TRUE(std::isnan(flat.machine_limit));
  EXPECT_NEAR(flat.limit, 0.05 * 40.0, 0.02);
  EXPECT_EQ(flat.verdict, Verdict::unchanged);

  // Four GPUs: too few to say; the flat threshold.
  const Comparison four =
      row(compare_runs(merged_base(id, {10.0, 10.05, 9.95, 10.02}), next, {}), id);
  EXPECT_EQ(four.machines, 4u);
  EXPECT_TRUE(std::isnan(four.machine_limit));
  EXPECT_EQ(four.verdict, Verdict::unchanged);

  // A row whose machines differ by +-1 us: +3 us (7.5%) is within what one more machine does.
  const std::vector<double> three_more = nine(13.0, 0.05);
  const RunData next_wide =
      on_gpu({test::paired_processes(id, std::vector<double>(9, 30.0), three_more)}, "GPU-new");
  const Comparison wide =
      row(compare_runs(merged_base(id, {10.0, 11.0, 9.0, 10.5, 9.5, 10.0}), next_wide, {}), id);
  EXPECT_GT(wide.machine_limit, 3.0);
  EXPECT_DOUBLE_EQ(wide.limit, wide.machine_limit);
  EXPECT_EQ(wide.verdict, Verdict::unchanged);
  EXPECT_EQ(row(compare_runs(merged_base(id, {10.0}), next_wide, {}), id).verdict,
            Verdict::regression);  // the flat 5% would have flagged it

  // NEW on the GPU of a one-GPU BASE: one machine, 2%, nothing measured between machines.
  const RunData same =
      on_gpu({test::paired_processes(id, std::vector<double>(9, 30.0), longer)}, "GPU-0");
  const CompareResult res = compare_runs(one, same, {});
  EXPECT_TRUE(res.same_gpu);
  EXPECT_TRUE(std::isnan(row(res, id).machine_limit));
  EXPECT_EQ(row(res, id).verdict, Verdict::regression);
}

// NEW's host against BASE's machines, on the host-bound times: slower (or faster) than every one
// of them on over half the rows, by more than kHostBeyondMachines in the median row, warns (with
// that row); inside their range, one row out of two, or a BASE of one GPU does not.
TEST(Compare, HostOutsideBaseMachinesWarns) {
  using test::unpaired;
  const std::string null_id = "NullKernel/Async", gemm_id = "SmallGemm/Async/fp16/cublas/n:512";
  const std::string dir = testing::TempDir() + "compare_host_among_machines_";
  const auto base_of = [&](const std::vector<std::pair<double, double>>& machines) {
    std::vector<std::string> runs;
    for (std::size_t g = 0; g < machines.size(); ++g) {
      const auto [null_us, gemm_us] = machines[g];
      runs.push_back(test::write_run(
          dir + std::to_string(g) + ".json",
          {unpaired(null_id, {null_us - 0.01, null_us, null_us + 0.01}, 0.0),
           unpaired(gemm_id, {gemm_us - 0.01, gemm_us, gemm_us + 0.01}, 0.0),
           unpaired("HostCopy/H2D/pinned/bytes:16777216", {330.0, 330.0, 330.0}, 1.0)},
          {{"gpu_uuid", "GPU-" + std::to_string(g)}}));
    }
    merge_runs(runs, dir + "merged.json");
    return digest(load_run(dir + "merged.json"));
  };
  const auto new_of = [&](double null_us, double gemm_us) {
    return on_gpu(
        {unpaired(null_id, nine(null_us, 0.01), 0.0), unpaired(gemm_id, nine(gemm_us, 0.01), 0.0),
         unpaired("HostCopy/H2D/pinned/bytes:16777216", nine(500.0), 1.0)},
        "GPU-new");
  };
  const RunData base = base_of({{3.5, 7.0}, {3.7, 7.4}, {3.9, 7.9}});

  const HostAmongMachines slow = compare_runs(base, new_of(4.8, 10.4), {}).host;
  EXPECT_EQ(slow.rows, 2u);  // the GPU-bound copy is not a host-bound row
  EXPECT_EQ(slow.slower, 2u);
  EXPECT_EQ(slow.machines, 3u);
  EXPECT_NEAR(slow.beyond, 4.8 / 3.9 - 1.0, 1e-9);  // the lower middle of two rows
  const std::string w = host_warning(slow);
  EXPECT_TRUE(test::contains(w, "slower than each of BASE's 3 machines: on 2 of 2")) << w;
  EXPECT_TRUE(test::contains(w, "+23.1% in the median row, NullKernel/Async: 4.80 us")) << w;
  const Document doc = compare_document(compare_runs(base, new_of(4.8, 10.4), {}), base,
                                        new_of(4.8, 10.4), CompareOptions{});
  EXPECT_TRUE(document_says(doc, "WARNING: NEW's host"));

  const HostAmongMachines fast = compare_runs(base, new_of(2.9, 5.5), {}).host;
  EXPECT_EQ(fast.faster, 2u);
  EXPECT_TRUE(test::contains(host_warning(fast), "faster than each of BASE's 3 machines"));

  EXPECT_EQ(host_warning(compare_runs(base, new_of(3.8, 7.5), {}).host), "");  // inside
  const HostAmongMachines one_of_two = compare_runs(base, new_of(4.8, 7.5), {}).host;
  EXPECT_EQ(one_of_two.slower, 1u);
  EXPECT_EQ(host_warning(one_of_two), "");                                     // not over half
  EXPECT_EQ(host_warning(compare_runs(base, new_of(4.0, 8.1), {}).host), "");  // under 5%
  const HostAmongMachines one_gpu = compare_runs(base_of({{3.5, 7.0}}), new_of(4.8, 10.4), {}).host;
  EXPECT_EQ(one_gpu.rows, 0u);
  EXPECT_EQ(host_warning(one_gpu), "");
}

}  // namespace
}  // namespace sync_summary
