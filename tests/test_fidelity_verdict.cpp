// test_fidelity's decision rule (fidelity_verdict.hpp), on the numbers its runs printed.
#include <gtest/gtest.h>

#include "fidelity_verdict.hpp"

namespace sync_bench::test {
namespace {

MedianDifference diff(double pct, double spread) {
  MedianDifference d;
  d.diff_pct = pct;
  d.spread_pct = spread;
  return d;
}

TEST(FidelityVerdict, ANarrowIntervalNearZeroAgrees) {
  const auto d = diff(-1.4, 2.3);  // acceptance6/call3: SmallGemm/Async, nothing injected
  EXPECT_FALSE(d.undecided());
  EXPECT_TRUE(d.decidable());
  EXPECT_TRUE(d.agrees());
}

TEST(FidelityVerdict, AWideIntervalWhollyBeyondTheThresholdIsACaughtCost) {
  // acceptance6/call3: 10% host cost injected into SmallGemm/Async, the host's speed changed
  // during the test. The interval, 8.7% to 20.5%, is far above the 5% line.
  for (const double sign : {1.0, -1.0}) {
    const auto d = diff(sign * 14.6, 5.9);
    EXPECT_FALSE(d.undecided());
    EXPECT_TRUE(d.decidable());
    EXPECT_FALSE(d.agrees());
  }
}

TEST(FidelityVerdict, AWideIntervalThatHoldsTheThresholdIsTooNoisy) {
  for (const double pct : {0.0, 3.0, 5.0, 7.0, -3.0}) {
    const auto d = diff(pct, 5.5);
    EXPECT_TRUE(d.undecided()) << pct;
    EXPECT_FALSE(d.decidable()) << pct;
  }
}

TEST(FidelityVerdict, ANarrowIntervalThatHoldsTheThresholdDecidesOnItsMedian) {
  // After every round: the median is known well enough to tell 0% from the injected 10%.
  const auto near = diff(4.0, 2.0);
  EXPECT_TRUE(near.undecided());
  EXPECT_TRUE(near.decidable());
  EXPECT_TRUE(near.agrees());
  const auto beyond = diff(6.0, 2.0);
  EXPECT_TRUE(beyond.decidable());
  EXPECT_FALSE(beyond.agrees());
}

TEST(FidelityVerdict, NoAgreementIsDecidableWithAnIntervalAsWideAsTheThreshold) {
  // The rule may only decide more injected costs, never pass a clean comparison on a wide
  // interval.
  constexpr int kSteps = 4;  // a step of 0.25%, counted in integers
  const int injected = static_cast<int>(kSteps * kInjectedPercent);
  const int threshold = static_cast<int>(kSteps * kThresholdPercent);
  for (int p = -injected; p <= injected; ++p)
    for (int s = threshold; s <= 3 * threshold; ++s) {
      const double pct = static_cast<double>(p) / kSteps, spread = static_cast<double>(s) / kSteps;
      const auto d = diff(pct, spread);
      EXPECT_FALSE(d.agrees() && d.decidable()) << pct << " +- " << spread;
    }
}

}  // namespace
}  // namespace sync_bench::test
