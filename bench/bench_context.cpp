#include "bench_context.hpp"

#include <stdexcept>
#include <string>

namespace sync_bench {
namespace {
std::unique_ptr<BenchContext> g_context;
}

BenchContext::BenchContext(int device) {
  char bus_id[32] = {};
  CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, sizeof(bus_id), device));
  std::string why;
  nvml_ = NvmlDevice::open(bus_id, &why);
}

Gemm& BenchContext::gemm(Dtype dtype, Backend backend, int n) {
  if (gemm_ && gemm_->dtype() == dtype && gemm_->backend() == backend && gemm_->n() == n)
    return *gemm_;
  gemm_.reset();  // free the previous problem before allocating the next
  auto fresh = std::make_unique<Gemm>(dtype, backend, n, stream());
  fresh->validate();
  gemm_ = std::move(fresh);
  return *gemm_;
}

void create_bench_context(int device) {
  g_context = std::make_unique<BenchContext>(device);
}
void destroy_bench_context() {
  g_context.reset();
}

BenchContext& bench_context() {
  if (!g_context) throw std::logic_error("sync_bench: no benchmark context (no device chosen)");
  return *g_context;
}

}  // namespace sync_bench
