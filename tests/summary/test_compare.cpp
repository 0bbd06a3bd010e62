// compare: each verdict on the hand-made fixtures (make_compare_fixtures.py says which is
// which), the U test p-values scipy gives for them, machine warnings, one-sided lists.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "compare.hpp"
#include "errors.hpp"
#include "gb_builder.hpp"
#include "gb_json.hpp"
#include "merge.hpp"
#include "run_info.hpp"
#include "statistics.hpp"
#include "test_util.hpp"

namespace sync_summary {
namespace {

using test::data_path;

struct Runs {
  RunData base, next;
};

Runs load(const char* base, const char* next) {
  std::vector<RunData> r;
  r.push_back(digest(load_run(data_path(base))));
  r.push_back(digest(load_run(data_path(next))));
  assign_labels(r, {});
  return {std::move(r[0]), std::move(r[1])};
}

Runs made(const std::vector<test::FakeBench>& base, const std::vector<test::FakeBench>& next) {
  std::vector<RunData> r;
  r.push_back(digest(parse_run(test::gb_json(base), "base.json")));
  r.push_back(digest(parse_run(test::gb_json(next), "new.json")));
  assign_labels(r, {});
  return {std::move(r[0]), std::move(r[1])};
}

// One run of the benches on the GPU named.
RunData on_gpu(const std::vector<test::FakeBench>& benches, const std::string& gpu) {
  return digest(parse_run(test::gb_json(benches, {{"gpu_uuid", gpu}}), gpu + ".json"));
}

// Nine repetitions around `center` with median absolute deviation `mad`.
std::vector<double> nine(double center, double mad = 0.1) {
  std::vector<double> v;
  for (double d : {0.0, 2.0, -2.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5}) v.push_back(center + d * mad);
  return v;
}

// One side's noise as compare.hpp defines it: the standard error of a median over n
// repetitions, 1.253 sigma / sqrt(n), with sigma = 1.4826 MAD.
double standard_error(double mad, std::size_t n) {
  return 1.253 * 1.4826 * mad / std::sqrt(static_cast<double>(n));
}

// string_view: see test_benchmarks.cpp's bench().
const Comparison& row(const CompareResult& res, std::string_view identity) {
  for (const auto& c : res.rows)
    if (c.identity == identity) return c;
  throw std::runtime_error("not compared: " + std::string(identity));
}
// A row of a result about to be destroyed comes back as a copy: a reference into it would dangle
// (ASan found one such, `const Comparison& c = row(compare_runs(...), id)`).
Comparison row(CompareResult&& res, std::string_view identity) {
  return row(static_cast<const CompareResult&>(res), identity);
}

TEST(Compare, VerdictsOnHandMadeRuns) {
  const Runs r = load("compare_base.json", "compare_new.json");
  const CompareResult res = compare_runs(r.base, r.next, CompareOptions{});
  EXPECT_EQ(res.rows.size(), 11u);
  EXPECT_EQ(res.regressions, 6u);  // 4 measured, 1 newly failing, 1 missing from NEW
  EXPECT_EQ(res.newly_failed, 1u);
  EXPECT_EQ(res.missing, 1u);
  EXPECT_EQ(res.improvements, 1u);
  EXPECT_EQ(res.gated, 9u);

  // Paired: judged on overhead_us, +1.0 us against a limit of 5% of the 10 us step.
  const Comparison& reg = row(res, "SmallGemm/DeviceSync/fp16/cublas/n:512");
  EXPECT_EQ(reg.verdict, Verdict::regression);
  EXPECT_EQ(reg.metric, "overhead_us");
  EXPECT_EQ(reg.gate, "paired overhead");
  EXPECT_NEAR(reg.change, 0.2, 1e-12);
  EXPECT_NEAR(reg.delta, 1.0, 1e-12);
  EXPECT_NEAR(reg.limit, 0.5, 1e-12);
  EXPECT_NEAR(reg.noise, std::sqrt(2.0) * standard_error(0.05, 5), 1e-9);
  ASSERT_TRUE(reg.has_utest);
  EXPECT_EQ(reg.utest.method, UMethod::exact);
  EXPECT_NEAR(reg.utest.p, 0.007936507936507936, 1e-12);  // scipy 1.17.1, see test_mann_whitney

  // Host-bound +40%: shown, not gated; no gpu_bound at all: not gated either.
  const Comparison& host = row(res, "SmallGemm/Async/fp16/cublas/n:512");
  EXPECT_FALSE(host.gated);
  EXPECT_EQ(host.verdict, Verdict::not_gated);
  EXPECT_NEAR(host.change, 0.4, 1e-12);
  EXPECT_EQ(row(res, "HostCopy/H2D/pinned/bytes:4096").gate, "not gated: bound unknown");
  EXPECT_EQ(row(res, "HostCopy/H2D/pinned/bytes:4096").verdict, Verdict::not_gated);

  const Comparison& noisy = row(res, "NullKernel/DeviceSync");
  EXPECT_EQ(noisy.verdict, Verdict::not_significant);
  EXPECT_NEAR(noisy.utest.p, 14.0 / 252.0, 1e-12);
  const Comparison& ties = row(res, "NullKernel/EventSync");
  EXPECT_EQ(ties.verdict, Verdict::regression);
  EXPECT_EQ(ties.utest.method, UMethod::asymptotic);
  EXPECT_NEAR(ties.utest.p, 0.01702186842010649, 1e-12);  // scipy 1.17.1
  EXPECT_EQ(row(res, "NullKernel/StreamSync").verdict, Verdict::improvement);

  // GPU-bound: judged on real_time.
  const Comparison& single = row(res, "GraphReplay/Replay/k:4");
  EXPECT_EQ(single.gate, "GPU-bound time");
  EXPECT_EQ(single.metric, "real_time");
  EXPECT_FALSE(single.has_utest);
  EXPECT_TRUE(std::isnan(single.noise));
  EXPECT_EQ(single.verdict, Verdict::regression);  // limit alone without repetitions
  EXPECT_EQ(row(res, "HostCopy/D2H/pinned/bytes:16777216").verdict, Verdict::unchanged);

  // One repetition of a paired row: the noise is the spread of its rounds (p75 - p25) / 1.349.
  const Comparison& zero = row(res, "Alloc/DeviceSync/bytes:0");
  EXPECT_DOUBLE_EQ(zero.change, 2.0);  // old == 0 guarded
  EXPECT_NEAR(zero.noise, std::sqrt(2.0) * 0.1 / 1.349, 1e-9);
  EXPECT_EQ(zero.verdict, Verdict::regression);
  EXPECT_TRUE(res.single_repetition);
  EXPECT_TRUE(res.few_repetitions);

  // OK in BASE, failed in NEW: a regression, with its reason.
  const Comparison& gone = row(res, "SmallGemm/ScalarRead/pinned/fp16/cublas/n:512");
  EXPECT_EQ(gone.verdict, Verdict::regression);
  EXPECT_EQ(gone.gate, "error in NEW: cudaErrorLaunchFailure");

  EXPECT_EQ(res.only_base, std::vector<std::string>{"NullKernel/Print"});
  EXPECT_EQ(res.only_new, std::vector<std::string>{"NullKernel/BulkRead/pinned"});
  ASSERT_EQ(res.not_compared.size(), 1u);
  EXPECT_EQ(res.not_compared[0].first, "SmallGemm/ScalarRead/pageable/fp16/cublas/n:512");
  EXPECT_EQ(res.not_compared[0].second, "error in BASE: cudaErrorLaunchFailure");
  // 5 us written as 5000 ns: compared, in us, and unchanged (set aside, a gated row would leave
  // the gate).
  const Comparison& unit = row(res, "HostCopy/D2H/pinned/bytes:4096");
  EXPECT_NE(unit.gate.find("(BASE in us; NEW in ns: both read in us)"), std::string::npos)
      << unit.gate;
  EXPECT_DOUBLE_EQ(unit.delta, 0.0);
  EXPECT_EQ(unit.verdict, Verdict::unchanged);
  EXPECT_TRUE(res.context_warnings.empty());
}

TEST(Compare, ThresholdAndAlphaDecide) {
  const Runs r = load("compare_base.json", "compare_new.json");
  CompareOptions loose;
  // Of the step: only the 0 -> 0.8 us overhead, the failure and the benchmark NEW lacks left.
  loose.threshold_pct = 15.0;
  EXPECT_EQ(compare_runs(r.base, r.next, loose).regressions, 3u);
  CompareOptions strict;
  // No 5-vs-5 U test reaches it (2 / C(10, 5) = 0.0079): the limit alone decides, and the +1 us
  // whose processes overlap counts too.
  strict.alpha = 0.005;
  const CompareResult strict_result = compare_runs(r.base, r.next, strict);
  EXPECT_EQ(strict_result.regressions, 7u);
  EXPECT_TRUE(strict_result.untestable_repetitions);
  EXPECT_FALSE(row(strict_result, "NullKernel/DeviceSync").has_utest);
  CompareOptions wide;
  wide.alpha = 0.5;  // now the overlapping +1 us counts too
  EXPECT_EQ(row(compare_runs(r.base, r.next, wide), "NullKernel/DeviceSync").verdict,
            Verdict::regression);
  CompareOptions all;
  all.gate = Gate::all;  // the host-bound +40% is gated on its time too
  const CompareResult every = compare_runs(r.base, r.next, all);
  EXPECT_EQ(every.gated, every.rows.size());
  EXPECT_EQ(row(every, "SmallGemm/Async/fp16/cublas/n:512").verdict, Verdict::regression);
  EXPECT_EQ(row(every, "SmallGemm/DeviceSync/fp16/cublas/n:512").metric, "real_time");
}

TEST(Compare, SameRunHasNoRegression) {
  const Runs r = load("gb171_reps.json", "gb171_reps.json");
  const CompareResult res = compare_runs(r.base, r.next, CompareOptions{});
  EXPECT_EQ(res.regressions, 0u);
  EXPECT_EQ(res.improvements, 0u);
  EXPECT_EQ(res.rows.size(), 70u);  // all but the errored fp8
  EXPECT_EQ(res.gated, 0u);         // made before sync_bench wrote gpu_bound: bound unknown
  for (const auto& c : res.rows) {
    EXPECT_EQ(c.change, 0.0);
    EXPECT_DOUBLE_EQ(c.utest.p, 1.0);
  }
}

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

TEST(Compare, RatesRegressWhenTheyDrop) {
  EXPECT_TRUE(higher_is_better("bytes_per_second"));
  EXPECT_TRUE(higher_is_better("TFLOPS"));
  EXPECT_FALSE(higher_is_better("real_time"));
  EXPECT_FALSE(higher_is_better("host_us"));
  const Runs r = load("gb171_reps.json", "gb171_blocking.json");
  CompareOptions o;
  o.metric = "bytes_per_second";
  o.metric_given = true;  // an explicit --metric gates every row on it
  const CompareResult res = compare_runs(r.base, r.next, o);
  const Comparison& c = row(res, "HostCopy/D2H/pinned/memcpy_async/bytes:268435456");
  EXPECT_LT(c.change, -0.05);
  EXPECT_EQ(c.verdict, Verdict::regression);
}

// The noise gate: a paired overhead moving by less than noise_k x the noise is unchanged even
// though it is beyond 0.5 us and 2% of the step and its U test is significant; beyond, a
// regression. (Rows this noisy are not gated by default: max_noise_pct is lifted here.)
TEST(Compare, NoiseGateOnPairedRows) {
  using test::paired;
  const Runs r = made({paired("NullKernel/DeviceSync", nine(5.0, 0.4)),
                       paired("NullKernel/StreamSync", nine(5.0, 0.4))},
                      {paired("NullKernel/DeviceSync", nine(5.9, 0.4)),
                       paired("NullKernel/StreamSync", nine(6.5, 0.4))});
  CompareOptions o;
  o.max_noise_pct = 100.0;
  const CompareResult res = compare_runs(r.base, r.next, o);
  const double noise = std::sqrt(2.0) * standard_error(0.4, 9);
  const Comparison& inside = row(res, "NullKernel/DeviceSync");
  EXPECT_NEAR(inside.noise, noise, 1e-9);
  EXPECT_NEAR(inside.limit, 3.0 * noise, 1e-9);  // above 0.5 us and 5% of the 7 us step
  EXPECT_NEAR(inside.delta, 0.9, 1e-9);
  EXPECT_GT(inside.delta, 0.5);
  EXPECT_LT(inside.delta, inside.limit);
  EXPECT_LT(inside.utest.p, 0.05);  // the U test alone would call it
  EXPECT_EQ(inside.verdict, Verdict::unchanged);
  const Comparison& beyond = row(res, "NullKernel/StreamSync");
  EXPECT_GT(beyond.delta, beyond.limit);
  EXPECT_EQ(beyond.verdict, Verdict::regression);
  EXPECT_EQ(res.regressions, 1u);
  // A smaller noise_k lets the first one through as well.
  CompareOptions k1 = o;
  k1.noise_k = 1.0;
  EXPECT_EQ(compare_runs(r.base, r.next, k1).regressions, 2u);
  // By default neither is gated: BASE resolves 3 x sqrt(2) x its noise, 15% of the 7 us step.
  const CompareResult dflt = compare_runs(r.base, r.next, CompareOptions{});
  EXPECT_EQ(dflt.gated, 0u);
  const Comparison& noisy = row(dflt, "NullKernel/DeviceSync");
  EXPECT_NEAR(noisy.resolution, 3.0 * noise, 1e-9);
  EXPECT_EQ(noisy.verdict, Verdict::not_gated);
  EXPECT_EQ(noisy.gate,
            "not gated: noisy between processes (BASE resolves 15.0% of the step: "
            "over 5.0%)");
}

// A paired row whose BASE resolves under max_noise_pct of its step is gated; a NEW run that is
// noisier does not take it out of the gate (only BASE decides what is gated).
TEST(Compare, OnlyBaseNoiseDecidesWhatIsGated) {
  using test::paired;
  const Runs r = made({paired("NullKernel/DeviceSync", nine(5.0, 0.02))},
                      {paired("NullKernel/DeviceSync", nine(8.0, 1.0))});
  const CompareResult res = compare_runs(r.base, r.next, CompareOptions{});
  const Comparison& c = row(res, "NullKernel/DeviceSync");
  EXPECT_TRUE(c.gated);
  EXPECT_LT(c.resolution, 0.05 * 7.0);
  EXPECT_EQ(c.verdict, Verdict::regression);
}

// Host-adjusted, too: BASE's overhead is flat whatever its host's speed, NEW's rises 2 us per us of
// its host's. The slope of both runs, which NEW steepens, would spread BASE's adjusted values and
// call BASE too noisy to gate; BASE's own slope (about 0) leaves BASE steady, and the row gated.
TEST(Compare, NewsSteeperHostSlopeDoesNotTakeBaseOutOfTheGate) {
  const std::string id = "SmallGemm/DeviceSync/fp16/cublas/n:512";
  const std::vector<double> hosts = {7.0, 7.4, 7.8, 8.1, 8.5, 8.8, 9.2, 9.5, 9.9, 10.0};
  std::vector<double> flat, steep;
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    flat.push_back(8.0 + (i % 3 == 0 ? 0.04 : -0.02));
    steep.push_back(9.0 + 2.0 * (hosts[i] - 8.5) + (i % 3 == 0 ? 0.04 : -0.02));
  }
  const Runs r = made({test::syncing_every_step(test::paired_processes(id, hosts, flat))},
                      {test::syncing_every_step(test::paired_processes(id, hosts, steep))});
  const CompareResult res = compare_runs(r.base, r.next, CompareOptions{});
  const Comparison& c = row(res, id);
  EXPECT_GT(c.host_slope, 0.5) << "the slope of both runs";
  EXPECT_TRUE(c.gated) << c.gate;
  EXPECT_LT(c.resolution, 0.05 * 16.5) << c.gate;
}

// Each process's overhead follows its host speed (its Async baseline): a slow-host process has a
// slow baseline and a long overhead. Adjusted for it, a +1 us cost is caught that the raw
// overheads, spread by the hosts, hide; and two runs that differ only in their hosts' speed are
// not a regression.
TEST(Compare, PairedOverheadIsAdjustedForHostSpeed) {
  const std::string id = "SmallGemm/DeviceSync/fp16/cublas/n:512";
  const std::vector<double> hosts = {3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0};
  const auto processes = [&](double cost, double slowdown) {
    std::vector<double> base, overhead;
    for (std::size_t i = 0; i < hosts.size(); ++i) {
      base.push_back(hosts[i] + slowdown);
      overhead.push_back(5.0 + 0.5 * (base.back() - 3.0) + cost + (i % 3 == 0 ? 0.02 : -0.01));
    }
    return test::syncing_every_step(test::paired_processes(id, base, overhead));
  };
  const Runs costlier = made({processes(0.0, 0.0)}, {processes(1.0, 0.0)});
  const CompareResult adjusted_res = compare_runs(costlier.base, costlier.next, {});
  const Comparison& adjusted = row(adjusted_res, id);
  EXPECT_NEAR(adjusted.host_slope, 0.5, 0.02);
  EXPECT_NEAR(adjusted.delta, 1.0, 0.05);
  EXPECT_NEAR(adjusted.raw_delta, 1.0, 0.05);
  EXPECT_EQ(adjusted.bound, "sync");
  EXPECT_EQ(adjusted.verdict, Verdict::regression);
  EXPECT_NE(adjusted.gate.find("host-adjusted: slope 0.50"), std::string::npos) << adjusted.gate;
  CompareOptions raw;
  raw.host_adjust = false;
  raw.max_noise_pct = 100.0;  // raw, the hosts' spread makes the row too noisy to gate
  const CompareResult raw_res = compare_runs(costlier.base, costlier.next, raw);
  const Comparison& unadjusted = row(raw_res, id);
  EXPECT_TRUE(std::isnan(unadjusted.host_slope));
  EXPECT_GT(unadjusted.limit, 1.0);
  EXPECT_EQ(unadjusted.verdict, Verdict::unchanged);

  // NEW's hosts 1.5 us slower: its overheads are 0.75 us longer, raw; adjusted, unchanged.
  const Runs slower_hosts = made({processes(0.0, 0.0)}, {processes(0.0, 1.5)});
  const CompareResult same_res = compare_runs(slower_hosts.base, slower_hosts.next, {});
  const Comparison& same = row(same_res, id);
  EXPECT_NEAR(same.raw_delta, 0.75, 0.05);
  EXPECT_NEAR(same.delta, 0.0, 0.05);
  EXPECT_EQ(same.verdict, Verdict::unchanged);
}

// The host slope is estimated from a few processes: its error moves NEW's adjusted median by that
// error times how far NEW's hosts are from BASE's. The limit takes that in, so a slope that
// scatters does not turn a slower machine into a regression; where the hosts match, it adds
// nothing and a real cost is still caught.
TEST(Compare, HostSlopeErrorWidensTheLimitWithTheHostDistance) {
  const std::string id = "SmallGemm/Print/fp16/cublas/n:512";
  const std::vector<double> hosts = {7.0, 7.2, 7.4, 7.6, 7.8, 8.0, 8.2, 8.4, 8.6};
  // Overheads that rise 0.5 us per us of baseline, scattered by +-0.3 us around it.
  const std::vector<double> scatter = {0.3, -0.3, 0.0, 0.25, -0.25, 0.1, -0.2, 0.3, -0.1};
  const auto processes = [&](double slowdown, double cost) {
    std::vector<double> base, overhead;
    for (std::size_t i = 0; i < hosts.size(); ++i) {
      base.push_back(hosts[i] + slowdown);
      overhead.push_back(17.0 + 0.5 * (base.back() - 7.0) + scatter[i] + cost);
    }
    return test::syncing_every_step(test::paired_processes(id, base, overhead));
  };
  const Runs same_hosts = made({processes(0.0, 0.0)}, {processes(0.0, 3.0)});
  const CompareResult costlier_res = compare_runs(same_hosts.base, same_hosts.next, {});
  const Comparison& costlier = row(costlier_res, id);
  EXPECT_LT(costlier.host_slope_error, 0.1);
  EXPECT_EQ(costlier.verdict, Verdict::regression);
  const Runs far_hosts = made({processes(0.0, 0.0)}, {processes(3.0, 0.6)});
  const CompareResult slower_res = compare_runs(far_hosts.base, far_hosts.next, {});
  const Comparison& slower = row(slower_res, id);
  EXPECT_GT(slower.host_slope_error, 0.1 * 3.0);  // NEW's hosts 3 us slower
  EXPECT_EQ(slower.verdict, Verdict::unchanged);
  // Without the slope's error it would have been one: the slower machine's overheads rose 0.7 us
  // per us of baseline, BASE's scattered processes said about 0.5.
  EXPECT_GT(slower.delta, slower.limit - slower.host_slope_error);
  EXPECT_NE(slower.gate.find("us to the limit for its error"), std::string::npos) << slower.gate;
}

// A host that switches between two speeds for a whole run (results/h100/acceptance3/, calls 3 and
// 5 on one H100): SmallGemm/BulkRead/pinned's overhead is flat within each speed and 1.5 us higher
// on the slow one. BASE ran every process fast and NEW 9 of 10 slow, so the slope within the runs
// is flat and says nothing of the step. The limit takes 1 us per us of the stretch between the
// two runs' hosts that neither reached, and the step is not a regression; a cost where the hosts
// meet is still caught.
TEST(Compare, HostSpeedsNeitherRunReachedWidenTheLimit) {
  const std::string id = "SmallGemm/BulkRead/pinned/fp16/cublas/n:512";
  const std::vector<double> fast = {7.31, 7.48, 7.48, 7.54, 7.55, 7.59, 7.66, 7.66, 7.69, 7.91};
  const std::vector<double> fast_overhead = {24.67, 24.70, 24.60, 24.59, 24.82,
                                             24.77, 25.29, 24.64, 24.51, 24.66};
  const std::vector<double> slow = {8.05,  10.70, 10.89, 11.07, 11.09,
                                    11.12, 11.28, 12.37, 12.50, 14.70};
  const std::vector<double> slow_overhead = {25.05, 26.20, 27.28, 26.45, 26.61,
                                             26.71, 26.27, 27.30, 26.01, 26.05};
  const auto run = [&](const std::vector<double>& hosts, const std::vector<double>& overhead) {
    return on_gpu({test::syncing_every_step(test::paired_processes(id, hosts, overhead))}, "GPU-e");
  };
  const RunData base = run(fast, fast_overhead);
  const CompareResult switched_res = compare_runs(base, run(slow, slow_overhead), {});
  const Comparison& switched = row(switched_res, id);
  EXPECT_TRUE(switched_res.same_gpu);
  // From BASE's 2nd slowest process to NEW's 2nd fastest.
  EXPECT_NEAR(switched.host_unreached, 10.70 - 7.69, 1e-9);
  EXPECT_GT(switched.delta, 1.2);
  EXPECT_EQ(switched.verdict, Verdict::unchanged) << switched.gate;
  EXPECT_NE(switched.gate.find("3.01 us between the two runs' host speeds that neither reached"),
            std::string::npos)
      << switched.gate;
  // Without the stretch's term the step reads as a regression.
  EXPECT_GT(switched.delta, switched.limit - kUnreachedHostSlope * switched.host_unreached);

  // Hosts that meet: nothing unreached, and a 1.5 us cost is caught.
  std::vector<double> costlier = fast_overhead;
  for (double& o : costlier) o += 1.5;
  const CompareResult met_res = compare_runs(base, run(fast, costlier), {});
  const Comparison& met = row(met_res, id);
  EXPECT_DOUBLE_EQ(met.host_unreached, 0.0);
  EXPECT_EQ(met.verdict, Verdict::regression) << met.gate;
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
    bool said = false;
    for (const Block& b : compare_document(res, base, next, {}).blocks)
      for (const auto& line : b.lines)
        said =
            said || line.find("2 changes between the two machines set aside") != std::string::npos;
    EXPECT_TRUE(said);
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

// A GPU-bound baseline's spread between processes is its clock, not the host: no slope is fitted
// to it. Here NEW's GPU ran 2.5 us faster a step and its overheads are BASE's: raw, unchanged;
// adjusted along the overheads' slope of 2 on the baselines, it would read +5 us. Where the runs
// say how long the host took to submit each Async step (baseline_host_us), the slope is fitted on
// that instead.
TEST(Compare, GpuBoundBaselineIsNotHostAdjusted) {
  const std::string id = "BigGemm/DeviceSync/bf16/cublas/n:4096";
  const auto processes = [&](double shift, double gpu_busy) {
    std::vector<double> base, overhead;
    for (int i = 0; i < 9; ++i) {
      base.push_back(172.0 + 0.5 * i + shift);
      overhead.push_back(12.0 + 1.0 * i);  // 2 us per us of BASE's baseline
    }
    test::FakeBench b = test::syncing_every_step(test::paired_processes(id, base, overhead, 0.5));
    b.counters["gpu_busy_us"] = std::vector<double>(9, gpu_busy);
    b.counters["gpu_bound"] = std::vector<double>(9, 1.0);
    return b;
  };
  const Runs r = made({processes(0.0, 171.5)}, {processes(-2.5, 171.5)});
  const CompareResult res = compare_runs(r.base, r.next, {});
  const Comparison& c = row(res, id);
  EXPECT_TRUE(std::isnan(c.host_slope));
  EXPECT_NE(c.gate.find("baseline GPU-bound: not host-adjusted"), std::string::npos) << c.gate;
  EXPECT_NEAR(c.delta, 0.0, 1e-9);
  EXPECT_EQ(c.verdict, Verdict::unchanged);

  // The same rows with a host-paced baseline (the GPU busy a fraction of it) are adjusted.
  const Runs h = made({processes(0.0, 20.0)}, {processes(-2.5, 20.0)});
  const CompareResult hres = compare_runs(h.base, h.next, {});
  EXPECT_NEAR(row(hres, id).host_slope, 2.0, 1e-9);
  EXPECT_NEAR(row(hres, id).delta, 5.0, 1e-9);
}

// The overhead after a GPU-bound step is the host submitting the next one, so it follows the
// host's time per Async step (baseline_host_us), not the step's GPU time. NEW's host is 4 us
// slower a submit, with overheads 4 us longer (a slope of 1 within each run): raw, +4 us, a
// regression; adjusted on the host time, unchanged, between two GPUs and on one alike (a host
// switches speed between the calls on one machine too: results/h200/acceptance8/). Runs without
// the counter on both sides stay raw.
TEST(Compare, GpuBoundBaselineIsAdjustedOnItsHostTime) {
  const std::string id = "SpinKernel/DeviceSync/us:10";
  const auto processes = [&](double host_shift, bool with_host_time) {
    std::vector<double> base, overhead;
    for (int i = 0; i < 9; ++i) {
      base.push_back(12.0 + 0.01 * (i % 3));  // the GPU's time: no trace of the host
      overhead.push_back(8.0 + 0.1 * i + host_shift);
    }
    test::FakeBench b = test::syncing_every_step(test::paired_processes(id, base, overhead, 0.2));
    b.counters["gpu_busy_us"] = std::vector<double>(9, 11.9);
    b.counters["gpu_bound"] = std::vector<double>(9, 1.0);
    if (with_host_time)
      for (int i = 0; i < 9; ++i)
        b.counters["baseline_host_us"].push_back(5.0 + 0.1 * i + host_shift);
    return b;
  };
  CompareOptions loose;  // a limit the raw +4 us passes over on two GPUs (10% of a 20 us step)
  loose.machine_threshold_pct = 10.0;
  const auto judged = [&](bool base_counter, bool new_counter, const std::string& new_gpu) {
    const RunData base = on_gpu({processes(0.0, base_counter)}, "GPU-a");
    const RunData next = on_gpu({processes(4.0, new_counter)}, new_gpu);
    return row(compare_runs(base, next, loose), id);
  };
  for (const Comparison& adjusted : {judged(true, true, "GPU-b"), judged(true, true, "GPU-a")}) {
    EXPECT_NEAR(adjusted.host_slope, 1.0, 1e-9);
    EXPECT_NEAR(adjusted.raw_delta, 4.0, 1e-9);
    EXPECT_NEAR(adjusted.delta, 0.0, 1e-9);
    EXPECT_NE(adjusted.gate.find("adjusted on its host time"), std::string::npos) << adjusted.gate;
    EXPECT_EQ(adjusted.verdict, Verdict::unchanged);
  }
  for (const Comparison& raw : {judged(false, true, "GPU-b"), judged(true, false, "GPU-b"),
                                judged(false, false, "GPU-a")}) {
    EXPECT_TRUE(std::isnan(raw.host_slope));
    EXPECT_NE(raw.gate.find("not host-adjusted"), std::string::npos) << raw.gate;
    EXPECT_NEAR(raw.delta, 4.0, 1e-9);
    EXPECT_EQ(raw.verdict, Verdict::regression);
  }
}

// The slope's error is half the range it moves the adjusted change over, not the medians'
// distance times its interval. One H100 whose host ran at two speeds
// (results/h100/gate_p20_eb86bf1f/, calls 3 and 1): BASE's 20 processes all slow, 8 of NEW's fast.
// The medians' hosts lie 0.66 us apart, but the adjustment moves NEW's fast processes by some 10
// us, and the change reads +4.4 us adjusted (raw -0.07). Where NEW's hosts are BASE's shifted
// alike, the two terms are one.
TEST(Compare, SlopeErrorIsWhatItMovesTheAdjustedChangeBy) {
  const std::string id = "BigGemm/DeviceSync/bf16/cublas/n:4096";
  struct Side {
    std::vector<double> host, overhead, baseline, busy;
  };
  const Side slow = {
      {20.574, 14.215, 13.326, 12.947, 16.381, 12.660, 15.583, 15.902, 15.238, 15.181,
       14.791, 14.033, 15.452, 14.766, 15.080, 14.530, 14.040, 13.771, 14.535, 15.514},
      {35.962, 12.198, 11.933, 11.853, 21.126, 10.880, 21.450, 15.050, 20.365, 15.277,
       14.643, 12.266, 16.160, 18.627, 12.656, 11.952, 12.445, 12.029, 13.098, 20.122},
      {177.3, 178.6, 179.2, 179.4, 179.9, 180.6, 196.0, 181.0, 180.9, 181.4,
       181.7, 181.7, 181.7, 182.5, 182.3, 182.5, 182.9, 182.7, 182.5, 311.2},
      {177.2, 178.0, 178.4, 178.6, 187.4, 179.2, 206.4, 179.5, 181.0, 180.6,
       180.7, 180.2, 180.8, 181.5, 185.1, 181.0, 181.3, 181.5, 185.0, 282.2}};
  const Side mixed = {
      {16.677, 10.277, 14.513, 10.554, 10.991, 14.837, 14.649, 10.217, 10.772, 14.711,
       15.378, 14.890, 10.107, 14.091, 13.969, 14.142, 15.255, 10.553, 10.687, 14.241},
      {21.926, 10.374, 19.526, 10.534, 14.182, 19.216, 15.184, 9.142, 9.133,  15.466,
       16.102, 18.864, 9.296,  12.173, 11.786, 12.349, 27.290, 9.350, 13.427, 18.166},
      {176.4, 177.2, 178.0, 178.2, 192.4, 200.5, 179.8, 180.0, 180.4, 180.6,
       180.6, 180.7, 181.5, 182.2, 182.0, 182.0, 197.5, 183.1, 199.8, 371.4},
      {176.4, 183.4, 179.3, 177.6, 204.0, 206.1, 178.6, 178.9, 179.4, 179.9,
       179.9, 183.5, 180.3, 180.9, 180.5, 183.8, 207.4, 181.6, 229.8, 364.4}};
  const auto run = [&](const Side& side) {
    test::FakeBench b =
        test::syncing_every_step(test::paired_processes(id, side.baseline, side.overhead, 2.0));
    b.counters["gpu_busy_us"] = side.busy;
    b.counters["gpu_bound"] = std::vector<double>(side.host.size(), 1.0);
    b.counters["baseline_host_us"] = side.host;
    return on_gpu({b}, "GPU-eb86bf1f");
  };
  // Half the width of the slope's interval (clamped as compare clamps it), from both runs.
  const auto half_width = [](const Side& base, const Side& next) {
    const SlopeInterval in = within_group_slope_interval(
        {{base.host, base.overhead}, {next.host, next.overhead}}, kHostSlopeZ);
    return (std::clamp(in.high, 0.0, kMaxHostSlope) - std::clamp(in.low, 0.0, kMaxHostSlope)) / 2.0;
  };

  const Comparison c = row(compare_runs(run(slow), run(mixed), {}), id);
  EXPECT_NE(c.gate.find("adjusted on its host time"), std::string::npos) << c.gate;
  EXPECT_GT(c.host_slope, 2.0);
  EXPECT_LT(std::abs(c.raw_delta), 0.2);
  EXPECT_GT(c.delta, 4.0);
  EXPECT_EQ(c.verdict, Verdict::unchanged) << c.gate;
  EXPECT_DOUBLE_EQ(c.host_unreached, 0.0);
  // Over the slope's interval (1.52-3.25, clamped to 3) the adjusted change covers +2.28 to +5.24
  // us, its largest inside the interval: half that range, where the interval's ends alone give
  // 1.46. With the medians' distance for the error the row read as a regression.
  EXPECT_NEAR(c.host_slope_error, 1.480, 0.001);
  const double by_medians =
      half_width(slow, mixed) * std::abs(median(mixed.host) - median(slow.host));
  EXPECT_GT(c.host_slope_error, 2.0 * by_medians);
  EXPECT_GT(c.delta, c.limit - c.host_slope_error + by_medians);

  // NEW: BASE's processes on a host 1 us slower a step, each overhead 2 us longer.
  Side shifted = slow;
  for (double& h : shifted.host) h += 1.0;
  for (double& o : shifted.overhead) o += 2.0;
  const Comparison alike = row(compare_runs(run(slow), run(shifted), {}), id);
  EXPECT_DOUBLE_EQ(alike.host_unreached, 0.0);
  EXPECT_NEAR(alike.host_slope_error, half_width(slow, shifted) * 1.0, 1e-9);
}

// Host times that do not differ between processes give no slope: the row says nothing of an
// adjustment it did not make.
TEST(Compare, GpuBoundBaselineWithFlatHostTimesIsNotSaidToBeAdjusted) {
  const std::string id = "SpinKernel/DeviceSync/us:10";
  const auto processes = [&](const std::string& gpu) {
    test::FakeBench b = test::syncing_every_step(
        test::paired_processes(id, std::vector<double>(9, 12.0), nine(8.0, 0.1), 0.2));
    b.counters["gpu_busy_us"] = std::vector<double>(9, 11.9);
    b.counters["gpu_bound"] = std::vector<double>(9, 1.0);
    b.counters["baseline_host_us"] = std::vector<double>(9, 5.0);
    return on_gpu({b}, gpu);
  };
  const Comparison c = row(compare_runs(processes("GPU-a"), processes("GPU-b"), {}), id);
  EXPECT_TRUE(std::isnan(c.host_slope));
  EXPECT_EQ(c.gate.find("adjusted"), std::string::npos) << c.gate;
}

// BASE's processes in two groups further apart than a change: its median is a count of which
// group more processes landed in, so the row is shown, not gated. A NEW in two groups does not
// take a row out of the gate (only BASE decides).
TEST(Compare, TwoGroupsInBaseAreNotGated) {
  using test::paired;
  const std::string id = "TrainLoop/ItemEveryStep/bf16/cublas/n:512";
  const std::vector<double> two = {8.1, 8.4, 8.5, 8.5, 8.8, 9.0, 9.5, 9.6, 14.9, 15.2};
  const std::vector<double> one = {8.1, 8.4, 8.5, 8.5, 8.8, 9.0, 9.5, 9.6, 8.9, 8.6};
  CompareOptions raw;
  raw.host_adjust = false;
  const Runs r = made({paired(id, two, 45.0)}, {paired(id, one, 45.0)});
  const CompareResult res = compare_runs(r.base, r.next, raw);
  const Comparison& c = row(res, id);
  EXPECT_FALSE(c.gated);
  EXPECT_EQ(c.verdict, Verdict::not_gated);
  EXPECT_NE(c.gate.find("two groups"), std::string::npos) << c.gate;
  const Runs back = made({paired(id, one, 45.0)}, {paired(id, two, 45.0)});
  EXPECT_TRUE(row(compare_runs(back.base, back.next, raw), id).gated);
}

// A step that is GPU-bound in most processes and host-bound in some (a slower host takes over the
// pace) is not gated on its time: its median is the share of slow hosts. TrainLoop/Async bf16
// n=1024 on two H200s (results/h200/acceptance2/, call1 and call4): a +12% false alarm before.
TEST(Compare, AStepHostBoundInSomeProcessesIsNotGated) {
  const std::string id = "TrainLoop/Async/bf16/cublas/n:1024";
  test::FakeBench base =
      test::unpaired(id, {39.0, 40.0, 40.1, 40.1, 40.1, 40.2, 40.3, 41.1, 41.4, 56.0}, 1.0);
  base.counters["gpu_bound"].back() = 0.0;
  test::FakeBench next =
      test::unpaired(id, {42.2, 42.4, 43.3, 43.7, 43.7, 46.3, 57.1, 57.4, 57.9, 58.0}, 1.0);
  for (std::size_t i = 6; i < 10; ++i) next.counters["gpu_bound"][i] = 0.0;
  const Runs mixed = made({base}, {next});
  const CompareResult mixed_result = compare_runs(mixed.base, mixed.next, {});
  const Comparison& c = row(mixed_result, id);
  EXPECT_FALSE(c.gated);
  EXPECT_EQ(c.verdict, Verdict::not_gated);
  EXPECT_EQ(c.gate,
            "not gated: host-bound in 1 of 10 of BASE's processes (the host's speed sets "
            "its pace there)");
  // BASE GPU-bound in every process, NEW host-bound in a minority of its own: not gated either.
  const Runs minority = made({test::unpaired(id, base.times, 1.0)}, {next});
  const CompareResult minority_result = compare_runs(minority.base, minority.next, {});
  EXPECT_EQ(row(minority_result, id).gate,
            "not gated: host-bound in 4 of 10 of NEW's processes (the host's speed sets its pace "
            "there)");
  // The same times, GPU-bound in every process: gated, and the +12% flagged.
  const Runs gpu =
      made({test::unpaired(id, base.times, 1.0)}, {test::unpaired(id, next.times, 1.0)});
  const CompareResult gpu_result = compare_runs(gpu.base, gpu.next, {});
  const Comparison& g = row(gpu_result, id);
  EXPECT_TRUE(g.gated);
  EXPECT_EQ(g.verdict, Verdict::regression);
}

// BASE decides what a row is gated on: a NEW without the overhead BASE's row is gated on cannot
// take the row out of the gate. A step GPU-bound in every process of BASE that NEW's host paces
// in most of its processes is not gated (slow hosts do that alone: results/h200/gate_pool), but
// it is flagged.
TEST(Compare, NewCannotTakeARowOutOfTheGateUnnoticed) {
  const std::string sync = "NullKernel/DeviceSync";
  const Runs lost = made({test::paired(sync, nine(5.0))}, {test::unpaired(sync, nine(10.0), 0.0)});
  const CompareResult lost_result = compare_runs(lost.base, lost.next, {});
  EXPECT_EQ(lost_result.missing, 1u);
  EXPECT_EQ(lost_result.regressions, 1u);
  ASSERT_EQ(lost_result.not_compared.size(), 1u);
  EXPECT_EQ(lost_result.not_compared[0].second, "no overhead_us in NEW: counted as a regression");

  const std::string spin = "SpinKernel/Async/us:1000";
  const Runs host_paced =
      made({test::unpaired(spin, nine(1000.0), 1.0)}, {test::unpaired(spin, nine(2000.0), 0.0)});
  const CompareResult paced = compare_runs(host_paced.base, host_paced.next, {});
  const Comparison& p = row(paced, spin);
  EXPECT_FALSE(p.gated);
  EXPECT_TRUE(p.host_paced_in_new);
  EXPECT_NE(host_paced_warning(paced).find("1 row GPU-bound in every process of BASE is "
                                           "host-bound in most of NEW's (" +
                                           spin + ")"),
            std::string::npos)
      << host_paced_warning(paced);
  const auto cli = test::run({"compare",
                              test::write_run(testing::TempDir() + "paced_base.json",
                                              {test::unpaired(spin, nine(1000.0), 1.0)}),
                              test::write_run(testing::TempDir() + "paced_new.json",
                                              {test::unpaired(spin, nine(2000.0), 0.0)})});
  EXPECT_TRUE(test::contains(cli.err, "warning: 1 row GPU-bound in every process of BASE"))
      << cli.err;
}

// A baseline merged from many processes may hold one that failed once: a benchmark that fails in
// every process of NEW is still newly failing.
TEST(Compare, FailingEverywhereInNewIsARegressionThoughBaseFailedOnce) {
  const std::string dir = testing::TempDir();
  const std::string id = "NullKernel/DeviceSync";
  std::vector<std::string> processes;
  for (double overhead : {5.0, 5.1, 4.9})
    processes.push_back(test::write_run(dir + "once_" + std::to_string(processes.size()) + ".json",
                                        {test::paired(id, {overhead})}));
  processes.push_back(
      test::write_run(dir + "once_failed.json", {test::failing(id, "cudaErrorLaunchFailure")}));
  const std::string base = dir + "once_base.json";
  merge_runs(processes, base);
  std::vector<RunData> r;
  r.push_back(digest(load_run(base)));
  r.push_back(
      digest(parse_run(test::gb_json({test::failing(id, "cudaErrorIllegalAddress")}), "new.json")));
  assign_labels(r, {});
  const CompareResult res = compare_runs(r[0], r[1], {});
  EXPECT_EQ(res.newly_failed, 1u);
  EXPECT_EQ(res.regressions, 1u);
  EXPECT_EQ(row(res, id).gate, "error in NEW: cudaErrorIllegalAddress");
}

// A baseline written with --benchmark_report_aggregates_only has no repetition rows, only its
// aggregates: a benchmark that worked there, beside a failed repetition, and fails in NEW is
// newly failing too.
TEST(Compare, FailingInNewIsARegressionAgainstAggregatesOnly) {
  const std::string id = "NullKernel/DeviceSync";
  std::string base = test::gb_json({test::failing(id, "cudaErrorLaunchFailure")});
  const std::string median =
      ",\n    {\"name\": \"" + id + "/manual_time_median\", \"family_index\": 0, " +
      "\"per_family_instance_index\": 0, \"run_name\": \"" + id + "/manual_time\", " +
      "\"run_type\": \"aggregate\", \"repetitions\": 3, \"threads\": 1, " +
      "\"aggregate_name\": \"median\", \"iterations\": 3, \"real_time\": 7.0, " +
      "\"cpu_time\": 3.5, \"time_unit\": \"us\", \"overhead_us\": 5.0, \"baseline_us\": 2.0, " +
      "\"gpu_bound\": 0.0}";
  base.insert(base.rfind("\n  ]"), median);
  std::vector<RunData> r;
  r.push_back(digest(parse_run(base, "base.json")));
  r.push_back(
      digest(parse_run(test::gb_json({test::failing(id, "cudaErrorIllegalAddress")}), "new.json")));
  assign_labels(r, {});
  ASSERT_TRUE(r[0].find(id)->summary("real_time").from_aggregates);
  const CompareResult res = compare_runs(r[0], r[1], {});
  EXPECT_EQ(res.newly_failed, 1u);
  EXPECT_EQ(res.regressions, 1u);
  EXPECT_EQ(row(res, id).gate, "error in NEW: cudaErrorIllegalAddress");
}

// With 3 repetitions a side no U test reaches p < 0.05 (0.10 at best): the limit decides alone,
// so a doubling is a regression, not "not significant".
TEST(Compare, TooFewRepetitionsForAUTestLeaveTheLimitToDecide) {
  const std::string id = "NullKernel/DeviceSync";
  const Runs r = made({test::paired(id, {5.0, 5.02, 4.98})}, {test::paired(id, {10.0, 10.1, 9.9})});
  const CompareResult res = compare_runs(r.base, r.next, {});
  const Comparison& c = row(res, id);
  EXPECT_FALSE(c.has_utest);
  EXPECT_TRUE(res.untestable_repetitions);
  EXPECT_EQ(c.verdict, Verdict::regression);
  // Four a side can reach it (2 / C(8, 4) = 0.029): the U test runs.
  const Runs four = made({test::paired(id, {5.0, 5.02, 4.98, 5.01})},
                         {test::paired(id, {10.0, 10.1, 9.9, 10.05})});
  EXPECT_TRUE(row(compare_runs(four.base, four.next, {}), id).has_utest);
}

// compare_runs over r throws InputError, whose message holds `message`.
void expect_refused(const Runs& r, const std::string& message) {
  try {
    compare_runs(r.base, r.next, {});
    ADD_FAILURE() << "compared the runs; expected a refusal with '" << message << "'";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

// A NaN or infinity in a counter the gate reads (here the Async baseline the host adjustment
// regresses on) is a bad file, not a row that quietly compares as NaN.
TEST(Compare, NonFiniteCounterTheGateReadsIsRefused) {
  const std::string id = "NullKernel/DeviceSync";
  test::FakeBench next = test::paired(id, nine(10.0));
  next.counters["baseline_us"][3] = std::numeric_limits<double>::infinity();
  expect_refused(made({test::paired(id, nine(5.0))}, {next}), "baseline_us is inf");
}

// Finite values can still overflow the arithmetic: quartiles of +-1e308 make the noise, and so
// the limit, infinite, which passes every change. Refused, as a NaN is; so is a negative time the
// gate reads beside the step.
TEST(Compare, ValuesTooLargeToJudgeOrNegativeTimesAreRefused) {
  const std::string id = "NullKernel/DeviceSync";
  test::FakeBench huge = test::paired_processes(id, {5.0}, {50.0});
  huge.counters["overhead_p25_us"] = {-1e308};
  huge.counters["overhead_p75_us"] = {1e308};
  expect_refused(made({test::paired_processes(id, {5.0}, {5.0})}, {huge}), "too large to judge");
  test::FakeBench negative = test::paired(id, nine(10.0));
  negative.counters["baseline_us"][2] = -4.0;
  expect_refused(made({test::paired(id, nine(5.0))}, {negative}), "baseline_us is -4");
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
  bool said = false;
  for (const Block& b : doc.blocks)
    for (const auto& line : b.lines)
      said = said || line.find("different GPUs") != std::string::npos;
  EXPECT_TRUE(said);
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

// The host slope is fitted within each GPU of a BASE merged from several: a machine whose host is
// slower and whose sync is slower too (a shift between machines) must not read as "the overhead
// follows the host's speed".
TEST(Compare, HostSlopeIsFittedWithinEachGpu) {
  const std::string id = "NullKernel/DeviceSync";
  const std::vector<double> jitter = {0.0, 0.1, -0.1, 0.05, -0.05};
  const std::vector<double> xa = {10.0, 10.2, 10.4, 10.6, 10.8};
  const std::vector<double> xb = {12.0, 12.2, 12.4, 12.6, 12.8};
  std::vector<double> ya, yb;
  for (double j : jitter) {
    ya.push_back(5.0 + j);
    yb.push_back(7.0 - j);
  }
  // Pooled, the two machines make a slope near 1.
  Points pooled{xa, ya};
  pooled.x.insert(pooled.x.end(), xb.begin(), xb.end());
  pooled.y.insert(pooled.y.end(), yb.begin(), yb.end());
  ASSERT_GT(within_group_slope({pooled}), 0.5);

  const std::string dir = testing::TempDir() + "compare_slope_";
  const std::string merged = dir + "merged.json";
  merge_runs({test::write_run(dir + "a.json", {test::paired_processes(id, xa, ya)},
                              {{"gpu_uuid", "GPU-a"}}),
              test::write_run(dir + "b.json", {test::paired_processes(id, xb, yb)},
                              {{"gpu_uuid", "GPU-b"}})},
             merged);
  const RunData base = digest(load_run(merged));
  const RunData next = on_gpu({test::paired_processes(id, xa, ya)}, "GPU-c");
  const Comparison c = row(compare_runs(base, next, {}), id);
  ASSERT_FALSE(std::isnan(c.host_slope));
  EXPECT_LT(c.host_slope, 0.3);
}

// A host-bound row moving 40% is shown with "-" and not gated; --gate=all gates it on its time.
TEST(Compare, HostBoundRowsAreShownNotGated) {
  using test::paired;
  using test::unpaired;
  std::vector<double> slow;
  for (double t : nine(10.0)) slow.push_back(t * 1.4);
  const Runs r = made({unpaired("SmallGemm/Async/fp16/cublas/n:512", nine(10.0), 0.0),
                       unpaired("HostCopy/H2D/pinned/bytes:16777216", nine(330.0), 1.0),
                       paired("NullKernel/DeviceSync", nine(5.0))},
                      {unpaired("SmallGemm/Async/fp16/cublas/n:512", slow, 0.0),
                       unpaired("HostCopy/H2D/pinned/bytes:16777216", nine(330.0), 1.0),
                       paired("NullKernel/DeviceSync", nine(5.0))});
  const CompareResult res = compare_runs(r.base, r.next, CompareOptions{});
  const Comparison& host = row(res, "SmallGemm/Async/fp16/cublas/n:512");
  EXPECT_NEAR(host.change, 0.4, 1e-9);
  EXPECT_FALSE(host.gated);
  EXPECT_EQ(host.verdict, Verdict::not_gated);
  EXPECT_EQ(host.gate, "not gated: host-bound (moves with the host CPU)");
  EXPECT_EQ(row(res, "HostCopy/H2D/pinned/bytes:16777216").gate, "GPU-bound time");
  EXPECT_EQ(res.gated, 2u);
  EXPECT_EQ(res.regressions, 0u);
  const Document doc = compare_document(res, r.base, r.next, CompareOptions{});
  bool shown = false;
  for (const Block& b : doc.blocks)
    for (const auto& cells : b.table.rows)
      if (cells[0] == "SmallGemm/Async/fp16/cublas/n:512") {
        shown = true;
        EXPECT_EQ(cells.back(), "-");
      }
  EXPECT_TRUE(shown);

  CompareOptions all;
  all.gate = Gate::all;
  const CompareResult every = compare_runs(r.base, r.next, all);
  EXPECT_EQ(row(every, "SmallGemm/Async/fp16/cublas/n:512").verdict, Verdict::regression);
  EXPECT_EQ(row(every, "NullKernel/DeviceSync").metric, "real_time");
  EXPECT_EQ(every.gated, 3u);
  EXPECT_EQ(every.regressions, 1u);
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
  bool shown = false;
  for (const Block& b : doc.blocks)
    for (const auto& line : b.lines) shown = shown || test::contains(line, "WARNING: NEW's host");
  EXPECT_TRUE(shown);

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

// Each side names the sync_bench that measured it; where both name a source and the sources differ,
// a note says that a change may be the harness's. Not where they match, or where one run is from
// before the fingerprint (nothing to tell).
TEST(Compare, DocumentNamesEachSidesSyncBenchAndNotesDifferentSources) {
  const std::vector<test::FakeBench> rows = {test::paired("NullKernel/DeviceSync", nine(5.0))};
  auto measured_by = [&](const std::string& label,
                         const std::map<std::string, std::string>& build) {
    RunData d = digest(parse_run(test::gb_json(rows, build), label + ".json"));
    d.label = label;
    return d;
  };
  auto lines_of = [&](const RunData& base, const RunData& next) {
    std::vector<std::string> lines;
    for (const Block& b : compare_document(compare_runs(base, next, {}), base, next, {}).blocks)
      lines.insert(lines.end(), b.lines.begin(), b.lines.end());
    return lines;
  };
  auto has = [](const std::vector<std::string>& lines, const std::string& text) {
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string& l) { return test::contains(l, text); });
  };
  const RunData old_build = measured_by(
      "old", {{"sync_bench_version", "0.1.0"}, {"sync_bench_source", "aaaaaaaaaaaaaaaa"}});
  const RunData new_build = measured_by(
      "new", {{"sync_bench_version", "0.1.0"}, {"sync_bench_source", "bbbbbbbbbbbbbbbb"}});
  const RunData no_source = measured_by("before", {{"sync_bench_version", "0.1.0"}});

  const auto differ = lines_of(old_build, new_build);
  EXPECT_TRUE(has(differ, "BASE: old (old.json): ")) << differ[0];
  EXPECT_TRUE(has(differ,
                  "wait mode spin, sync_bench 0.1.0 (source aaaaaaaaaaaaaaaa, "
                  "scripts/source_hash.sh)"));
  EXPECT_TRUE(has(differ, "sync_bench 0.1.0 (source bbbbbbbbbbbbbbbb, scripts/source_hash.sh)"));
  EXPECT_TRUE(has(differ,
                  "NOTE: BASE and NEW were measured by different sync_bench sources "
                  "(aaaaaaaaaaaaaaaa and bbbbbbbbbbbbbbbb)"));

  const auto same = lines_of(new_build, new_build);
  EXPECT_FALSE(has(same, "NOTE: BASE and NEW"));
  const auto unknown = lines_of(no_source, new_build);
  EXPECT_FALSE(has(unknown, "NOTE: BASE and NEW"));
  EXPECT_TRUE(has(unknown, "BASE: before (before.json): ")) << unknown[0];
  EXPECT_FALSE(has(unknown, "(source aaaaaaaaaaaaaaaa"));
  for (const std::string& l : unknown) {
    if (test::contains(l, "BASE: before")) {
      EXPECT_TRUE(test::contains(l, ", sync_bench 0.1.0")) << l;
    }
  }
  const auto no_version = lines_of(measured_by("older", {}), new_build);
  EXPECT_TRUE(has(no_version, "wait mode spin, sync_bench ?"));
}

// A time that is not a finite positive number is bad input: refused when the run is read, named
// by file and row, so that no command judges or prints it; on a paired row as on any other.
TEST(Compare, BadTimesAreInputErrorsWhenTheRunIsRead) {
  using test::unpaired;
  for (double bad : {std::nan(""), -3.0, 1e308, 0.0, HUGE_VAL}) {
    std::vector<double> times = nine(10.0);
    times[4] = bad;
    try {
      made({unpaired("GraphReplay/Replay/k:64", nine(10.0), 1.0)},
           {unpaired("GraphReplay/Replay/k:64", times, 1.0)});
      ADD_FAILURE() << "no error for " << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("new.json: GraphReplay/Replay/k:64: real_time is "),
                std::string::npos)
          << e.what();
    }
  }
  test::FakeBench paired = test::paired("NullKernel/DeviceSync", nine(5.0));
  paired.times[0] = std::nan("");
  try {
    made({paired}, {test::paired("NullKernel/DeviceSync", nine(5.0))});
    ADD_FAILURE() << "no error for a paired row";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("base.json: NullKernel/DeviceSync: real_time is NaN"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace sync_summary
