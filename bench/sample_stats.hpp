#pragma once
// Robust statistics of a benchmark's samples (per-step times of its batches, per-round
// differences): the median and quartiles, and a distribution-free confidence interval of the
// median. A 20 ms hiccup moves none of them, where it moves a mean.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace sync_bench {

// The q-quantile (0 <= q <= 1) with linear interpolation between order statistics (numpy's
// default); NaN for no samples.
inline double quantile(std::vector<double> v, double q) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

inline double median(const std::vector<double>& v) {
  return quantile(v, 0.5);
}

inline double minimum(const std::vector<double>& v) {
  return v.empty() ? std::numeric_limits<double>::quiet_NaN()
                   : *std::min_element(v.begin(), v.end());
}

// Half the width of the ~95% confidence interval of the median, from order statistics: the
// ranks n/2 -+ 0.98 sqrt(n) (the normal approximation of the binomial). Needs no assumption about
// the distribution, which for batch times is skewed (a slow batch, never a fast one). Infinite
// with fewer than 3 samples: no interval can be claimed.
inline double median_ci_half_width(std::vector<double> v) {
  const std::size_t n = v.size();
  if (n < 3) return std::numeric_limits<double>::infinity();
  std::sort(v.begin(), v.end());
  const double spread = 0.98 * std::sqrt(static_cast<double>(n));
  const double lo_rank = std::floor(n / 2.0 - spread);  // 1-based ranks
  const double hi_rank = std::ceil(n / 2.0 + spread) + 1.0;
  const auto lo = static_cast<std::size_t>(std::max(1.0, lo_rank)) - 1;
  const auto hi = static_cast<std::size_t>(std::min(static_cast<double>(n), hi_rank)) - 1;
  return (v[hi] - v[lo]) / 2.0;
}

// Half the width of a ~95% interval of the median from the median absolute deviation: 1.96 x the
// median's asymptotic standard error (1.253 sigma / sqrt(n)), sigma estimated as 1.4826 MAD. Unlike
// the order-statistic interval, a few wild samples among 20 or 30 do not widen it. Infinite with
// fewer than 3 samples.
inline double median_mad_half_width(const std::vector<double>& v) {
  if (v.size() < 3) return std::numeric_limits<double>::infinity();
  const double m = median(v);
  std::vector<double> deviation;
  for (double x : v) deviation.push_back(std::abs(x - m));
  return 1.96 * 1.253 * 1.4826 * median(deviation) / std::sqrt(static_cast<double>(v.size()));
}

}  // namespace sync_bench
