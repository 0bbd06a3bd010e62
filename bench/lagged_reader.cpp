#include "lagged_reader.hpp"

#include <stdexcept>
#include <utility>

#include "cuda_check.hpp"

namespace sync_bench {

LaggedReader::LaggedReader(const std::byte* source, std::size_t bytes, Check check,
                           cudaStream_t stream)
    : source_(source),
      bytes_(bytes),
      stride_((bytes + 15) / 16 * 16),
      check_(std::move(check)),
      stream_(stream) {
  if (bytes == 0) throw std::invalid_argument("LaggedReader: nothing to read (0 bytes)");
  slots_ = PinnedBuffer<std::byte>(kSlots * stride_);
}

bool LaggedReader::read(std::int64_t step) {
  const int next = (pending_slot_ + 1) % kSlots;
  CUDA_CHECK(cudaMemcpyAsync(slot(next), source_, bytes_, cudaMemcpyDeviceToHost, stream_));
  CUDA_CHECK(cudaEventRecord(copied_[next].get(), stream_));
  const bool ok = finish();
  pending_slot_ = next;
  pending_step_ = step;
  return ok;
}

bool LaggedReader::finish() {
  if (!pending_step_) return true;
  CUDA_CHECK(cudaEventSynchronize(copied_[pending_slot_].get()));
  const bool ok = check_(slot(pending_slot_), *pending_step_);
  pending_step_.reset();
  return ok;
}

}  // namespace sync_bench
