#pragma once
// Device helpers of MultiGpu: the kernel on the second GPU that reads what the first one wrote,
// and its baseline twin. They enqueue on the given stream (of the current device) and never
// synchronize.

#include <cuda_runtime_api.h>

namespace sync_bench {

// One thread: reads *in (memory both GPUs can reach: mapped host memory), stores it to *out, and
// adds 1 to *misreads unless it is `expected`. Not atomic: the kernels that share *misreads must
// run one after another (one stream).
void launch_forward_kernel(const int* in, int expected, int* out, int* misreads,
                           cudaStream_t stream);

// The same memory traffic with nothing to check: reads *in (its value unused: nothing orders it
// after the writer) and stores `value` to *out, so that the host can see the kernel ran.
void launch_read_then_stamp_kernel(const int* in, int value, int* out, cudaStream_t stream);

}  // namespace sync_bench
