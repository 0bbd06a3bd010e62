// compare's host-speed adjustment: a paired overhead moved along the slope of overhead on the
// process's host time, the slope's error in the limit, GPU-bound baselines adjusted on their host
// time or not, and the slope fitted within each GPU of a merged run.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "compare.hpp"
#include "compare_helpers.hpp"
#include "gb_builder.hpp"
#include "gb_json.hpp"
#include "merge.hpp"
#include "statistics.hpp"
#include "test_util.hpp"

namespace sync_summary {
namespace {

using test::made;
using test::nine;
using test::on_gpu;
using test::row;
using test::Runs;

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

}  // namespace
}  // namespace sync_summary
