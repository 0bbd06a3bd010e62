#include "lagged_reader.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "cuda_check.hpp"

namespace sync_bench {

LaggedReader::LaggedReader(const std::byte* source, std::size_t bytes, Check check,
                           cudaStream_t stream, Transport transport)
    : source_(source),
      bytes_(bytes),
      stride_((bytes + 15) / 16 * 16),
      check_(std::move(check)),
      stream_(stream),
      transport_(transport) {
  if (bytes == 0) throw std::invalid_argument("LaggedReader: nothing to read (0 bytes)");
  if (transport == Transport::copy) {
    slots_ = PinnedBuffer<std::byte>(kSlots * stride_);
    return;
  }
  if (bytes > MappedScalar::kMaxBytes)
    throw std::invalid_argument("LaggedReader: a mapped read takes at most " +
                                std::to_string(MappedScalar::kMaxBytes) + " bytes, not " +
                                std::to_string(bytes));
  for (auto& m : mapped_) m = std::make_unique<MappedScalar>();
}

void LaggedReader::hand_over(int slot_index) {
  if (transport_ == Transport::mapped) {
    published_seq_[slot_index] = mapped_[slot_index]->publish(source_, bytes_, stream_);
    return;
  }
  CUDA_CHECK(cudaMemcpyAsync(slot(slot_index), source_, bytes_, cudaMemcpyDeviceToHost, stream_));
  CUDA_CHECK(cudaEventRecord(copied_[slot_index].get(), stream_));
}

const std::byte* LaggedReader::await(int slot_index) {
  if (transport_ == Transport::mapped) {
    mapped_[slot_index]->wait(published_seq_[slot_index], stream_);
    return mapped_[slot_index]->value();
  }
  CUDA_CHECK(cudaEventSynchronize(copied_[slot_index].get()));
  return slot(slot_index);
}

bool LaggedReader::read(std::int64_t step) {
  const int next = (pending_slot_ + 1) % kSlots;
  hand_over(next);
  const bool ok = finish();
  pending_slot_ = next;
  pending_step_ = step;
  return ok;
}

bool LaggedReader::finish() {
  if (!pending_step_) return true;
  const bool ok = check_(await(pending_slot_), *pending_step_);
  pending_step_.reset();
  return ok;
}

}  // namespace sync_bench
