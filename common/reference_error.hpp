#pragma once
// How far a GEMM's sampled outputs are from their float64 reference, and the verdict on it. Plain
// C++, no CUDA: the rule is tested on made-up samples anywhere.

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace sync_bench {

struct ReferenceError {
  double relative_norm = 0.0;  // ||got - ref|| / ||ref||
  double worst_element = 0.0;  // max |got - ref|, in units of the reference's RMS
  std::size_t worst_index = 0;
  std::size_t largest_index = 0;  // the sample of largest reference magnitude
};

// The norm alone averages one wrong element over all the samples: out of 2048, an element off by
// half its value moved it by about 0.01, under the bf16 tolerance. Elementwise, correct outputs
// are off by their rounding, at most about 4 rounding units of the RMS (the largest of 2048
// references is about 4 RMS), which is under one tolerance in every dtype. 8 tolerances leaves
// room for that, and an element off by a fifth of the RMS fails in every dtype (bf16 and fp8, the
// loosest, allow 0.16).
inline constexpr double kWorstElementFactor = 8.0;

inline ReferenceError reference_error(const std::vector<double>& got,
                                      const std::vector<double>& ref) {
  if (got.size() != ref.size() || ref.empty())
    throw std::invalid_argument("reference_error: sample counts differ or are zero");
  ReferenceError e;
  double err2 = 0.0, ref2 = 0.0, worst = 0.0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const double d = std::abs(got[i] - ref[i]);
    err2 += d * d;
    ref2 += ref[i] * ref[i];
    if (!std::isnan(worst) && !(d <= worst)) {  // the first NaN becomes the worst element
      worst = d;
      e.worst_index = i;
    }
    if (std::abs(ref[i]) > std::abs(ref[e.largest_index])) e.largest_index = i;
  }
  e.relative_norm = std::sqrt(err2 / ref2);
  e.worst_element = worst / std::sqrt(ref2 / static_cast<double>(ref.size()));
  return e;
}

inline bool within_tolerance(const ReferenceError& e, double tolerance) {
  return e.relative_norm <= tolerance && e.worst_element <= kWorstElementFactor * tolerance;
}

}  // namespace sync_bench
