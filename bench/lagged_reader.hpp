#pragma once
// A read one step late, as a training loop prints the previous step's loss: step i's bytes are
// handed to the host behind its work; then the host waits for step i-1's only and checks it. Step
// i stays queued on the GPU while the host waits and checks, so the GPU does not idle through the
// host's work after a wait. Two ways to hand the bytes over:
//   - Transport::copy: a copy into a pinned slot, then an event the host waits on (LaggedRead).
//   - Transport::mapped: MappedScalar's publish kernel, and a spin on its sequence number
//     (LaggedRead/mapped). A one-element copy from the device costs the GPU a switch to the copy
//     engine and back, 8-10 us a step on an H200; the kernel costs 2.5 (results/h200/copy_gaps/).
// A slot is written again only by a publish enqueued after the host has read it. Three slots, not
// two: a copy that was not waited for leaves the slot's value of three reads before, which each
// caller's check tells apart (a GEMM's output of the other sign, a loss state three steps short).

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include <cuda_runtime_api.h>

#include "cuda_resources.hpp"
#include "mapped_scalar.hpp"

namespace sync_bench {

class LaggedReader {
 public:
  // True when `bytes` read back (host memory) are what step `step` left at the source.
  using Check = std::function<bool(const std::byte* bytes, std::int64_t step)>;
  enum class Transport { copy, mapped };

  // `source`: device memory of `bytes` bytes that each step writes on `stream` (mapped: at most
  // MappedScalar::kMaxBytes).
  LaggedReader(const std::byte* source, std::size_t bytes, Check check, cudaStream_t stream,
               Transport transport = Transport::copy);

  // Enqueues the read of `step` (whose work is enqueued), then waits for and checks the one
  // before. False when that one did not hold what its step wrote.
  bool read(std::int64_t step);
  // Waits for and checks the read still pending, if any.
  bool finish();

 private:
  static constexpr int kSlots = 3;
  std::byte* slot(int i) { return slots_.get() + i * stride_; }
  void hand_over(int slot_index);          // enqueues the source's bytes into that slot
  const std::byte* await(int slot_index);  // waits for them; returns where they are

  const std::byte* source_;
  std::size_t bytes_;
  std::size_t stride_;  // bytes rounded up to 16, so that every slot is aligned for any scalar
  Check check_;
  cudaStream_t stream_;
  PinnedBuffer<std::byte> slots_;
  Transport transport_;
  // Transport::copy
  Event copied_[kSlots] = {Event(cudaEventDisableTiming), Event(cudaEventDisableTiming),
                           Event(cudaEventDisableTiming)};
  // Transport::mapped: one MappedScalar a slot, as each takes one publish at a time
  std::array<std::unique_ptr<MappedScalar>, kSlots> mapped_;
  std::array<std::uint32_t, kSlots> published_seq_{};
  int pending_slot_ = 0;
  std::optional<std::int64_t> pending_step_;
};

}  // namespace sync_bench
