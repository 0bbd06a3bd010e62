#include "statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

namespace sync_summary {

namespace {

bool any_nan(const std::vector<double>& v) {
  return std::any_of(v.begin(), v.end(), [](double x) { return std::isnan(x); });
}

// Halfway between two values without overflowing where both are near the largest double (their
// sum would be inf).
double halfway(double a, double b) {
  return a / 2.0 + b / 2.0;
}

}  // namespace

double median(std::vector<double> v) {
  // NaN breaks the strict weak order nth_element needs: no median of a sample holding one.
  if (v.empty() || any_nan(v)) return kNaN;
  if (v.size() <= 2) return halfway(v.front(), v.back());
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return halfway(lower, upper);
}

Spread describe(const std::vector<double>& v) {
  Spread s;
  s.n = v.size();
  if (v.empty() || any_nan(v)) return s;  // every statistic NaN: nothing to order or add
  s.median = median(v);
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

double robust_sigma(const std::vector<double>& v) {
  if (v.size() < 2 || any_nan(v)) return kNaN;
  if (v.size() == 2) return std::abs(v[0] - v[1]) / std::sqrt(2.0);  // the sample stddev
  const double m = median(v);
  std::vector<double> dev;
  dev.reserve(v.size());
  for (double x : v) dev.push_back(std::abs(x - m));
  return 1.4826 * median(std::move(dev));
}

namespace {

// The slopes between every two points of the same group (pairs with equal x skipped); nullopt
// when a value is NaN or a group's x and y differ in size.
std::optional<std::vector<double>> pairwise_slopes(const std::vector<Points>& groups) {
  std::vector<double> slopes;
  for (const Points& g : groups) {
    if (g.x.size() != g.y.size() || any_nan(g.x) || any_nan(g.y)) return std::nullopt;
    for (std::size_t i = 0; i < g.x.size(); ++i)
      for (std::size_t j = i + 1; j < g.x.size(); ++j)
        if (g.x[j] != g.x[i]) slopes.push_back((g.y[j] - g.y[i]) / (g.x[j] - g.x[i]));
  }
  return slopes;
}

// Kendall's S under independence, summed over the groups: its variance, sum n(n-1)(2n+5)/18.
double kendall_variance(const std::vector<Points>& groups) {
  double variance = 0.0;
  for (const Points& g : groups) {
    const auto n = static_cast<double>(g.x.size());
    variance += n * (n - 1.0) * (2.0 * n + 5.0) / 18.0;
  }
  return variance;
}

}  // namespace

double within_group_slope(const std::vector<Points>& groups) {
  auto slopes = pairwise_slopes(groups);
  return !slopes || slopes->empty() ? kNaN : median(std::move(*slopes));
}

SlopeInterval within_group_slope_interval(const std::vector<Points>& groups, double z) {
  auto slopes = pairwise_slopes(groups);
  if (!slopes || slopes->empty()) return {kNaN, kNaN};
  std::sort(slopes->begin(), slopes->end());
  const double n = static_cast<double>(slopes->size());
  const double c = z * std::sqrt(kendall_variance(groups));
  // Ranks 1-based, as Sen gives them; clipped to the list.
  const auto at = [&](double rank) {
    const double r = std::clamp(std::round(rank), 1.0, n);
    return (*slopes)[static_cast<std::size_t>(r) - 1];
  };
  return {at((n - c) / 2.0), at((n + c) / 2.0 + 1.0)};
}

namespace {

// The slopes in (low, high) at which the k-th smallest (from 0) of the lines a_i + m_i s passes
// from one line to another, appended to bends. It walks the level: the line on it bends off where
// another line crosses it, at the nearest such s, and the level goes on along the line that
// crossed. Where several lines cross there at once, the level keeps its rank among them: the lines
// through one point, ordered by slope, reverse their order there. A level bends at most once per
// pair of lines.
void level_bends(const std::vector<double>& a, const std::vector<double>& m, std::size_t k,
                 double low, double high, std::vector<double>& bends) {
  const std::size_t n = a.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  // The line at level k just after low: ties in value go to the smaller slope, lower after it.
  std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                   [&](std::size_t i, std::size_t j) {
                     const double vi = a[i] + m[i] * low, vj = a[j] + m[j] * low;
                     return vi != vj ? vi < vj : m[i] < m[j];
                   });
  std::size_t on = order[k];
  double s = low;
  std::vector<double> crossing(n);  // where each line crosses the level's line (NaN: parallel)
  std::vector<std::size_t> through;
  for (std::size_t step = 0; step < n * (n - 1) / 2; ++step) {
    double next = high;
    for (std::size_t i = 0; i < n; ++i) {
      crossing[i] = m[i] == m[on] ? kNaN : (a[on] - a[i]) / (m[i] - m[on]);
      if (crossing[i] > s && crossing[i] < next) next = crossing[i];
    }
    if (!(next < high)) return;
    bends.push_back(next);
    // The lines through the crossing, the level's line among them, by slope from high to low:
    // their order just before it. Just after, the order is reversed.
    through.assign(1, on);
    const double tolerance = 1e-12 * std::max(1.0, std::abs(next));
    for (std::size_t i = 0; i < n; ++i)
      if (std::abs(crossing[i] - next) <= tolerance) through.push_back(i);
    std::sort(through.begin(), through.end(),
              [&](std::size_t i, std::size_t j) { return m[i] > m[j]; });
    const auto rank =
        static_cast<std::size_t>(std::find(through.begin(), through.end(), on) - through.begin());
    on = through[through.size() - 1 - rank];
    s = next;
  }
}

}  // namespace

double moved_median(const Points& p, double reference, double s) {
  std::vector<double> v = p.y;
  for (std::size_t i = 0; i < v.size(); ++i) v[i] -= s * (p.x[i] - reference);
  return median(std::move(v));
}

std::vector<double> moved_median_bends(const Points& p, double reference, double low, double high) {
  std::vector<double> bends;
  const std::size_t n = p.x.size();
  if (n == 0 || p.y.size() != n || any_nan(p.x) || any_nan(p.y) || !(low < high)) return bends;
  // Repetition i moved along s: y_i - s (x_i - reference), a line of intercept y_i and slope
  // reference - x_i. The median is the middle line's level, or halfway between the two middle
  // ones' (median() above).
  std::vector<double> slope(n);
  for (std::size_t i = 0; i < n; ++i) slope[i] = reference - p.x[i];
  level_bends(p.y, slope, n / 2, low, high, bends);
  if (n % 2 == 0) level_bends(p.y, slope, n / 2 - 1, low, high, bends);
  std::sort(bends.begin(), bends.end());
  bends.erase(std::unique(bends.begin(), bends.end()), bends.end());
  return bends;
}

double within_group_kendall_z(const std::vector<Points>& groups) {
  double s = 0.0;
  for (const Points& g : groups) {
    if (g.x.size() != g.y.size() || any_nan(g.x) || any_nan(g.y)) return kNaN;
    for (std::size_t i = 0; i < g.x.size(); ++i)
      for (std::size_t j = i + 1; j < g.x.size(); ++j) {
        const double dx = g.x[j] - g.x[i], dy = g.y[j] - g.y[i];
        if (dx != 0.0 && dy != 0.0) s += (dx > 0.0) == (dy > 0.0) ? 1.0 : -1.0;
      }
  }
  const double variance = kendall_variance(groups);
  return variance > 0.0 ? s / std::sqrt(variance) : kNaN;
}

double unreached_distance(std::vector<double> a, std::vector<double> b, std::size_t reach) {
  if (reach == 0 || a.size() < reach || b.size() < reach || any_nan(a) || any_nan(b)) return kNaN;
  double from = median(a), to = median(b);
  if (to < from) {  // mirror, so that b lies above a
    for (double& v : a) v = -v;
    for (double& v : b) v = -v;
    from = -from;
    to = -to;
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const double a_reaches = a[a.size() - reach];  // the reach-th largest of a
  const double b_reaches = b[reach - 1];         // the reach-th smallest of b
  return std::max(0.0, std::min(to, b_reaches) - std::max(from, a_reaches));
}

bool has_two_groups(std::vector<double> v, double min_gap) {
  if (any_nan(v)) return false;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  // Two, and a twentieth: in a BASE merged from several machines the share in each group is the
  // share of machines drawn with each host speed (4 of 50 processes, results/h200/runners/).
  const std::size_t least = std::max<std::size_t>(2, (n + 19) / 20);
  for (std::size_t k = least; k + least <= n; ++k) {
    const double gap = v[k] - v[k - 1];
    if (gap <= min_gap) continue;
    const std::vector<double> lower(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k));
    const std::vector<double> upper(v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    if (gap > 3.0 * std::max(robust_sigma(lower), robust_sigma(upper))) return true;
  }
  return false;
}

namespace {

// P(|T| <= t) for integer df, by the finite series of Abramowitz and Stegun 26.7.3 (odd df) and
// 26.7.4 (even df), in theta = atan(t / sqrt(df)).
double t_central_probability(double t, int df) {
  const double theta = std::atan(t / std::sqrt(static_cast<double>(df)));
  const double s = std::sin(theta), c = std::cos(theta);
  if (df % 2 == 0) {
    double term = 1.0, sum = 1.0;
    for (int k = 2; k <= df - 2; k += 2) {
      term *= c * c * (k - 1) / k;
      sum += term;
    }
    return s * sum;
  }
  double sum = 0.0;
  if (df > 1) {
    double term = c;
    sum = c;
    for (int k = 3; k <= df - 2; k += 2) {
      term *= c * c * (k - 1) / k;
      sum += term;
    }
  }
  constexpr double kPi = 3.14159265358979323846;
  return 2.0 / kPi * (theta + s * sum);
}

}  // namespace

double student_t_quantile(double alpha, int df) {
  if (df < 1 || !(alpha > 0.0 && alpha < 1.0)) return kNaN;
  // Bisection: the probability rises with t; 200 halvings reach the last bit of a double.
  double lo = 0.0, hi = 1.0;
  while (t_central_probability(hi, df) < 1.0 - alpha && hi < 1e300) hi *= 2.0;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = (lo + hi) / 2.0;
    (t_central_probability(mid, df) < 1.0 - alpha ? lo : hi) = mid;
  }
  return (lo + hi) / 2.0;
}

double relative_change(double old_value, double new_value) {
  if (old_value == 0.0 && new_value == 0.0) return 0.0;
  if (old_value == 0.0) return (new_value - old_value) / ((old_value + new_value) / 2.0);
  return (new_value - old_value) / std::abs(old_value);
}

}  // namespace sync_summary
