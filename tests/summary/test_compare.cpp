// compare's gate on one pair of runs: each verdict on the hand-made fixtures
// (make_compare_fixtures.py says which is which), the U test p-values scipy gives for them, the
// noise and threshold rules, failures and bad input, what is not gated, and the document's lines.
// The host-speed adjustment is in test_compare_host.cpp, what differs between machines in
// test_compare_machines.cpp.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "compare.hpp"
#include "compare_helpers.hpp"
#include "errors.hpp"
#include "gb_builder.hpp"
#include "gb_json.hpp"
#include "merge.hpp"
#include "run_info.hpp"
#include "statistics.hpp"
#include "test_util.hpp"

namespace sync_summary {
namespace {

using test::document_line;
using test::document_says;
using test::load;
using test::made;
using test::nine;
using test::row;
using test::Runs;
using test::standard_error;

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
  auto document = [](const RunData& base, const RunData& next) {
    return compare_document(compare_runs(base, next, {}), base, next, {});
  };
  const RunData old_build = measured_by(
      "old", {{"sync_bench_version", "0.1.0"}, {"sync_bench_source", "aaaaaaaaaaaaaaaa"}});
  const RunData new_build = measured_by(
      "new", {{"sync_bench_version", "0.1.0"}, {"sync_bench_source", "bbbbbbbbbbbbbbbb"}});
  const RunData no_source = measured_by("before", {{"sync_bench_version", "0.1.0"}});

  const Document differ = document(old_build, new_build);
  EXPECT_TRUE(document_says(differ, "BASE: old (old.json): "));
  EXPECT_TRUE(document_says(differ,
                            "wait mode spin, sync_bench 0.1.0 (source aaaaaaaaaaaaaaaa, "
                            "scripts/source_hash.sh)"));
  EXPECT_TRUE(
      document_says(differ, "sync_bench 0.1.0 (source bbbbbbbbbbbbbbbb, scripts/source_hash.sh)"));
  EXPECT_TRUE(document_says(differ,
                            "NOTE: BASE and NEW were measured by different sync_bench sources "
                            "(aaaaaaaaaaaaaaaa and bbbbbbbbbbbbbbbb)"));

  EXPECT_FALSE(document_says(document(new_build, new_build), "NOTE: BASE and NEW"));
  const Document unknown = document(no_source, new_build);
  EXPECT_FALSE(document_says(unknown, "NOTE: BASE and NEW"));
  const std::string before = document_line(unknown, "BASE: before (before.json): ");
  EXPECT_TRUE(test::contains(before, ", sync_bench 0.1.0")) << before;
  EXPECT_FALSE(test::contains(before, "(source ")) << before;
  EXPECT_TRUE(
      document_says(document(measured_by("older", {}), new_build), "wait mode spin, sync_bench ?"));
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

// compare shows the two runs' walls over the benchmarks both carry wall_s for, and gates nothing on
// them: a NEW twice as slow to run is no regression.
TEST(Compare, WallTimeIsShownNotGated) {
  auto with_wall = [](test::FakeBench b, double wall) {
    b.counters["wall_s"] = std::vector<double>(b.times.size(), wall);
    return b;
  };
  const std::string id = "NullKernel/DeviceSync", other = "BigGemm/Async/bf16/cublas/n:8192";
  const Runs r = made({with_wall(test::paired(id, nine(5.0)), 0.5),
                       with_wall(test::unpaired(other, nine(900.0), 1.0), 1.5)},
                      {with_wall(test::paired(id, nine(5.0)), 1.0),
                       test::unpaired(other, nine(900.0), 1.0)});  // NEW's BigGemm: no wall_s
  const CompareResult res = compare_runs(r.base, r.next, {});
  EXPECT_EQ(res.regressions, 0u);
  const Document doc = compare_document(res, r.base, r.next, {});
  EXPECT_EQ(document_line(doc, "wall time"),
            "wall time (wall_s, the median of each benchmark's repetitions; shown, not gated): "
            "BASE 0.5 s, NEW 1.0 s (+100.0%) over the 1 benchmarks both carry it for (of 2 in "
            "both).");
  // Runs from before the counter: no line.
  const Runs old = made({test::paired(id, nine(5.0))}, {test::paired(id, nine(5.0))});
  EXPECT_FALSE(document_says(
      compare_document(compare_runs(old.base, old.next, {}), old.base, old.next, {}), "wall time"));
}

}  // namespace
}  // namespace sync_summary
