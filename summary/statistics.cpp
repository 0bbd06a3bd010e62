#include "statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace sync_summary {

double median(std::vector<double> v) {
  if (v.empty()) return kNaN;
  if (v.size() <= 2) return (v.front() + v.back()) / 2.0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2.0;
}

Spread describe(const std::vector<double>& v) {
  Spread s;
  s.n = v.size();
  if (v.empty()) return s;
  s.median = v.size() <= 2 ? (v.front() + v.back()) / 2.0 : median(v);
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  s.min = *lo;
  s.max = *hi;
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  if (v.size() >= 2) {
    double sq = 0.0;
    for (double x : v) sq += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(sq / static_cast<double>(v.size() - 1));
    if (s.mean != 0.0) s.cv = s.stddev / s.mean;
  }
  return s;
}

double relative_change(double old_value, double new_value) {
  if (old_value == 0.0 && new_value == 0.0) return 0.0;
  if (old_value == 0.0) return (new_value - old_value) / ((old_value + new_value) / 2.0);
  return (new_value - old_value) / std::abs(old_value);
}

}  // namespace sync_summary
