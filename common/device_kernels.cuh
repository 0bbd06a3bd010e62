#pragma once
// Small device helpers that set up and check the work sync_bench measures. None of them
// synchronizes: each enqueues on the given stream and checks the launch with cudaGetLastError.

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "dtype.hpp"

namespace sync_bench {

// Uniform values in [-1, 1) from a counter-based hash: reproducible, never all zeros.
void fill_uniform(void* data, Dtype dtype, std::size_t count, std::uint32_t seed,
                  cudaStream_t stream);

// out[i] = -in[i]: exact in every format.
void negate(const void* in, void* out, Dtype dtype, std::size_t count, cudaStream_t stream);

// Writes NaN everywhere, so an element the op fails to write is caught by count_nonfinite.
void fill_nan(void* data, Dtype dtype, std::size_t count, cudaStream_t stream);

// Adds the number of NaN/Inf elements to *device_count.
void count_nonfinite(const void* data, Dtype dtype, std::size_t count,
                     unsigned long long* device_count, cudaStream_t stream);

// Float64 reference of C = A * B (column-major, n x n; A^T * B when a_transposed) at the given
// linear indices of C, from the stored inputs of the dtype.
void gemm_reference_at(const void* a, const void* b, Dtype dtype, int n, bool a_transposed,
                       const std::int64_t* device_indices, double* device_out,
                       std::size_t sample_count, cudaStream_t stream);

// out[i] = element indices[i] of data, as double.
void gather_to_double(const void* data, Dtype dtype, const std::int64_t* device_indices,
                      double* device_out, std::size_t count, cudaStream_t stream);

// The smallest kernel whose result can be read back: one thread stores `value` to *out.
void launch_null_kernel(int* out, int value, cudaStream_t stream);

// Holds a stream busy for a known time: one thread busy-waits `ns` nanoseconds of the GPU's
// global timer (independent of the SM clock, which boosts and throttles), then, if `out` is not
// null, stores `value` to *out (device memory or mapped host memory).
void launch_spin_kernel(std::uint64_t ns, cudaStream_t stream, int* out = nullptr, int value = 0);

// One thread copies `bytes` of device memory at `src` to `value` (mapped host memory), then
// stores `seq` to *seq_out behind __threadfence_system(): a host that polls *seq_out and sees
// `seq` finds the copied bytes in place (common/mapped_scalar.hpp).
void launch_publish_kernel(const void* src, std::size_t bytes, void* value, std::uint32_t* seq_out,
                           std::uint32_t seq, cudaStream_t stream);

// Host-side conversion of one stored element to double.
double element_to_double(const void* element, Dtype dtype);

}  // namespace sync_bench
