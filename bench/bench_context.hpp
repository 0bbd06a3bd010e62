#pragma once
// What every benchmark of one run shares: the stream the work goes to, and the GEMM of the
// configuration being measured.

#include <memory>

#include "cuda_resources.hpp"
#include "gemm.hpp"
#include "nvml_probe.hpp"

namespace sync_bench {

class BenchContext {
 public:
  explicit BenchContext(int device);
  cudaStream_t stream() const { return stream_.get(); }
  // The GPU's clocks and throttle reasons; nullptr where NVML is unavailable.
  const NvmlDevice* nvml() const { return nvml_.get(); }

  // A validated GEMM for this configuration. The last one is kept: the patterns of one
  // configuration are registered one after another, so they share its buffers, handle, cuBLASLt
  // algorithm and validation, and only one problem holds device memory at a time.
  Gemm& gemm(Dtype dtype, Backend backend, int n);

 private:
  Stream stream_{cudaStreamNonBlocking};
  std::unique_ptr<Gemm> gemm_;
  std::unique_ptr<NvmlDevice> nvml_;
};

// Made by main once the device is chosen, released before the CUDA runtime shuts down.
void create_bench_context(int device);
void destroy_bench_context();
BenchContext& bench_context();  // throws if there is none

}  // namespace sync_bench
