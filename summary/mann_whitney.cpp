#include "mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace sync_summary {

double mwu_p_exact(double u1, int n1, int n2) {
  // m: the smaller sample. count[j][u]: orderings of j values of that sample among the other
  // sample's values seen so far that give statistic u; adding one value of the other sample at a
  // time (Mann and Whitney's recursion).
  const int m = std::min(n1, n2);
  const int n = std::max(n1, n2);
  const int max_u = m * n;
  std::vector<std::vector<long double>> count(static_cast<std::size_t>(m) + 1,
                                              std::vector<long double>(max_u + 1, 0.0L));
  for (auto& row : count) row[0] = 1.0L;  // no value of the other sample yet: U = 0
  for (int k = 1; k <= n; ++k) {
    // Orderings ending with a value of the small sample gain k (all k others precede it).
    for (int j = 1; j <= m; ++j) {
      for (int u = j * k; u >= k; --u) count[j][u] += count[j - 1][u - k];
    }
  }
  const auto& dist = count[m];
  const long double total = std::accumulate(dist.begin(), dist.end(), 0.0L);
  const double u_big = std::max(u1, static_cast<double>(max_u) - u1);
  const int from = static_cast<int>(std::ceil(u_big - 1e-9));
  long double tail = 0.0L;
  for (int u = std::max(from, 0); u <= max_u; ++u) tail += dist[u];
  return std::clamp(static_cast<double>(2.0L * tail / total), 0.0, 1.0);
}

double mwu_p_asymptotic(double u1, int n1, int n2, double tie_term) {
  const double mu = n1 * static_cast<double>(n2) / 2.0;
  const double u = std::max(u1, 2.0 * mu - u1);
  const double n = static_cast<double>(n1) + n2;
  const double sigma =
      std::sqrt(n1 * static_cast<double>(n2) / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0))));
  const double z = (u - mu - 0.5) / sigma;  // continuity correction: toward the mean
  if (std::isnan(z)) return 1.0;            // one value in all (n = 1 + 1 and a tie)
  // 2 * Phi(-z) = erfc(z / sqrt(2)); z = -inf (sigma = 0) gives 2, clipped.
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

double mwu_smallest_p(int n1, int n2) {
  double arrangements = 1.0;  // C(n1+n2, n1), built as a product of ratios
  for (int k = 1; k <= n2; ++k) arrangements *= static_cast<double>(n1 + k) / k;
  return std::min(1.0, 2.0 / arrangements);
}

UTest mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y) {
  const int n1 = static_cast<int>(x.size());
  const int n2 = static_cast<int>(y.size());
  // A non-finite value has no rank (NaN compares false to everything, so sorting and grouping
  // ties on it never ends): no test, p = NaN, which no alpha calls significant.
  const auto finite = [](double v) { return std::isfinite(v); };
  if (n1 == 0 || n2 == 0 || !std::all_of(x.begin(), x.end(), finite) ||
      !std::all_of(y.begin(), y.end(), finite)) {
    UTest none;
    none.u1 = std::numeric_limits<double>::quiet_NaN();
    none.p = std::numeric_limits<double>::quiet_NaN();
    none.method = UMethod::asymptotic;
    return none;
  }
  // Average ranks of the pooled sample, and the tie term sum(t^3 - t) over groups of ties.
  std::vector<std::pair<double, bool>> pooled;  // value, from x
  pooled.reserve(x.size() + y.size());
  for (double v : x) pooled.emplace_back(v, true);
  for (double v : y) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  double rank_sum_x = 0.0;
  double tie_term = 0.0;
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i + 1;  // a group holds at least its first value: the loop always advances
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double avg_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    for (std::size_t k = i; k < j; ++k) {
      if (pooled[k].second) rank_sum_x += avg_rank;
    }
    tie_term += t * t * t - t;
    i = j;
  }
  UTest r;
  r.u1 = rank_sum_x - n1 * (n1 + 1.0) / 2.0;
  const bool ties = tie_term > 0.0;
  const double work = static_cast<double>(n1) * n1 * n2 * n2;
  const bool exact = !(n1 > 8 && n2 > 8) && !ties && work <= kMaxExactWork;
  r.method = exact ? UMethod::exact : UMethod::asymptotic;
  r.p = exact ? mwu_p_exact(r.u1, n1, n2) : mwu_p_asymptotic(r.u1, n1, n2, tie_term);
  return r;
}

}  // namespace sync_summary
