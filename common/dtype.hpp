#pragma once
// The GEMM dtypes sync_bench sweeps: the one list every family registers over.

#include <array>
#include <cstddef>
#include <string_view>

#include <cublasLt.h>
#include <library_types.h>

namespace sync_bench {

enum class Dtype { fp16, bf16, fp32, tf32, fp8 };

inline constexpr std::array<Dtype, 5> kAllDtypes = {Dtype::fp16, Dtype::bf16, Dtype::fp32,
                                                    Dtype::tf32, Dtype::fp8};

struct DtypeTraits {
  std::string_view name;        // the word used in benchmark names
  cudaDataType_t storage;       // A and B element type
  Dtype output;                 // the dtype whose storage C has (itself, but for fp8)
  cublasComputeType_t compute;  // accumulation / math mode
  std::size_t element_bytes;    // of A and B
  double tolerance;             // accepted relative error norm against a float64 reference
  int min_compute_capability;   // major * 10 + minor
  bool cublaslt_only;           // cublasGemmEx has no such GEMM
};

// Tolerances: the output's own rounding dominates (fp16 2^-11, bf16 2^-8, tf32 inputs 2^-11).
// fp8: e4m3 inputs (exact in the reference, which reads the stored values), bf16 output, so the
// bf16 bound; the tensor cores' fp8 accumulation adds far less than that at these sizes.
inline constexpr DtypeTraits traits(Dtype d) {
  switch (d) {
    case Dtype::fp16:
      return {"fp16", CUDA_R_16F, Dtype::fp16, CUBLAS_COMPUTE_32F, 2, 5e-3, 0, false};
    case Dtype::bf16:
      return {"bf16", CUDA_R_16BF, Dtype::bf16, CUBLAS_COMPUTE_32F, 2, 2e-2, 80, false};
    case Dtype::fp32:
      return {"fp32", CUDA_R_32F, Dtype::fp32, CUBLAS_COMPUTE_32F, 4, 1e-5, 0, false};
    case Dtype::tf32:
      return {"tf32", CUDA_R_32F, Dtype::tf32, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 5e-3, 80, false};
    case Dtype::fp8:
      return {"fp8", CUDA_R_8F_E4M3, Dtype::bf16, CUBLAS_COMPUTE_32F, 1, 2e-2, 89, true};
  }
  return {"?", CUDA_R_32F, Dtype::fp32, CUBLAS_COMPUTE_32F, 4, 0.0, 0, false};
}

inline constexpr std::string_view name(Dtype d) {
  return traits(d).name;
}

// The dtype of a GEMM's output C.
inline constexpr Dtype output_dtype(Dtype d) {
  return traits(d).output;
}

}  // namespace sync_bench
