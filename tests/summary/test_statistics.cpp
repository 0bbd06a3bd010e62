// Summary statistics and the change formula of report.py.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "statistics.hpp"

namespace sync_summary {
namespace {

TEST(Statistics, Median) {
  EXPECT_TRUE(std::isnan(median({})));
  EXPECT_DOUBLE_EQ(median({3.0}), 3.0);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0}), 2.5);
  EXPECT_DOUBLE_EQ(median({5.0, 1.0, 3.0}), 3.0);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_DOUBLE_EQ(median({9.0, 1.0, 8.0, 2.0, 7.0, 3.0}), 5.0);
  // Two values near the largest double: halfway between them, not their sum's inf over 2.
  EXPECT_DOUBLE_EQ(median({1e308, 1.5e308}), 1.25e308);
  EXPECT_DOUBLE_EQ(median({1e308, 1.5e308, 1.6e308, 1.7e308}), 1.55e308);
  EXPECT_DOUBLE_EQ(describe({1e308, 1.5e308}).median, 1.25e308);
}

TEST(Statistics, DescribeUsesSampleStddevLikeGoogleBenchmark) {
  // Values 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample variance 32/7.
  const Spread s = describe({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_EQ(s.n, 8u);
  EXPECT_DOUBLE_EQ(s.mean, 5.0);
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_DOUBLE_EQ(s.min, 2.0);
  EXPECT_DOUBLE_EQ(s.max, 9.0);
  EXPECT_NEAR(s.stddev, std::sqrt(32.0 / 7.0), 1e-12);
  EXPECT_NEAR(s.cv, std::sqrt(32.0 / 7.0) / 5.0, 1e-12);
}

TEST(Statistics, DescribeOneValueHasNoSpread) {
  const Spread s = describe({3.0});
  EXPECT_EQ(s.n, 1u);
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_TRUE(std::isnan(s.stddev));
  EXPECT_TRUE(std::isnan(s.cv));
  EXPECT_TRUE(std::isnan(describe({0.0, 0.0}).cv));  // mean 0: no CV
}

TEST(Statistics, RelativeChangeGuardsZero) {
  EXPECT_DOUBLE_EQ(relative_change(10.0, 11.0), 0.1);
  EXPECT_DOUBLE_EQ(relative_change(10.0, 5.0), -0.5);
  EXPECT_DOUBLE_EQ(relative_change(-10.0, -5.0), 0.5);  // divided by |old|
  EXPECT_DOUBLE_EQ(relative_change(0.0, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(relative_change(0.0, 0.5), 2.0);  // (new - old) / mean(old, new)
}

TEST(Statistics, NaNGivesNaNNotAHang) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(median({nan, 1.0, 2.0})));
  EXPECT_TRUE(std::isnan(median({1.0, nan})));
  const Spread s = describe({3.0, nan, 1.0, 2.0});
  EXPECT_EQ(s.n, 4u);
  EXPECT_TRUE(std::isnan(s.median));
  EXPECT_TRUE(std::isnan(s.min));
  EXPECT_TRUE(std::isnan(s.stddev));
}

TEST(Statistics, RobustSigma) {
  EXPECT_TRUE(std::isnan(robust_sigma({})));
  EXPECT_TRUE(std::isnan(robust_sigma({1.0})));
  EXPECT_DOUBLE_EQ(robust_sigma({1.0, 3.0}), 2.0 / std::sqrt(2.0));
  // median 10, deviations 0 1 1 2 50 -> MAD 1: the wild 60 does not count.
  EXPECT_DOUBLE_EQ(robust_sigma({10.0, 11.0, 9.0, 12.0, 60.0}), 1.4826);
  EXPECT_DOUBLE_EQ(robust_sigma({5.0, 5.0, 5.0}), 0.0);
  EXPECT_TRUE(std::isnan(robust_sigma({1.0, 2.0, std::numeric_limits<double>::quiet_NaN()})));
}

// Theil-Sen within groups: each group's points lie on a line of slope 2 with its own offset; the
// offset between groups must not enter the slope, and one wild point must not tilt it.
TEST(Statistics, WithinGroupSlope) {
  const Points a{{1, 2, 3, 4, 5}, {2, 4, 6, 8, 10}};
  const Points b{{1, 2, 3, 4}, {102, 104, 106, 200}};  // offset 100, one wild point
  EXPECT_DOUBLE_EQ(within_group_slope({a}), 2.0);
  EXPECT_DOUBLE_EQ(within_group_slope({a, b}), 2.0);
  const Points flat{{1, 1, 1}, {1, 2, 3}};  // equal x: no slope at all
  EXPECT_TRUE(std::isnan(within_group_slope({flat})));
  const Points nan{{1, 2}, {1, kNaN}};
  EXPECT_TRUE(std::isnan(within_group_slope({a, nan})));
  const Points uneven{{1, 2}, {1}};
  EXPECT_TRUE(std::isnan(within_group_slope({uneven})));
}

// Sen's interval: the six slopes of four points, sorted 0, 1, 1.5, 5/3, 2, 3; Kendall's sd for
// n = 4 is sqrt(4*3*13/18). z = 1: ranks (6 -+ 2.94) / 2 (+1) round to 2 and 5; z = 0 gives the
// two middle slopes; z = 1.96 runs past both ends, clipped.
TEST(Statistics, WithinGroupSlopeInterval) {
  const Points g{{1, 2, 3, 4}, {0, 2, 2, 5}};
  const SlopeInterval one = within_group_slope_interval({g}, 1.0);
  EXPECT_DOUBLE_EQ(one.low, 1.0);
  EXPECT_DOUBLE_EQ(one.high, 2.0);
  const SlopeInterval zero = within_group_slope_interval({g}, 0.0);
  EXPECT_DOUBLE_EQ(zero.low, 1.5);
  EXPECT_DOUBLE_EQ(zero.high, 5.0 / 3.0);
  const SlopeInterval wide = within_group_slope_interval({g}, 1.96);
  EXPECT_DOUBLE_EQ(wide.low, 0.0);
  EXPECT_DOUBLE_EQ(wide.high, 3.0);
  const Points exact{{1, 2, 3, 4, 5}, {2, 4, 6, 8, 10}};
  const SlopeInterval tight = within_group_slope_interval({exact, exact}, 1.96);
  EXPECT_DOUBLE_EQ(tight.low, 2.0);
  EXPECT_DOUBLE_EQ(tight.high, 2.0);
  EXPECT_TRUE(std::isnan(within_group_slope_interval({Points{{1, 2}, {1, kNaN}}}, 1.0).low));
}

// The median of lines y_i - s (x_i - reference) is linear between the bends moved_median_bends
// finds: at points drawn inside each stretch it lies on the chord of the stretch's ends. Odd and
// even counts (the middle line, or halfway between two), and lines through one point.
TEST(Statistics, MovedMedianIsLinearBetweenItsBends) {
  const auto check = [&](const Points& p, double reference, double low, double high) {
    std::vector<double> ends = moved_median_bends(p, reference, low, high);
    for (std::size_t i = 0; i + 1 < ends.size(); ++i) EXPECT_LT(ends[i], ends[i + 1]);
    ends.insert(ends.begin(), low);
    ends.push_back(high);
    for (std::size_t i = 0; i + 1 < ends.size(); ++i) {
      const double l = ends[i], r = ends[i + 1];
      const double gl = moved_median(p, reference, l), gr = moved_median(p, reference, r);
      for (double f : {0.13, 0.5, 0.91}) {
        const double t = l + f * (r - l);
        EXPECT_NEAR(moved_median(p, reference, t), gl + f * (gr - gl), 1e-9 * (1.0 + std::abs(gl)))
            << "between " << l << " and " << r << " of " << p.x.size() << " points";
      }
    }
    return ends.size() - 2;
  };
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> host(10.0, 20.0), overhead(5.0, 40.0);
  std::size_t bends = 0;
  for (std::size_t n : {5, 6, 20, 21, 60}) {
    Points p;
    for (std::size_t i = 0; i < n; ++i) {
      p.x.push_back(host(rng));
      p.y.push_back(overhead(rng));
    }
    bends += check(p, median(p.x), 0.5, 3.0);
  }
  EXPECT_GT(bends, 10u);  // the draws bend: the check above had stretches to test
  // Three lines through one point (s = 1, value 10), two below them: the median is the lowest of
  // the three, 8 + 2s before the point and 12 - 2s after it.
  const Points through{{10, 12, 14, 11, 13}, {8, 10, 12, -10, -5}};
  EXPECT_EQ(check(through, 12.0, 0.0, 2.0), 1u);
  EXPECT_NEAR(moved_median_bends(through, 12.0, 0.0, 2.0).front(), 1.0, 1e-12);
  EXPECT_NEAR(moved_median(through, 12.0, 2.0), 8.0, 1e-12);
  EXPECT_TRUE(moved_median_bends(Points{{1, 2}, {1, kNaN}}, 1.0, 0.0, 1.0).empty());
  EXPECT_TRUE(moved_median_bends(Points{}, 1.0, 0.0, 1.0).empty());
}

// Kendall's S within groups over its standard deviation: a perfect rise over 5 points is S = 10,
// sd sqrt(5*4*15/18); two groups add S and variance, the offset between them never paired; ties
// count for neither side.
TEST(Statistics, WithinGroupKendallZ) {
  const double sd5 = std::sqrt(5.0 * 4.0 * 15.0 / 18.0);
  const Points rise{{1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}};
  const Points fall{{1, 2, 3, 4, 5}, {105, 104, 103, 102, 101}};  // offset 100 from rise
  EXPECT_DOUBLE_EQ(within_group_kendall_z({rise}), 10.0 / sd5);
  EXPECT_DOUBLE_EQ(within_group_kendall_z({fall}), -10.0 / sd5);
  EXPECT_DOUBLE_EQ(within_group_kendall_z({rise, fall}), 0.0);
  EXPECT_DOUBLE_EQ(within_group_kendall_z({fall, fall}), -20.0 / std::sqrt(2.0 * sd5 * sd5));
  const Points tied{{1, 1, 2}, {1, 2, 2}};  // (1,1)-(1,2) tied in x, (1,2)-(2,2) in y: one pair
  EXPECT_DOUBLE_EQ(within_group_kendall_z({tied}), 1.0 / std::sqrt(3.0 * 2.0 * 11.0 / 18.0));
  EXPECT_TRUE(std::isnan(within_group_kendall_z({Points{{1}, {1}}})));
  EXPECT_TRUE(std::isnan(within_group_kendall_z({rise, Points{{1, 2}, {1, kNaN}}})));
}

// Processes of one benchmark in two groups (the overhead of TrainLoop/ItemEveryStep bf16 n=512 in
// two H200 calls: a host path with two speeds), against a skewed sample, a wild process, a
// stragglers' tail, and gaps no wider than a change.
TEST(Statistics, HasTwoGroups) {
  const std::vector<double> most_low = {8.1, 8.4, 8.5, 8.5, 8.8, 9.0, 9.5, 9.6, 14.9, 15.2};
  EXPECT_TRUE(has_two_groups(most_low, 1.3));
  EXPECT_FALSE(has_two_groups(most_low, 6.0));  // the gap (5.3 us) is no wider than a change
  const std::vector<double> straggler = {8.1, 8.2, 8.2, 8.8, 9.1, 9.3, 12.4, 14.6, 15.5, 15.5};
  EXPECT_TRUE(has_two_groups(straggler, 1.3));
  // BigGemm/DeviceSync bf16 n=4096: a tail of slow processes, no gap between groups.
  const std::vector<double> skewed = {9.0, 9.2, 9.3, 9.7, 9.8, 11.2, 12.7, 15.2, 16.6, 20.3};
  EXPECT_FALSE(has_two_groups(skewed, 1.0));
  // NullKernel/ScalarRead/pageable: a 0.8 us gap, but the upper group spreads as wide.
  const std::vector<double> spread = {8.4, 8.6, 8.6, 8.8, 9.6, 9.7, 9.9, 10.1, 10.7, 10.8};
  EXPECT_FALSE(has_two_groups(spread, 0.5));
  // One wild process is not a group (a group holds two and a twentieth of the processes).
  EXPECT_FALSE(has_two_groups({5.0, 5.1, 5.0, 4.9, 5.0, 5.1, 5.0, 4.9, 5.0, 30.0}, 0.5));
  EXPECT_TRUE(has_two_groups({5.0, 5.1, 5.0, 4.9, 5.0, 5.1, 5.0, 4.9, 30.0, 30.2}, 0.5));
  EXPECT_FALSE(has_two_groups({5.0, 5.1, 30.0}, 0.5));  // too few for two groups of two
  EXPECT_FALSE(has_two_groups({5.0, 5.1, kNaN, 30.0, 30.1}, 0.5));
  // TrainLoop/ItemEveryStep n=512 in a BASE merged from five H200s (results/h200/runners/call5):
  // 4 of 50 processes in the lower group; a machine whose host is slow lands most of its own
  // there, so the merged median says which machines were drawn.
  const std::vector<double> merged = {
      8.61,  8.62,  9.91,  10.00, 13.83, 14.00, 14.02, 14.08, 14.32, 14.43, 14.47, 14.73, 14.74,
      14.77, 14.82, 14.91, 14.94, 14.95, 14.95, 14.96, 14.98, 15.00, 15.00, 15.02, 15.11, 15.11,
      15.12, 15.12, 15.23, 15.24, 15.28, 15.28, 15.30, 15.31, 15.34, 15.37, 15.39, 15.42, 15.46,
      15.52, 15.55, 15.56, 15.57, 15.66, 15.69, 15.72, 15.74, 15.83, 15.88, 15.95};
  EXPECT_TRUE(has_two_groups(merged, 2.9));
  EXPECT_FALSE(has_two_groups(merged, 4.0));  // the gap (3.83 us) is no wider than a change
  // Two processes apart among 48 are not a group: a group holds a twentieth (three of 48).
  std::vector<double> upper(merged.begin() + 4, merged.end());  // the 46 of the upper group
  std::vector<double> two_apart = upper, three_apart = upper;
  two_apart.insert(two_apart.end(), {8.61, 8.62});
  three_apart.insert(three_apart.end(), {8.61, 8.62, 9.91});
  EXPECT_FALSE(has_two_groups(two_apart, 2.9));
  EXPECT_TRUE(has_two_groups(three_apart, 2.9));
}

// Two samples of host speed that do not meet: the stretch between their medians that neither
// reaches with `reach` values, measured from either side, mirrored, with one wild value that a
// reach of 2 does not count, and what is no distance at all.
TEST(Statistics, UnreachedDistance) {
  const std::vector<double> fast = {1.0, 2.0, 3.0, 4.0, 5.0};
  const std::vector<double> slow = {10.0, 11.0, 12.0, 13.0, 14.0};
  EXPECT_DOUBLE_EQ(unreached_distance(fast, slow, 2), 11.0 - 4.0);
  EXPECT_DOUBLE_EQ(unreached_distance(slow, fast, 2), 11.0 - 4.0);  // either way round
  EXPECT_DOUBLE_EQ(unreached_distance(fast, slow, 1), 10.0 - 5.0);
  // One fast process that ran slow reaches nothing at a reach of 2; at 1 it closes the gap.
  const std::vector<double> one_wild = {1.0, 2.0, 3.0, 4.0, 20.0};
  EXPECT_DOUBLE_EQ(unreached_distance(one_wild, slow, 2), 11.0 - 4.0);
  EXPECT_DOUBLE_EQ(unreached_distance(one_wild, slow, 1), 0.0);
  // Two of one sample at the other's median: reached.
  EXPECT_DOUBLE_EQ(unreached_distance({1.0, 2.0, 3.0, 12.0, 12.5}, slow, 2), 0.0);
  EXPECT_DOUBLE_EQ(unreached_distance(fast, {6.0, 7.0, 8.0, 30.0, 40.0}, 2), 7.0 - 4.0);
  // A reach past either median is clipped to the medians: the 4th largest of fast (2) and the 4th
  // smallest of {6..10} (9) lie beyond them, and only the stretch between the medians counts.
  EXPECT_DOUBLE_EQ(unreached_distance(fast, {6.0, 7.0, 8.0, 9.0, 10.0}, 4), 8.0 - 3.0);
  EXPECT_DOUBLE_EQ(unreached_distance(fast, fast, 2), 0.0);
  EXPECT_TRUE(std::isnan(unreached_distance(fast, slow, 0)));
  EXPECT_TRUE(std::isnan(unreached_distance({1.0}, slow, 2)));
  EXPECT_TRUE(std::isnan(unreached_distance({1.0, kNaN, 3.0}, slow, 2)));
}

TEST(Statistics, StudentTQuantile) {
  // Two-sided critical values as printed in t tables (Abramowitz and Stegun table 26.10).
  EXPECT_NEAR(student_t_quantile(0.05, 1), 12.706, 5e-4);
  EXPECT_NEAR(student_t_quantile(0.05, 2), 4.303, 5e-4);
  EXPECT_NEAR(student_t_quantile(0.05, 10), 2.228, 5e-4);
  EXPECT_NEAR(student_t_quantile(0.05, 30), 2.042, 5e-4);
  EXPECT_NEAR(student_t_quantile(0.01, 5), 4.032, 5e-4);
  EXPECT_NEAR(student_t_quantile(0.001, 6), 5.959, 5e-4);
  EXPECT_NEAR(student_t_quantile(0.001, 7), 5.408, 5e-4);
  // Many degrees of freedom: the normal distribution's 1.95996.
  EXPECT_NEAR(student_t_quantile(0.05, 10000), 1.95996, 5e-4);
  EXPECT_TRUE(std::isnan(student_t_quantile(0.05, 0)));
  EXPECT_TRUE(std::isnan(student_t_quantile(0.0, 5)));
  EXPECT_TRUE(std::isnan(student_t_quantile(1.0, 5)));
}

}  // namespace
}  // namespace sync_summary
