#pragma once
// GPU tests (CTest label `gpu`) skip with a clear message where no GPU is present.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>

namespace sync_bench::test {

// Empty when a GPU is usable; otherwise why not.
inline std::string gpu_unavailable_reason() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) return std::string("no CUDA GPU: ") + cudaGetErrorName(err);
  if (count == 0) return "no CUDA GPU: 0 devices";
  return "";
}

}  // namespace sync_bench::test

#define SKIP_WITHOUT_GPU()                                                        \
  do {                                                                            \
    const std::string why_ = ::sync_bench::test::gpu_unavailable_reason();        \
    if (!why_.empty()) GTEST_SKIP() << why_ << " (this test needs one; skipped)"; \
  } while (0)
