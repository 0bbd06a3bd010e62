// The rule test_fidelity judges each comparison by (sync_bench's step against a hand-written loop,
// with or without an injected cost), kept apart from the GPU code so a CPU test can check it.
#pragma once

#include <cmath>

namespace sync_bench::test {

// The cost the injected runs add, in % of the step: what the verdict must catch.
constexpr double kInjectedPercent = 10.0;
// The verdict's threshold: halfway between "the harness adds nothing" and "it adds the injected
// cost". On an H100 (2026-11-22; docs/validation.md, Fidelity) the clean medians were within 3.7%
// over 40 comparisons, the injected ones at +5.3% or more: a 10% GPU cost on a power-capped GEMM
// shows as +5-10%, the spin lets the clock recover.
constexpr double kThresholdPercent = kInjectedPercent / 2;

// The median of the per-round differences (% of the hand loop) and the half-width of its 95%
// interval (from the MAD: a round or two slowed by the shared host do not widen it).
struct MedianDifference {
  double diff_pct = 0.0;
  double spread_pct = 0.0;

  bool agrees() const { return std::abs(diff_pct) < kThresholdPercent; }
  // The interval holds the threshold (its ends included): more rounds could move the verdict
  // either way.
  bool undecided() const { return std::abs(std::abs(diff_pct) - kThresholdPercent) <= spread_pct; }
  // The verdict can be trusted: its interval lies wholly on one side of the threshold, or, when it
  // still holds the threshold after every round, it is narrower than the threshold, so the point
  // estimate tells "adds nothing" from "adds the injected cost". A wide interval wholly beyond the
  // threshold is a clear detection: a host that changed speed during the test (14.6% +- 5.9%
  // injected, results/h200/acceptance6/call3) widens the interval, not the verdict. It can never
  // make an agreement decidable that was not: an agreeing interval that excludes the threshold is
  // narrower than it.
  bool decidable() const { return !undecided() || spread_pct < kThresholdPercent; }
};

}  // namespace sync_bench::test
