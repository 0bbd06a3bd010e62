#include "multi_gpu_kernels.cuh"

#include "cuda_check.hpp"

namespace sync_bench {
namespace {

__global__ void forward_kernel(const int* in, int expected, int* out, int* misreads) {
  const int value = *static_cast<const volatile int*>(in);
  *static_cast<volatile int*>(out) = value;
  if (value != expected) {
    volatile int* const count = misreads;
    *count = *count + 1;
  }
}

// `zero` is 0, passed at run time so that the compiler cannot drop the read: the store waits for
// the load's round trip, as forward_kernel's does.
__global__ void read_then_stamp_kernel(const int* in, int value, int* out, int zero) {
  const int read = *static_cast<const volatile int*>(in);
  *static_cast<volatile int*>(out) = value | (read & zero);
}

}  // namespace

void launch_read_then_stamp_kernel(const int* in, int value, int* out, cudaStream_t stream) {
  read_then_stamp_kernel<<<1, 1, 0, stream>>>(in, value, out, 0);
  CUDA_CHECK_LAST_LAUNCH();
}

void launch_forward_kernel(const int* in, int expected, int* out, int* misreads,
                           cudaStream_t stream) {
  forward_kernel<<<1, 1, 0, stream>>>(in, expected, out, misreads);
  CUDA_CHECK_LAST_LAUNCH();
}

}  // namespace sync_bench
