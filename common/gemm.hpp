#pragma once
// One square GEMM, C = A * B (column-major, n x n, random inputs), through cuBLAS or
// cuBLASLt. Everything it needs (buffers, handle, workspace, the cuBLASLt algorithm) is made once
// in the constructor, so enqueue() is the bare library call. fp8 (cuBLASLt only): e4m3 A and B
// with per-tensor scales of 1, C = A^T * B in bf16 (the "TN" form Hopper's fp8 GEMMs require).

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include <cuda_runtime_api.h>

#include "dtype.hpp"

namespace sync_bench {

enum class Backend { cublas, cublaslt };
inline constexpr std::array<Backend, 2> kAllBackends = {Backend::cublas, Backend::cublaslt};
inline constexpr std::string_view name(Backend b) {
  return b == Backend::cublas ? "cublas" : "cublaslt";
}

// Throws Unsupported unless the current device can run `dtype` GEMMs through `backend` at all (fp8
// through cuBLASLt only, and each dtype from its compute capability): what a benchmark whose GEMMs
// are not a Gemm's checks first, so that it skips where a Gemm would.
void require_gemm_support(Dtype dtype, Backend backend);

class Gemm {
 public:
  // Throws Unsupported (unsupported.hpp) when this GPU or backend lacks the dtype, the problem
  // does not fit in free device memory or the backend has no algorithm for it.
  Gemm(Dtype dtype, Backend backend, int n, cudaStream_t stream);
  ~Gemm();
  Gemm(Gemm&&) noexcept;
  Gemm& operator=(Gemm&&) noexcept;

  // Enqueues one GEMM on the stream. `negated` multiplies by -B (a copy made at setup), which
  // negates C exactly with the very same kernel and alpha = 1: a reader can then tell this
  // launch's output from the previous one's without changing what is measured.
  void enqueue(bool negated = false) const;

  // Setup only (it synchronizes the stream): poisons C with NaN, runs once (not negated), checks
  // that every element was written and that sampled elements match a float64 reference within
  // the dtype's tolerance; throws with the measured error otherwise. Also picks the probe element.
  // Returns the measured relative error norm.
  double validate();

  Dtype dtype() const;
  Backend backend() const;
  int n() const;
  const void* c() const;
  std::size_t c_elements() const;
  std::size_t c_bytes() const;
  double flops() const;
  std::int64_t probe_index() const;  // a sampled element of large magnitude, chosen by validate()
  double probe_value() const;        // its value, not negated

  // Device memory the problem needs: A, B, -B, C and the workspace.
  static std::size_t device_bytes(Dtype dtype, int n);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sync_bench
