#pragma once
// Summary statistics of a benchmark's repetitions.

#include <cstddef>
#include <limits>
#include <vector>

namespace sync_summary {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Spread {
  std::size_t n = 0;
  double median = kNaN;
  double mean = kNaN;
  double min = kNaN;
  double max = kNaN;
  double stddev = kNaN;  // sample standard deviation (n - 1), as Google Benchmark computes it
  double cv = kNaN;      // stddev / mean, a fraction; NaN below two values or for mean 0
};

// A sample holding a NaN has no median and no spread: NaN (n still counts it).
double median(std::vector<double> values);
Spread describe(const std::vector<double>& values);

// A spread that one wild value cannot inflate: MAD * 1.4826 (the standard deviation for normal
// data) from three values on; for two, their sample standard deviation; NaN below two or with a
// NaN.
double robust_sigma(const std::vector<double>& values);

// The slope of y on x that one wild point cannot tilt: the Theil-Sen estimator, the median of the
// slopes between every two points of the same group (points of different groups are never paired,
// so a shift between groups does not enter the slope). Pairs with equal x are skipped. NaN when no
// pair is left or a value is NaN. x and y of a group must have the same size.
struct Points {
  std::vector<double> x, y;
};
double within_group_slope(const std::vector<Points>& groups);

// Sen's confidence interval for that slope: of the N slopes sorted, the ones at ranks (N - C) / 2
// and (N + C) / 2 + 1, with C = z x sqrt(sum n(n-1)(2n+5)/18) over the groups (Kendall's S under
// independence); the slopes are clipped to the ends of the list. NaNs as within_group_slope.
struct SlopeInterval {
  double low, high;
};
SlopeInterval within_group_slope_interval(const std::vector<Points>& groups, double z);

// The median of a run's repetitions, each moved along slope s to the reference: y - s (x -
// reference), as compare's host adjustment moves them. x and y of the same size.
double moved_median(const Points& p, double reference, double s);

// Where moved_median bends as s runs over (low, high): the slopes at which it passes from one
// repetition to another, in increasing order. Between them it is linear in s. Empty when x and y
// differ in size, are empty or hold a NaN.
std::vector<double> moved_median_bends(const Points& p, double reference, double low, double high);

// How far y falls (negative) or rises with x, as a z-score: Kendall's S (concordant less discordant
// pairs) summed over the pairs of the same group, over its standard deviation under independence,
// sqrt(sum n(n-1)(2n+5)/18) over the groups. Pairs tied in x or y count for neither side. NaN when
// no group has two points or a value is NaN.
double within_group_kendall_z(const std::vector<Points>& groups);

// Whether the values fall in two groups apart: sorted, some split leaves at least two of them and
// a twentieth on each side, with a gap between the groups wider than min_gap and than three robust
// sigmas of either group. Processes of one benchmark do this when a host path has two speeds (a
// wake-up that does or does not find the CPU awake): the median then jumps between the groups
// with how many processes landed in each, and a spread taken around the median (the MAD) misses
// the gap when most landed in one. A skewed sample (a tail of slow processes) has no such gap.
bool has_two_groups(std::vector<double> values, double min_gap);

// How far apart two samples of a regressor lie where neither reaches: from a's median towards b's,
// the stretch between the two that no `reach` values of a and no `reach` values of b lie in
// (beyond a's reach-th value from that end and short of b's), clipped to the two medians. 0 when
// either sample reaches the other's median with `reach` values, or the medians are equal. NaN
// when a sample is shorter than reach or holds a NaN.
double unreached_distance(std::vector<double> a, std::vector<double> b, std::size_t reach);

// The two-sided quantile of Student's t with df degrees of freedom: the t with P(|T| <= t) =
// 1 - alpha. df >= 1, 0 < alpha < 1; NaN else. (The width of a prediction interval from df + 1
// values: how far the next one may land from their mean, in their standard deviations.)
double student_t_quantile(double alpha, int df);

// Relative change as Google Benchmark's report.py calculate_change: (new - old) / |old|, with
// old == 0 guarded (0 when both are 0, else (new - old) / mean(old, new)). A fraction.
double relative_change(double old_value, double new_value);

}  // namespace sync_summary
