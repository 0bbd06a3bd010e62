#include "device_kernels.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "cuda_check.hpp"
#include "device_helpers.cuh"

namespace sync_bench {
namespace {

constexpr int kThreads = 256;

int blocks_for(std::size_t count) {
  const std::size_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < 65535 * 8 ? blocks : 65535 * 8);
}

template <class T>
__device__ T from_float(float v) {
  return static_cast<T>(v);
}
template <>
__device__ __half from_float<__half>(float v) {
  return __float2half(v);
}
template <>
__device__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16(v);
}
template <>
__device__ __nv_fp8_e4m3 from_float<__nv_fp8_e4m3>(float v) {
  return __nv_fp8_e4m3(v);  // round to nearest, saturating
}

template <class T>
__device__ double to_double(T v) {
  return to_float(v);  // exact: every storage type here fits in a float
}

template <class T>
__global__ void fill_uniform_kernel(T* data, std::size_t count, std::uint32_t seed) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const std::uint32_t h = mix_hash(seed, i);
    data[i] = from_float<T>(static_cast<float>(h) * (2.0f / 4294967296.0f) - 1.0f);
  }
}

template <class T>
__global__ void negate_kernel(const T* in, T* out, std::size_t count) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = from_float<T>(-to_float(in[i]));  // exact: a sign flip
}

template <class T>
__global__ void fill_nan_kernel(T* data, std::size_t count) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    data[i] = from_float<T>(__int_as_float(0x7fc00000));
}

template <class T>
__global__ void count_nonfinite_kernel(const T* data, std::size_t count,
                                       unsigned long long* result) {
  unsigned long long local = 0;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    local += isfinite(to_double(data[i])) ? 0 : 1;
  if (local) atomicAdd(result, local);
}

// One warp per sampled element: lanes split the k loop, then reduce in float64. a_transposed:
// C = A^T * B.
template <class T>
__global__ void gemm_reference_kernel(const T* a, const T* b, int n, bool a_transposed,
                                      const std::int64_t* indices, double* out,
                                      std::size_t samples) {
  const std::size_t warp = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= samples) return;
  const std::int64_t idx = indices[warp];
  const std::int64_t row = idx % n, col = idx / n;
  double sum = 0.0;
  const std::int64_t a_row_step = a_transposed ? n : 1, a_k_step = a_transposed ? 1 : n;
  for (int k = lane; k < n; k += 32)
    sum += to_double(a[row * a_row_step + k * a_k_step]) * to_double(b[k + col * std::int64_t(n)]);
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) out[warp] = sum;
}

template <class T>
__global__ void gather_kernel(const T* data, const std::int64_t* indices, double* out,
                              std::size_t count) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = to_double(data[indices[i]]);
}

__global__ void null_kernel(int* out, int value) {
  *out = value;
}

__device__ std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The value first, then the sequence number behind a system-wide fence: a host that sees the
// number sees the value.
__global__ void publish_kernel(const unsigned char* src, unsigned bytes, unsigned char* value,
                               std::uint32_t* seq_out, std::uint32_t seq) {
  for (unsigned i = 0; i < bytes; ++i) static_cast<volatile unsigned char*>(value)[i] = src[i];
  __threadfence_system();
  *static_cast<volatile std::uint32_t*>(seq_out) = seq;
}

__global__ void spin_kernel(std::uint64_t ns, int* out, int value) {
  const std::uint64_t start = global_ns();
  while (global_ns() - start < ns) {
  }
  if (out) {
    *static_cast<volatile int*>(out) = value;
    __threadfence_system();  // visible to a host that polls mapped memory
  }
}

}  // namespace

void fill_uniform(void* data, Dtype dtype, std::size_t count, std::uint32_t seed,
                  cudaStream_t stream) {
  with_storage_type(dtype, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    fill_uniform_kernel<<<blocks_for(count), kThreads, 0, stream>>>(static_cast<T*>(data), count,
                                                                    seed);
  });
  CUDA_CHECK_LAST_LAUNCH();
}

void negate(const void* in, void* out, Dtype dtype, std::size_t count, cudaStream_t stream) {
  with_storage_type(dtype, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    negate_kernel<<<blocks_for(count), kThreads, 0, stream>>>(static_cast<const T*>(in),
                                                              static_cast<T*>(out), count);
  });
  CUDA_CHECK_LAST_LAUNCH();
}

void fill_nan(void* data, Dtype dtype, std::size_t count, cudaStream_t stream) {
  with_storage_type(dtype, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    fill_nan_kernel<<<blocks_for(count), kThreads, 0, stream>>>(static_cast<T*>(data), count);
  });
  CUDA_CHECK_LAST_LAUNCH();
}

void count_nonfinite(const void* data, Dtype dtype, std::size_t count,
                     unsigned long long* device_count, cudaStream_t stream) {
  with_storage_type(dtype, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    count_nonfinite_kernel<<<blocks_for(count), kThreads, 0, stream>>>(static_cast<const T*>(data),
                                                                       count, device_count);
  });
  CUDA_CHECK_LAST_LAUNCH();
}

void gemm_reference_at(const void* a, const void* b, Dtype dtype, int n, bool a_transposed,
                       const std::int64_t* device_indices, double* device_out,
                       std::size_t sample_count, cudaStream_t stream) {
  const int blocks = static_cast<int>((sample_count * 32 + kThreads - 1) / kThreads);
  with_storage_type(dtype, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    gemm_reference_kernel<<<blocks, kThreads, 0, stream>>>(
        static_cast<const T*>(a), static_cast<const T*>(b), n, a_transposed, device_indices,
        device_out, sample_count);
  });
  CUDA_CHECK_LAST_LAUNCH();
}

void gather_to_double(const void* data, Dtype dtype, const std::int64_t* device_indices,
                      double* device_out, std::size_t count, cudaStream_t stream) {
  with_storage_type(dtype, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    gather_kernel<<<blocks_for(count), kThreads, 0, stream>>>(static_cast<const T*>(data),
                                                              device_indices, device_out, count);
  });
  CUDA_CHECK_LAST_LAUNCH();
}

void launch_null_kernel(int* out, int value, cudaStream_t stream) {
  null_kernel<<<1, 1, 0, stream>>>(out, value);
  CUDA_CHECK_LAST_LAUNCH();
}

void launch_spin_kernel(std::uint64_t ns, cudaStream_t stream, int* out, int value) {
  spin_kernel<<<1, 1, 0, stream>>>(ns, out, value);
  CUDA_CHECK_LAST_LAUNCH();
}

void launch_publish_kernel(const void* src, std::size_t bytes, void* value, std::uint32_t* seq_out,
                           std::uint32_t seq, cudaStream_t stream) {
  publish_kernel<<<1, 1, 0, stream>>>(static_cast<const unsigned char*>(src),
                                      static_cast<unsigned>(bytes),
                                      static_cast<unsigned char*>(value), seq_out, seq);
  CUDA_CHECK_LAST_LAUNCH();
}

double element_to_double(const void* element, Dtype dtype) {
  switch (traits(dtype).storage) {
    case CUDA_R_16F:
      return __half2float(*static_cast<const __half*>(element));
    case CUDA_R_16BF:
      return __bfloat162float(*static_cast<const __nv_bfloat16*>(element));
    case CUDA_R_8F_E4M3:
      return static_cast<float>(*static_cast<const __nv_fp8_e4m3*>(element));
    default:
      return *static_cast<const float*>(element);
  }
}

}  // namespace sync_bench
