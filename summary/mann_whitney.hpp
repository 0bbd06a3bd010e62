#pragma once
// Two-sided Mann-Whitney U test, as Google Benchmark's tools/gbench/report.py runs it:
// scipy.stats.mannwhitneyu(x, y, alternative='two-sided') with scipy's defaults
// (use_continuity=True, method='auto'); checked against scipy 1.17.1. With U1 the statistic of x
// (ranks averaged over ties), U = max(U1, n1*n2 - U1), 'auto' chooses:
//   - 'exact' when a sample has at most 8 values and there are no ties: p = 2 * P(U' >= U) under
//     the exact null distribution of U', clipped to 1;
//   - 'asymptotic' otherwise (both samples above 8 values, or ties): the normal approximation
//     with tie correction and continuity correction, z = (U - n1*n2/2 - 0.5) / sigma with
//     sigma^2 = n1*n2/12 * ((n+1) - sum(t^3 - t) / (n*(n-1))) over groups of t tied values,
//     p = 2 * Phi(-z), clipped to 1 (so 1 when every value is the same).
// One deviation: above kMaxExactWork the exact distribution is not built and the asymptotic
// p-value is returned instead (scipy would go on computing); sync_bench runs never get there.

#include <vector>

namespace sync_summary {

enum class UMethod { exact, asymptotic };

struct UTest {
  double u1 = 0.0;  // U statistic of the first sample (scipy's "statistic")
  double p = 0.0;   // two-sided p-value
  UMethod method = UMethod::exact;
};

// Both samples need at least one value, all finite; otherwise no test runs: u1 and p are NaN
// (never significant).
UTest mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y);

// The two p-value methods on their own (for tests and for the choice above).
double mwu_p_exact(double u1, int n1, int n2);
double mwu_p_asymptotic(double u1, int n1, int n2, double tie_term);

// The smallest two-sided p-value any n1 and n2 values can give, with the samples wholly apart:
// 2 / C(n1+n2, n1), clipped to 1 (0.33 at 2 against 2, 0.10 at 3 against 3, 0.029 at 4 against 4).
// Where it is not below alpha, no difference can ever be significant.
double mwu_smallest_p(int n1, int n2);

inline constexpr double kMaxExactWork = 2e8;  // n1^2 * n2^2 steps of the exact recursion

}  // namespace sync_summary
