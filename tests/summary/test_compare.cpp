// compare: each verdict on the hand-made fixtures (make_compare_fixtures.py says which is
// which), the U test p-values scipy gives for them, machine warnings, one-sided lists.

#include <gtest/gtest.h>

#include "compare.hpp"
#include "gb_json.hpp"
#include "run_info.hpp"
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

const Comparison& row(const CompareResult& res, const std::string& identity) {
  for (const auto& c : res.rows)
    if (c.identity == identity) return c;
  throw std::runtime_error("not compared: " + identity);
}

TEST(Compare, VerdictsOnHandMadeRuns) {
  const Runs r = load("compare_base.json", "compare_new.json");
  const CompareResult res = compare_runs(r.base, r.next, CompareOptions{});
  EXPECT_EQ(res.rows.size(), 7u);
  EXPECT_EQ(res.regressions, 4u);
  EXPECT_EQ(res.improvements, 1u);

  const Comparison& reg = row(res, "SmallGemm/DeviceSync/fp16/cublas/n:512");
  EXPECT_EQ(reg.verdict, Verdict::regression);
  EXPECT_NEAR(reg.change, 0.1, 1e-12);
  ASSERT_TRUE(reg.has_utest);
  EXPECT_EQ(reg.utest.method, UMethod::exact);
  EXPECT_NEAR(reg.utest.p, 0.007936507936507936, 1e-12);  // scipy 1.17.1, see test_mann_whitney

  EXPECT_EQ(row(res, "SmallGemm/Async/fp16/cublas/n:512").verdict, Verdict::unchanged);
  const Comparison& noisy = row(res, "NullKernel/DeviceSync");
  EXPECT_EQ(noisy.verdict, Verdict::not_significant);
  EXPECT_NEAR(noisy.utest.p, 0.39761475195653073, 1e-12);
  const Comparison& ties = row(res, "NullKernel/EventSync");
  EXPECT_EQ(ties.verdict, Verdict::regression);
  EXPECT_EQ(ties.utest.method, UMethod::asymptotic);
  EXPECT_NEAR(ties.utest.p, 0.026888454103745775, 1e-12);
  EXPECT_EQ(row(res, "NullKernel/StreamSync").verdict, Verdict::improvement);
  const Comparison& single = row(res, "GraphReplay/Replay/k:4");
  EXPECT_FALSE(single.has_utest);
  EXPECT_EQ(single.verdict, Verdict::regression);  // threshold alone without repetitions
  EXPECT_DOUBLE_EQ(row(res, "Alloc/Async/bytes:0").change, 2.0);  // old == 0 guarded
  EXPECT_TRUE(res.few_repetitions);

  EXPECT_EQ(res.only_base, std::vector<std::string>{"NullKernel/Print"});
  EXPECT_EQ(res.only_new, std::vector<std::string>{"NullKernel/BulkRead/pinned"});
  ASSERT_EQ(res.not_compared.size(), 2u);
  EXPECT_EQ(res.not_compared[0].first, "SmallGemm/ScalarRead/pinned/fp16/cublas/n:512");
  EXPECT_EQ(res.not_compared[0].second, "error in NEW: cudaErrorLaunchFailure");
  EXPECT_EQ(res.not_compared[1].first, "HostCopy/D2H/pinned/bytes:4096");
  EXPECT_EQ(res.not_compared[1].second, "time unit differs: us vs ns");
  EXPECT_TRUE(res.context_warnings.empty());
}

TEST(Compare, ThresholdAndAlphaDecide) {
  const Runs r = load("compare_base.json", "compare_new.json");
  CompareOptions loose;
  loose.threshold_pct = 15.0;  // only the +20% and +200% changes exceed it
  EXPECT_EQ(compare_runs(r.base, r.next, loose).regressions, 2u);
  CompareOptions strict;
  strict.alpha = 0.005;  // no 5-vs-5 U test reaches it: only the runs without repetitions count
  EXPECT_EQ(compare_runs(r.base, r.next, strict).regressions, 2u);
  CompareOptions wide;
  wide.alpha = 0.5;  // now the noisy +10% counts too
  EXPECT_EQ(row(compare_runs(r.base, r.next, wide), "NullKernel/DeviceSync").verdict,
            Verdict::regression);
}

TEST(Compare, SameRunHasNoRegression) {
  const Runs r = load("gb171_reps.json", "gb171_reps.json");
  const CompareResult res = compare_runs(r.base, r.next, CompareOptions{});
  EXPECT_EQ(res.regressions, 0u);
  EXPECT_EQ(res.improvements, 0u);
  EXPECT_EQ(res.rows.size(), 70u);  // all but the errored fp8
  for (const auto& c : res.rows) {
    EXPECT_EQ(c.change, 0.0);
    EXPECT_DOUBLE_EQ(c.utest.p, 1.0);
  }
}

TEST(Compare, DifferentMachinesOrWaitModesWarn) {
  const Runs r = load("gb171_reps.json", "gb171_blocking.json");
  const CompareResult res = compare_runs(r.base, r.next, CompareOptions{});
  ASSERT_EQ(res.context_warnings.size(), 1u);
  EXPECT_EQ(res.context_warnings[0], "host_wait_mode: 'spin' vs 'blocking'");
  // The blocking run is 8% slower on every benchmark, 5 repetitions apart: all regressions.
  EXPECT_EQ(res.regressions, res.rows.size());
  const Runs g = load("gb171_run.json", "gb183_run.json");
  const CompareResult other = compare_runs(g.base, g.next, CompareOptions{});
  EXPECT_EQ(other.context_warnings.size(), 3u);  // gpu_name, runtime_version, host_wait_mode
  EXPECT_TRUE(other.rows.empty());
}

TEST(Compare, RatesRegressWhenTheyDrop) {
  EXPECT_TRUE(higher_is_better("bytes_per_second"));
  EXPECT_TRUE(higher_is_better("TFLOPS"));
  EXPECT_FALSE(higher_is_better("real_time"));
  EXPECT_FALSE(higher_is_better("host_us"));
  const Runs r = load("gb171_reps.json", "gb171_blocking.json");
  CompareOptions o;
  o.metric = "bytes_per_second";
  const CompareResult res = compare_runs(r.base, r.next, o);
  const Comparison& c = row(res, "HostCopy/D2H/pinned/memcpy_async/bytes:268435456");
  EXPECT_LT(c.change, -0.05);
  EXPECT_EQ(c.verdict, Verdict::regression);
}

}  // namespace
}  // namespace sync_summary
