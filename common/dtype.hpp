#pragma once
// The GEMM dtypes sync_bench sweeps: the one list every family registers over.

#include <array>
#include <cstddef>
#include <string_view>

#include <cublasLt.h>
#include <library_types.h>

namespace sync_bench {

enum class Dtype { fp16, bf16, fp32, tf32 };

inline constexpr std::array<Dtype, 4> kAllDtypes = {Dtype::fp16, Dtype::bf16, Dtype::fp32,
                                                    Dtype::tf32};

struct DtypeTraits {
  std::string_view name;        // the word used in benchmark names
  cudaDataType_t storage;       // A, B and C element type
  cublasComputeType_t compute;  // accumulation / math mode
  std::size_t element_bytes;
  double tolerance;  // accepted relative error norm against a float64 reference
};

// Tolerances: the output's own rounding dominates (fp16 2^-11, bf16 2^-8, tf32 inputs 2^-11).
inline constexpr DtypeTraits traits(Dtype d) {
  switch (d) {
    case Dtype::fp16:
      return {"fp16", CUDA_R_16F, CUBLAS_COMPUTE_32F, 2, 5e-3};
    case Dtype::bf16:
      return {"bf16", CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2, 2e-2};
    case Dtype::fp32:
      return {"fp32", CUDA_R_32F, CUBLAS_COMPUTE_32F, 4, 1e-5};
    case Dtype::tf32:
      return {"tf32", CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 5e-3};
  }
  return {"?", CUDA_R_32F, CUBLAS_COMPUTE_32F, 4, 0.0};
}

inline constexpr std::string_view name(Dtype d) {
  return traits(d).name;
}

}  // namespace sync_bench
