#include "injected_cost.hpp"

#include <chrono>

#include "device_kernels.cuh"

namespace sync_bench {

InjectedCost::InjectedCost(Injection::Kind kind, double seconds, cudaStream_t stream)
    : kind_(seconds > 0.0 ? kind : Injection::Kind::none), seconds_(seconds), stream_(stream) {}

void InjectedCost::pay_now() const {
  if (kind_ == Injection::Kind::gpu) {
    launch_spin_kernel(static_cast<std::uint64_t>(seconds_ * 1e9), stream_);
    return;
  }
  using Clock = std::chrono::steady_clock;
  const auto until = Clock::now() + std::chrono::duration<double>(seconds_);
  while (Clock::now() < until) {
  }
}

}  // namespace sync_bench
