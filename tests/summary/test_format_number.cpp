// How sync_summary writes numbers in its tables: digits by magnitude, no "-0", and scientific
// notation where fixed would run to hundreds of digits.

#include <gtest/gtest.h>

#include <limits>

#include "format_number.hpp"

namespace sync_summary {
namespace {

TEST(FormatNumber, DigitsFollowTheMagnitude) {
  EXPECT_EQ(fmt_value(0.1234), "0.123");
  EXPECT_EQ(fmt_value(12.345), "12.35");
  EXPECT_EQ(fmt_value(0.1235), "0.123");  // stored as 0.12349999...: rounded as stored, as printf
  EXPECT_EQ(fmt_value(123.45), "123.5");
  EXPECT_EQ(fmt_value(1234.5), "1234");  // round half to even, as printf
  EXPECT_EQ(fmt_signed(2.5), "+2.500");
  EXPECT_EQ(fmt_signed(-12.5), "-12.50");
  EXPECT_EQ(fmt_percent(0.123), "+12.3%");
  EXPECT_EQ(fmt_percent(-15.0), "-1500%");
}

TEST(FormatNumber, NoNegativeZero) {
  EXPECT_EQ(fmt_value(-0.0001), "0.000");
  EXPECT_EQ(fmt_signed(-0.0001), "+0.000");
}

TEST(FormatNumber, HugeValuesAreScientificNotHundredsOfDigits) {
  EXPECT_EQ(fmt_value(123456789012345.0), "123456789012345");  // still fixed below 1e15
  EXPECT_EQ(fmt_value(1.7e308), "1.700e+308");
  EXPECT_EQ(fmt_signed(-2e20), "-2.000e+20");
  EXPECT_EQ(fmt_signed(2e20), "+2.000e+20");
  EXPECT_EQ(fmt_percent(1.7e306), "+1.700e+308%");
  EXPECT_EQ(fmt_fixed(std::numeric_limits<double>::max(), 3), "1.798e+308");
}

TEST(FormatNumber, NoValueAndInfinities) {
  EXPECT_EQ(fmt_value(std::numeric_limits<double>::quiet_NaN()), "-");
  EXPECT_EQ(fmt_value(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(fmt_value(-std::numeric_limits<double>::infinity()), "-inf");
}

}  // namespace
}  // namespace sync_summary
