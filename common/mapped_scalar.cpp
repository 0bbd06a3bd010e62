#include "mapped_scalar.hpp"

#include <stdexcept>
#include <string>

#include "cuda_check.hpp"
#include "device_kernels.cuh"

namespace sync_bench {

MappedScalar::MappedScalar() : slot_(1) {
  slot_.get()->seq = 0;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  device_slot_ = slot_.on_device(device);
}

std::uint32_t MappedScalar::publish(const void* src, std::size_t bytes, cudaStream_t stream) {
  if (bytes > kMaxBytes)
    throw std::invalid_argument("MappedScalar: " + std::to_string(bytes) + " bytes, at most " +
                                std::to_string(kMaxBytes));
  if (!last_awaited_)
    throw std::logic_error("MappedScalar: publish before the wait for sequence number " +
                           std::to_string(last_seq_) + " returned; the slot holds one value");
  last_seq_ = last_seq_ == UINT32_MAX ? 1 : last_seq_ + 1;
  launch_publish_kernel(src, bytes, device_slot_->value, &device_slot_->seq, last_seq_, stream);
  last_awaited_ = false;
  return last_seq_;
}

void MappedScalar::wait(std::uint32_t seq, cudaStream_t stream) {
  const std::uint32_t* word = &slot_.get()->seq;
  // Acquire: the value's bytes, stored before the number behind the kernel's system fence, are
  // read after it.
  const auto arrived = [&] { return __atomic_load_n(word, __ATOMIC_ACQUIRE) == seq; };
  // The clock is read once every 4096 polls, so that a wait of microseconds is polls alone.
  using Clock = std::chrono::steady_clock;
  Clock::time_point since{};
  for (std::uint32_t polls = 1; !arrived(); ++polls) {
    if (polls % 4096 != 0) continue;
    const Clock::time_point now = Clock::now();
    if (since == Clock::time_point{}) since = now;
    if (now - since < kStallCheck) continue;
    const cudaError_t status = cudaStreamQuery(stream);
    if (status == cudaErrorNotReady) {  // kept as no last error (a GpuOps test checks it)
      since = now;
      continue;
    }
    CUDA_CHECK(status);
    if (arrived()) break;
    throw std::runtime_error("MappedScalar: the stream ended and sequence number " +
                             std::to_string(seq) + " never arrived (the slot holds " +
                             std::to_string(__atomic_load_n(word, __ATOMIC_ACQUIRE)) + ")");
  }
  if (seq == last_seq_) last_awaited_ = true;
}

}  // namespace sync_bench
