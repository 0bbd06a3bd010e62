#pragma once
// A scalar handed from the GPU to the host with no CUDA call in the wait (zero-copy): a one-thread
// kernel, queued on the stream behind the op, copies the element into mapped pinned host memory
// and then a sequence number; the host spins on the number. What ScalarRead/mapped measures,
// beside .item()'s copy and stream sync.

#include <chrono>
#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cuda_resources.hpp"

namespace sync_bench {

class MappedScalar {
 public:
  static constexpr std::size_t kMaxBytes = 16;
  // How long wait() spins before it asks the stream whether it failed or ended without
  // publishing: longer than any step sync_bench times (BigGemm fp32 n=8192: about 21 ms), so
  // that a wait that succeeds makes no CUDA call.
  static constexpr std::chrono::milliseconds kStallCheck{100};

  MappedScalar();  // allocates the slot, mapped for the current device
  MappedScalar(const MappedScalar&) = delete;
  MappedScalar& operator=(const MappedScalar&) = delete;

  // Enqueues on `stream` the copy of `bytes` (at most kMaxBytes) of device memory at `src`, then
  // a sequence number it has not published before; returns the number, for wait(). One publish
  // at a time: the slot holds one value, so a publish before the wait for the last one has
  // returned would overwrite it unread; that throws std::logic_error, and enqueues nothing.
  std::uint32_t publish(const void* src, std::size_t bytes, cudaStream_t stream);
  // Spins until the slot holds `seq`, after which value() holds the bytes published with it.
  // Throws when `stream` fails, or ends without `seq` having arrived; the last publish then counts
  // as not waited for, so that every later publish throws too (the benchmark ends with the error).
  void wait(std::uint32_t seq, cudaStream_t stream);
  const std::byte* value() const { return slot_.get()->value; }

 private:
  struct Slot {
    alignas(16) std::byte value[kMaxBytes];
    std::uint32_t seq;
  };
  MappedHost<Slot> slot_;
  Slot* device_slot_ = nullptr;
  std::uint32_t last_seq_ = 0;  // 0: the slot's value before any publish
  bool last_awaited_ = true;    // a wait for last_seq_ returned (or nothing was published)
};

}  // namespace sync_bench
