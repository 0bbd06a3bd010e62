// The U test against scipy. Reference values computed with scipy 1.17.1 (pip install scipy),
// exactly as Google Benchmark's report.py calls it:
//   from scipy.stats import mannwhitneyu
//   r = mannwhitneyu(x, y, alternative='two-sided')                      # method='auto'
//   ra = mannwhitneyu(x, y, alternative='two-sided', method='asymptotic')
//   print(repr(float(r.statistic)), repr(float(r.pvalue)), repr(float(ra.pvalue)))
// and pasted here with the inputs.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "mann_whitney.hpp"

namespace sync_summary {
namespace {

struct Case {
  const char* what;
  std::vector<double> x, y;
  double u1;            // scipy's statistic
  double p_auto;        // scipy's pvalue, method='auto'
  UMethod method;       // what 'auto' chose
  double p_asymptotic;  // scipy's pvalue, method='asymptotic'
};

std::vector<double> linspace(double a, double b, int n, double shift) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(a + (b - a) * i / (n - 1) + shift);
  return v;
}

std::vector<Case> cases() {
  std::vector<double> x8, y20;
  for (int i = 0; i < 8; ++i) x8.push_back(i * 1.1);
  for (int i = 0; i < 20; ++i) y20.push_back(i * 0.7 + 0.05);
  return {
      {"no overlap, 5 vs 5",
       {10.0, 10.1, 9.9, 10.05, 9.95},
       {11.0, 11.1, 10.9, 11.05, 10.95},
       0.0,
       0.007936507936507936,
       UMethod::exact,
       0.012185780355344813},
      {"small shift, 5 vs 5",
       {5.0, 5.1, 4.9, 5.05, 4.95},
       {5.01, 5.11, 4.91, 5.06, 4.96},
       10.0,
       0.6904761904761905,
       UMethod::exact,
       0.6761033140231469},
      {"overlap with ties",
       {8.0, 9.0, 10.0, 11.0, 12.0},
       {9.0, 10.0, 11.0, 12.0, 13.0},
       8.0,
       0.39761475195653073,
       UMethod::asymptotic,
       0.39761475195653073},
      {"many ties",
       {10.0, 10.0, 10.0, 11.0, 11.0},
       {12.0, 12.0, 12.0, 11.0, 11.0},
       2.0,
       0.026888454103745775,
       UMethod::asymptotic,
       0.026888454103745775},
      {"3 vs 7",
       {1.5, 2.5, 9.0},
       {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0},
       10.0,
       0.9999999999999999,
       UMethod::exact,
       1.0},
      {"scipy docs example",
       {19, 22, 16, 29, 24},
       {20, 11, 17, 12},
       17.0,
       0.1111111111111111,
       UMethod::exact,
       0.11134688653314041},
      {"10 vs 12, no ties", linspace(1, 10, 10, 0.3), linspace(2, 14, 12, 0.0), 40.0,
       0.19851568979039613, UMethod::asymptotic, 0.19851568979039613},
      {"9 vs 9 with ties",
       {1, 2, 2, 3, 3, 3, 4, 4, 5},
       {2, 3, 3, 4, 4, 5, 5, 6, 7},
       21.0,
       0.08696337003741521,
       UMethod::asymptotic,
       0.08696337003741521},
      {"2 vs 2",
       {1.0, 2.0},
       {3.0, 4.0},
       0.0,
       0.3333333333333333,
       UMethod::exact,
       0.2452781168067728},
      {"all equal", {1.0, 1.0, 1.0}, {1.0, 1.0, 1.0}, 4.5, 1.0, UMethod::asymptotic, 1.0},
      {"8 vs 20: exact", x8, y20, 47.0, 0.09906229036663819, UMethod::exact, 0.09837568863208279},
  };
}

TEST(MannWhitney, MatchesScipyAuto) {
  for (const Case& c : cases()) {
    const UTest r = mann_whitney_u(c.x, c.y);
    EXPECT_DOUBLE_EQ(r.u1, c.u1) << c.what;
    EXPECT_NEAR(r.p, c.p_auto, 1e-12) << c.what;
    EXPECT_EQ(r.method, c.method) << c.what;
  }
}

TEST(MannWhitney, MatchesScipyAsymptotic) {
  for (const Case& c : cases()) {
    const UTest r = mann_whitney_u(c.x, c.y);
    // sum(t^3 - t) over tie groups of the pooled sample
    std::vector<double> all = c.x;
    all.insert(all.end(), c.y.begin(), c.y.end());
    std::sort(all.begin(), all.end());
    double tie_term = 0.0;
    for (std::size_t i = 0; i < all.size();) {
      std::size_t j = i;
      while (j < all.size() && all[j] == all[i]) ++j;
      const double t = static_cast<double>(j - i);
      tie_term += t * t * t - t;
      i = j;
    }
    const double p = mwu_p_asymptotic(r.u1, static_cast<int>(c.x.size()),
                                      static_cast<int>(c.y.size()), tie_term);
    EXPECT_NEAR(p, c.p_asymptotic, 1e-12) << c.what;
  }
}

TEST(MannWhitney, SymmetricInItsSamples) {
  const std::vector<double> a = {1.0, 4.0, 6.0, 7.5}, b = {2.0, 3.0, 5.0, 8.0, 9.0};
  EXPECT_DOUBLE_EQ(mann_whitney_u(a, b).p, mann_whitney_u(b, a).p);
  EXPECT_DOUBLE_EQ(mann_whitney_u(a, b).u1 + mann_whitney_u(b, a).u1, 20.0);
}

TEST(MannWhitney, ExactDistributionSumsToOne) {
  // P(U >= 0) = 1, doubled and clipped: p = 1 at the smallest U.
  EXPECT_DOUBLE_EQ(mwu_p_exact(0.0, 4, 6), mwu_p_exact(24.0, 4, 6));
  EXPECT_NEAR(mwu_p_exact(0.0, 4, 6), 2.0 / 210.0, 1e-15);  // 1 of C(10,4) orderings each side
  EXPECT_DOUBLE_EQ(mwu_p_exact(12.0, 4, 6), 1.0);
}

// A NaN once hung the test (the tie loop never advanced past it): non-finite input now gives no
// test, p = NaN, at once.
// The smallest p is the exact test's p for samples wholly apart, and what compare checks alpha
// against before it asks for significance.
TEST(MannWhitney, SmallestPIsThatOfSamplesWhollyApart) {
  for (int n1 = 1; n1 <= 6; ++n1)
    for (int n2 = 1; n2 <= 6; ++n2)
      EXPECT_NEAR(mwu_smallest_p(n1, n2), mwu_p_exact(n1 * n2, n1, n2), 1e-12) << n1 << " " << n2;
  EXPECT_NEAR(mwu_smallest_p(3, 3), 0.1, 1e-12);
  EXPECT_NEAR(mwu_smallest_p(2, 2), 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(mwu_smallest_p(10, 10), 2.0 / 184756.0, 1e-15);  // 2 / C(20, 10)
}

TEST(MannWhitney, NonFiniteInputGivesNoTest) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> ok = {1.0, 2.0, 3.0, 4.0, 5.0};
  for (const std::vector<double>& bad : std::vector<std::vector<double>>{
           {nan, nan, nan, nan, nan}, {1.0, nan, 3.0}, {inf, 1.0}, {-inf, 2.0, 3.0}}) {
    EXPECT_TRUE(std::isnan(mann_whitney_u(ok, bad).p));
    EXPECT_TRUE(std::isnan(mann_whitney_u(bad, ok).p));
    EXPECT_TRUE(std::isnan(mann_whitney_u(bad, bad).p));
  }
  EXPECT_TRUE(std::isnan(mann_whitney_u({}, ok).p));
}

}  // namespace
}  // namespace sync_summary
