#pragma once
// Helpers shared by the .cu files that make and check device data (nvcc only).

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>

#include "dtype.hpp"

namespace sync_bench {

// A 64-bit mix (MurmurHash3's finalizer) of a seed and an index: reproducible pseudo-random
// values that the host and the device compute alike.
__host__ __device__ inline std::uint32_t mix_hash(std::uint32_t seed, std::uint64_t index) {
  std::uint64_t x = (std::uint64_t(seed) << 40) ^ index;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return static_cast<std::uint32_t>(x);
}

// Any stored element as float (exact for every storage type here).
__device__ inline float to_float(float v) {
  return v;
}
__device__ inline float to_float(__half v) {
  return __half2float(v);
}
__device__ inline float to_float(__nv_bfloat16 v) {
  return __bfloat162float(v);
}
__device__ inline float to_float(__nv_fp8_e4m3 v) {
  return static_cast<float>(v);
}

// Calls f with a typed null pointer that names the storage type of the dtype.
template <class F>
void with_storage_type(Dtype dtype, F&& f) {
  switch (traits(dtype).storage) {
    case CUDA_R_16F:
      f(static_cast<__half*>(nullptr));
      return;
    case CUDA_R_16BF:
      f(static_cast<__nv_bfloat16*>(nullptr));
      return;
    case CUDA_R_8F_E4M3:
      f(static_cast<__nv_fp8_e4m3*>(nullptr));
      return;
    default:
      f(static_cast<float*>(nullptr));
      return;
  }
}

}  // namespace sync_bench
