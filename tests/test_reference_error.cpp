// The GEMM check's verdict (common/reference_error.hpp) on made-up samples: outputs rounded as a
// dtype rounds them pass, one wrong element among 2048 fails.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "dtype.hpp"
#include "reference_error.hpp"

namespace sync_bench {
namespace {

// 2048 references spread like a GEMM's outputs (a sum of many products: roughly normal).
std::vector<double> references() {
  std::vector<double> ref;
  std::uint64_t state = 12345;
  const auto uniform = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (static_cast<double>(state >> 11) + 0.5) / 9007199254740992.0;  // (0, 1)
  };
  while (ref.size() < 2048) {  // Box-Muller
    const double r = std::sqrt(-2.0 * std::log(uniform())), t = 6.283185307179586 * uniform();
    ref.push_back(10.0 * r * std::cos(t));
  }
  return ref;
}

// Each output off by its full rounding unit (relative 2^-bits), the worst rounding can do.
std::vector<double> rounded(const std::vector<double>& ref, int bits) {
  std::vector<double> got = ref;
  for (std::size_t i = 0; i < got.size(); ++i)
    got[i] *= 1.0 + (i % 2 ? 1.0 : -1.0) * std::ldexp(1.0, -bits);
  return got;
}

TEST(ReferenceError, OutputsOffByTheirRoundingPass) {
  const std::vector<double> ref = references();
  EXPECT_TRUE(
      within_tolerance(reference_error(rounded(ref, 11), ref), traits(Dtype::fp16).tolerance));
  EXPECT_TRUE(
      within_tolerance(reference_error(rounded(ref, 8), ref), traits(Dtype::bf16).tolerance));
  EXPECT_TRUE(
      within_tolerance(reference_error(rounded(ref, 22), ref), traits(Dtype::fp32).tolerance));
}

TEST(ReferenceError, OneElementOffByHalfItsValueFailsThoughTheNormPasses) {
  const std::vector<double> ref = references();
  std::size_t typical = 0;  // an element near the RMS (10)
  while (std::abs(std::abs(ref[typical]) - 10.0) > 1.0) ++typical;
  std::vector<double> got = ref;
  got[typical] *= 1.5;
  const ReferenceError e = reference_error(got, ref);
  EXPECT_LT(e.relative_norm, traits(Dtype::bf16).tolerance) << "what the norm alone let through";
  EXPECT_EQ(e.worst_index, typical);
  for (const Dtype dtype : kAllDtypes)
    EXPECT_FALSE(within_tolerance(e, traits(dtype).tolerance)) << name(dtype);
}

TEST(ReferenceError, AWrongLayoutFailsOnTheNorm) {
  const std::vector<double> ref = references();
  std::vector<double> got(ref.rbegin(), ref.rend());
  EXPECT_GT(reference_error(got, ref).relative_norm, 1.0);
  EXPECT_FALSE(within_tolerance(reference_error(got, ref), traits(Dtype::bf16).tolerance));
}

TEST(ReferenceError, ANanFailsAndIsTheWorstElement) {
  const std::vector<double> ref = references();
  std::vector<double> got = ref;
  got[7] = std::numeric_limits<double>::quiet_NaN();
  const ReferenceError e = reference_error(got, ref);
  EXPECT_EQ(e.worst_index, 7u);
  EXPECT_FALSE(within_tolerance(e, traits(Dtype::bf16).tolerance));
}

TEST(ReferenceError, TheLargestReferenceIsFound) {
  std::vector<double> ref = references();
  ref[1234] = -1000.0;
  EXPECT_EQ(reference_error(ref, ref).largest_index, 1234u);
  EXPECT_EQ(reference_error(ref, ref).worst_element, 0.0);
}

TEST(ReferenceError, MismatchedOrEmptySamplesAreRefused) {
  EXPECT_THROW(reference_error({1.0}, {1.0, 2.0}), std::invalid_argument);
  EXPECT_THROW(reference_error({}, {}), std::invalid_argument);
}

}  // namespace
}  // namespace sync_bench
