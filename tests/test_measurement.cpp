// The arithmetic of a measurement, without a GPU: robust statistics, the stopping rule, paired
// overheads, the GPU-busy probe's plan, and the injection knob's parsing and choice of benchmarks.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "busy_probe.hpp"
#include "measure_config.hpp"
#include "measurement.hpp"
#include "sample_stats.hpp"
#include "step_loop.hpp"

namespace sync_bench {
namespace {

// The accounting and anatomy passes run whole periods of a pattern that syncs every k steps: 16
// steps of a sync every 32 held none, and syncs_per_step read 0 for a benchmark that syncs.
TEST(UntimedPass, RunsWholePeriodsOfThePattern) {
  EXPECT_EQ(untimed_pass_steps(256, 16, 1), 16);  // one sync a step: the usual 16
  EXPECT_EQ(untimed_pass_steps(3, 16, 1), 3);     // no more than a batch
  EXPECT_EQ(untimed_pass_steps(1, 16, 1), 2);     // at least 2
  EXPECT_EQ(untimed_pass_steps(256, 16, 16), 16);
  EXPECT_EQ(untimed_pass_steps(256, 16, 32), 32);    // SyncEvery k:32: one sync
  EXPECT_EQ(untimed_pass_steps(256, 16, 256), 256);  // k:256: one sync
  EXPECT_EQ(untimed_pass_steps(100, 16, 100), 100);  // TrainLoop's read every 100 steps
  EXPECT_EQ(untimed_pass_steps(64, 16, 10), 20);     // DataParallel every:10: two reads
}

// Timed batches are whole periods too: DataParallel's every:10 at n=4096 had 4-step batches, so
// that its pattern batches held 0 or 1 read and the median round often had none.
TEST(BatchSteps, AreWholePeriodsOfThePattern) {
  LoopConfig config;  // 1 ms batches, 4 to 4096 steps
  EXPECT_EQ(batch_steps(250e-6, config), 4);
  EXPECT_EQ(batch_steps(37e-6, config), 27);
  config.period = 10;
  EXPECT_EQ(batch_steps(250e-6, config), 10);  // one read a batch, not 0 or 1
  EXPECT_EQ(batch_steps(37e-6, config), 30);
  EXPECT_EQ(batch_steps(1e-9, config), 4100);  // above max_batch rather than a partial period
  config.period = 256;
  config.max_batch = 256;
  config.target_batch_seconds = 1.0;  // SyncEvery: exactly 256
  EXPECT_EQ(batch_steps(12e-6, config), 256);
}

// A pattern acting every k steps acts on the steps that close a period counted from the first
// timed step: 12 unpaired (3 warm-up, 3 sizing probes of 3), 15 paired (the baseline's warm-up
// too).
TEST(PeriodEnds, CountFromTheFirstTimedStep) {
  LoopConfig config;
  config.period = 4;
  const PeriodEnds unpaired(config);  // after 3 warm-up steps and 3 sizing probes of 3
  EXPECT_EQ(unpaired.first, 12);
  EXPECT_FALSE(unpaired(14));
  EXPECT_TRUE(unpaired(15));  // steps 12, 13, 14, 15
  EXPECT_TRUE(unpaired(19));
  config.baseline = [](std::int64_t) {};
  const PeriodEnds paired(config);  // and the baseline's 3 warm-up steps
  EXPECT_EQ(paired.first, 15);
  EXPECT_FALSE(paired(15));
  EXPECT_TRUE(paired(18));
  config.period = 1;
  EXPECT_TRUE(PeriodEnds(config)(10));  // every step
}

// The GPU-busy probe queues about a millisecond of the work a try, 1 to 64 steps: one 21.6 ms
// fp32 n=8192 GEMM where it ran a batch's minimum of four, and 64 short steps as before, since a
// try's fixed cost of a few microseconds inflates the figure of a try of few short steps.
TEST(BusyProbe, QueuesAboutAMillisecondOfWorkATry) {
  EXPECT_EQ(probe_steps(21.6e-3), 1);
  EXPECT_EQ(probe_steps(1.5e-3), 1);
  EXPECT_EQ(probe_steps(0.2e-3), 5);
  EXPECT_EQ(probe_steps(60e-6), 17);
  EXPECT_EQ(probe_steps(12e-6), 64);  // SmallGemm's baseline
  EXPECT_EQ(probe_steps(1.5e-9), 64);
  EXPECT_EQ(probe_steps(0.0), 64) << "no estimate: the most";
  EXPECT_EQ(probe_steps(std::nan("")), 64);
}

// Two tries that count, the faster kept; the spin is three times the expected queueing, within
// its bounds.
TEST(BusyProbe, KeepsTheFasterOfTwoTriesThatCount) {
  ProbeTries tries(16, 10e-6);  // 16 steps queued in 160 us: a 480 us spin
  EXPECT_DOUBLE_EQ(tries.hold(), 480e-6);
  ASSERT_TRUE(tries.more());
  tries.record(150e-6, 32e-6);
  ASSERT_TRUE(tries.more());
  tries.record(170e-6, 24e-6);
  EXPECT_FALSE(tries.more());
  EXPECT_EQ(tries.tries(), 2);
  EXPECT_DOUBLE_EQ(tries.per_step(), 1.5e-6);
  EXPECT_DOUBLE_EQ(ProbeTries(1, 1e-6).hold(), ProbeTries::kMinHold);
  EXPECT_DOUBLE_EQ(ProbeTries(16, 1.0).hold(), ProbeTries::kMaxHold);
  EXPECT_EQ(ProbeTries(0, 1e-3).steps(), 1);
}

// A try whose queueing took half the spin or more does not count (the GPU may have waited for
// the host), and the next spin is sized by what the host took: an unpaired benchmark's work comes
// with no expected time, and a host that slows down mid-probe does not cost the row its counter.
TEST(BusyProbe, ATryThatDoesNotCountSizesTheNextSpin) {
  ProbeTries tries(4, 0.0);
  EXPECT_DOUBLE_EQ(tries.hold(), ProbeTries::kMinHold);
  tries.record(1.2e-3, 100e-6);  // 4 steps took 1.2 ms to queue behind a 0.25 ms spin
  EXPECT_EQ(tries.counted(), 0);
  EXPECT_DOUBLE_EQ(tries.hold(), 3.6e-3);
  EXPECT_TRUE(std::isnan(tries.per_step()));
  tries.record(1.2e-3, 200e-6);
  tries.record(1.1e-3, 204e-6);
  EXPECT_FALSE(tries.more());
  EXPECT_EQ(tries.tries(), 3);
  EXPECT_DOUBLE_EQ(tries.per_step(), 50e-6) << "the try that did not count is not kept";
}

// A host that never queues in time: four tries, no figure, and the spin no longer than its bound.
TEST(BusyProbe, GivesUpAfterFourTriesThatDoNotCount) {
  ProbeTries tries(8, 1e-3);
  while (tries.more()) tries.record(2.0, 1e-3);
  EXPECT_EQ(tries.tries(), ProbeTries::kMostTries);
  EXPECT_DOUBLE_EQ(tries.hold(), ProbeTries::kMaxHold);
  EXPECT_TRUE(std::isnan(tries.per_step()));
}

TEST(SampleStats, QuantilesInterpolateAsNumpyDoes) {
  const std::vector<double> v = {4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(median(v), 2.5);
  EXPECT_DOUBLE_EQ(quantile(v, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile(v, 1.0), 4.0);
  EXPECT_DOUBLE_EQ(minimum(v), 1.0);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(SampleStats, OneHiccupMovesTheMedianNotItsInterval) {
  std::vector<double> v(41, 10.0);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] += 0.01 * static_cast<double>(i % 5);
  const double before = median(v);
  v[7] = 20000.0;  // a 20 ms hiccup among 10 us batches
  EXPECT_NEAR(median(v), before, 0.011);
  EXPECT_LT(median_ci_half_width(v), 0.05);
}

TEST(SampleStats, MadIntervalIgnoresAFewWildSamples) {
  std::vector<double> v;
  for (int i = 0; i < 30; ++i) v.push_back(1.0 + 0.1 * (i % 3));  // MAD 0.1
  const double quiet = median_mad_half_width(v);
  EXPECT_NEAR(quiet, 1.96 * 1.253 * 1.4826 * 0.1 / std::sqrt(30.0), 1e-12);
  v[0] = 50.0;
  v[1] = -40.0;
  v[2] = 90.0;
  EXPECT_NEAR(median_mad_half_width(v), quiet, 1e-12);
  EXPECT_TRUE(std::isinf(median_mad_half_width({1.0, 2.0})));
}

TEST(SampleStats, NoIntervalFromFewerThanThreeSamples) {
  EXPECT_TRUE(std::isinf(median_ci_half_width({1.0, 2.0})));
  EXPECT_GT(median_ci_half_width({1.0, 2.0, 30.0, 4.0, 5.0}), 0.0);
}

BatchTime batch(double per_step_us, std::int64_t steps = 100) {
  BatchTime b;
  b.steps = steps;
  b.gpu_seconds = per_step_us * 1e-6 * static_cast<double>(steps);
  b.host_seconds = b.gpu_seconds * 0.9;
  b.cpu_seconds = b.gpu_seconds * 0.8;
  return b;
}

TEST(Measurement, PairedOverheadIsTheMedianOfPerRoundDifferences) {
  StoppingRule rule;
  Measurement m(rule, true);
  // Both halves of a round drift together (a clock going down): the difference stays 5 us.
  const std::vector<double> drift = {0, 3, 6, 9, 12, 15, 18, 21, 24};
  for (double d : drift) m.add_round(batch(15.0 + d), batch(10.0 + d));
  const MeasuredSteps r = m.result();
  EXPECT_TRUE(r.paired);
  EXPECT_NEAR(r.overhead * 1e6, 5.0, 1e-9);
  EXPECT_NEAR(r.overhead_p25 * 1e6, 5.0, 1e-9);
  EXPECT_NEAR(r.overhead_p75 * 1e6, 5.0, 1e-9);
  EXPECT_NEAR(r.step * 1e6, 27.0, 1e-9);
  EXPECT_NEAR(r.baseline * 1e6, 22.0, 1e-9);
  EXPECT_NEAR(r.min_step * 1e6, 15.0, 1e-9);
  EXPECT_EQ(r.steps, 900);
  EXPECT_EQ(r.batches, 9);
  EXPECT_NEAR(r.host * 1e6, 27.0 * 0.9, 1e-9);
  EXPECT_NEAR(r.baseline_host * 1e6, 22.0 * 0.9, 1e-9) << "the baseline's own host time";
}

TEST(Measurement, OrderOfARoundFlipsEveryRound) {
  EXPECT_FALSE(Measurement::baseline_first(0));
  EXPECT_TRUE(Measurement::baseline_first(1));
  EXPECT_FALSE(Measurement::baseline_first(2));
}

TEST(Measurement, StopsOnceQuietAfterTheMinimums) {
  StoppingRule rule;
  rule.min_rounds = 8;
  rule.min_seconds = 0.004;  // 4 batches of 1 ms
  rule.max_seconds = 1.0;
  rule.max_noise_pct = 1.0;
  Measurement m(rule, false);
  for (int r = 0; r < 7; ++r) m.add_round(batch(10.0));
  EXPECT_FALSE(m.enough()) << "fewer than min_rounds";
  m.add_round(batch(10.0));
  EXPECT_TRUE(m.enough()) << "8 identical batches: no noise";
}

TEST(Measurement, NoisyRunsGoOnUntilTheBudget) {
  StoppingRule rule;
  rule.min_rounds = 3;
  rule.min_seconds = 0.0;
  rule.max_seconds = 0.0195;  // 20 batches of 1 ms
  rule.max_noise_pct = 0.1;
  Measurement m(rule, false);
  int rounds = 0;
  while (!m.enough()) {
    m.add_round(batch(rounds % 2 ? 12.0 : 8.0));  // +-20 %: never within 0.1 %
    ++rounds;
  }
  EXPECT_EQ(rounds, 20);
  EXPECT_GT(m.result().noise, 0.001);
}

TEST(Measurement, PairedRunsAlsoWaitForAQuietOverhead) {
  StoppingRule rule;
  rule.min_rounds = 3;
  rule.min_seconds = 0.0;
  rule.max_seconds = 0.05;
  rule.max_noise_pct = 1.0;
  Measurement m(rule, true);
  int rounds = 0;
  // The pattern's own time is steady but the baseline's swings: the overhead is not known yet.
  while (!m.enough()) {
    m.add_round(batch(20.0), batch(rounds % 2 ? 5.0 : 15.0));
    ++rounds;
  }
  EXPECT_GT(rounds, 3);
  EXPECT_GT(m.result().overhead_noise, 0.01);
}

TEST(Injection, ParsesMicrosecondsAndPercent) {
  std::string error;
  auto a = parse_injection("host:1us", &error);
  ASSERT_TRUE(a) << error;
  EXPECT_EQ(a->kind, Injection::Kind::host);
  EXPECT_DOUBLE_EQ(a->seconds_for("x", 5e-6), 1e-6);
  EXPECT_EQ(a->describe(), "host +1 us");
  auto b = parse_injection("gpu:10%", &error);
  ASSERT_TRUE(b) << error;
  EXPECT_DOUBLE_EQ(b->seconds_for("x", 20e-6), 2e-6);
  EXPECT_EQ(b->describe(), "gpu +10%");
  auto c = parse_injection("host:2.5", &error);
  ASSERT_TRUE(c) << error;
  EXPECT_DOUBLE_EQ(c->amount, 2.5);
  for (const char* bad : {"", "host", "host:", "gpu:0", "gpu:-3us", "cpu:1us", "host:1ms"})
    EXPECT_FALSE(parse_injection(bad, &error)) << bad;
}

TEST(Injection, OnlyTheChosenBenchmarksPay) {
  std::string error;
  auto inj = parse_injection("host:3us", &error);
  ASSERT_TRUE(inj) << error;
  inj->filter = "DeviceSync";
  EXPECT_DOUBLE_EQ(inj->seconds_for("NullKernel/DeviceSync", 1e-5), 3e-6);
  EXPECT_DOUBLE_EQ(inj->seconds_for("NullKernel/Async", 1e-5), 0.0);
  EXPECT_DOUBLE_EQ(Injection{}.seconds_for("NullKernel/DeviceSync", 1e-5), 0.0);
}

}  // namespace
}  // namespace sync_bench
