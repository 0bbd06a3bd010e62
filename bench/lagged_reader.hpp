#pragma once
// A read one step late, as a training loop prints the previous step's loss: step i's bytes are
// copied into a pinned slot behind its work and an event recorded after the copy; then the host
// waits for step i-1's copy only and checks it. Step i stays queued on the GPU while the host waits
// and checks, so the GPU does not idle through the host's work after a wait. A slot is written
// again only by a copy enqueued after the host has read it. Three slots, not two: a read that did
// not wait for its copy finds the slot's value of three reads before, which each caller's check
// tells apart (a GEMM's output of the other sign, a loss state three steps short).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

#include <cuda_runtime_api.h>

#include "cuda_resources.hpp"

namespace sync_bench {

class LaggedReader {
 public:
  // True when `bytes` read back (host memory) are what step `step` left at the source.
  using Check = std::function<bool(const std::byte* bytes, std::int64_t step)>;

  // `source`: device memory of `bytes` bytes that each step writes on `stream`.
  LaggedReader(const std::byte* source, std::size_t bytes, Check check, cudaStream_t stream);

  // Enqueues the read of `step` (whose work is enqueued), then waits for and checks the one
  // before. False when that one did not hold what its step wrote.
  bool read(std::int64_t step);
  // Waits for and checks the read still pending, if any.
  bool finish();

 private:
  static constexpr int kSlots = 3;
  std::byte* slot(int i) { return slots_.get() + i * stride_; }

  const std::byte* source_;
  std::size_t bytes_;
  std::size_t stride_;  // bytes rounded up to 16, so that every slot is aligned for any scalar
  Check check_;
  cudaStream_t stream_;
  PinnedBuffer<std::byte> slots_;
  Event copied_[kSlots] = {Event(cudaEventDisableTiming), Event(cudaEventDisableTiming),
                           Event(cudaEventDisableTiming)};
  int pending_slot_ = 0;
  std::optional<std::int64_t> pending_step_;
};

}  // namespace sync_bench
