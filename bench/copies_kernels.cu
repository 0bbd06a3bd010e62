#include "copies_kernels.cuh"

#include "cuda_check.hpp"
#include "cuda_resources.hpp"
#include "device_helpers.cuh"

namespace sync_bench {
namespace {

constexpr int kThreads = 256;

int blocks_for(std::size_t count) {
  const std::size_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < 4096 ? (blocks > 0 ? blocks : 1) : 4096);
}

__host__ __device__ std::uint32_t pattern_hash(std::uint64_t i, std::uint32_t seed) {
  return mix_hash(seed, i);
}

__global__ void fill_pattern_kernel(std::uint32_t* data, std::size_t words, std::uint32_t seed) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < words;
       i += std::size_t(gridDim.x) * blockDim.x)
    data[i] = pattern_hash(i, seed);
}

__global__ void count_mismatches_kernel(const std::uint32_t* data, std::size_t first,
                                        std::size_t words, std::uint32_t seed,
                                        unsigned long long* count) {
  unsigned long long local = 0;
  for (std::size_t i = first + std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < words;
       i += std::size_t(gridDim.x) * blockDim.x)
    local += data[i] != pattern_hash(i, seed);
  if (local) atomicAdd(count, local);
}

__global__ void fill_words_kernel(std::uint32_t* data, std::size_t words, std::uint32_t value) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < words;
       i += std::size_t(gridDim.x) * blockDim.x)
    data[i] = value;
}

__global__ void probe_words_kernel(const std::uint32_t* data, std::size_t words,
                                   std::uint32_t value, unsigned long long* bad,
                                   std::uint32_t* last) {
  if (data[0] != value || data[words / 2] != value || data[words - 1] != value) atomicAdd(bad, 1);
  *last = data[words - 1];
}

}  // namespace

std::uint32_t pattern_word(std::size_t i, std::uint32_t seed) {
  return pattern_hash(i, seed);
}

void fill_pattern(std::uint32_t* data, std::size_t words, std::uint32_t seed, cudaStream_t stream) {
  fill_pattern_kernel<<<blocks_for(words), kThreads, 0, stream>>>(data, words, seed);
  CUDA_CHECK_LAST_LAUNCH();
}

void count_pattern_mismatches(const std::uint32_t* data, std::size_t first, std::size_t words,
                              std::uint32_t seed, unsigned long long* device_count,
                              cudaStream_t stream) {
  if (first >= words) return;
  count_mismatches_kernel<<<blocks_for(words - first), kThreads, 0, stream>>>(data, first, words,
                                                                              seed, device_count);
  CUDA_CHECK_LAST_LAUNCH();
}

std::uint64_t pattern_mismatches(const std::uint32_t* data, std::size_t first, std::size_t words,
                                 std::uint32_t seed, cudaStream_t stream) {
  DeviceBuffer<unsigned long long> count(1);
  unsigned long long host = 0;
  CUDA_CHECK(cudaMemsetAsync(count.get(), 0, count.bytes(), stream));
  count_pattern_mismatches(data, first, words, seed, count.get(), stream);
  CUDA_CHECK(cudaMemcpyAsync(&host, count.get(), sizeof(host), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

void fill_words(std::uint32_t* data, std::size_t words, std::uint32_t value, cudaStream_t stream) {
  fill_words_kernel<<<blocks_for(words), kThreads, 0, stream>>>(data, words, value);
  CUDA_CHECK_LAST_LAUNCH();
}

void probe_words(const std::uint32_t* data, std::size_t words, std::uint32_t value,
                 unsigned long long* device_bad, std::uint32_t* device_last, cudaStream_t stream) {
  probe_words_kernel<<<1, 1, 0, stream>>>(data, words, value, device_bad, device_last);
  CUDA_CHECK_LAST_LAUNCH();
}

}  // namespace sync_bench
