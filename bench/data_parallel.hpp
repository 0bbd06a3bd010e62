#pragma once
// MultiGpu/DataParallel: one data-parallel training step on every selected GPU, one thread per
// GPU (rank_threads.hpp): a bf16 GEMM (the step's compute), an NCCL all-reduce of its output (the
// gradient sync), and the loss read to the host every `every` steps, or never (every = 0).
// The loss is one element of the all-reduced output. Built only where NCCL was found at configure
// time; elsewhere every DataParallel benchmark skips with the reason.

#include <benchmark/benchmark.h>

#include <string>

namespace sync_bench {

struct DataParallelCase {
  int n = 0;      // the GEMM's size (n x n x n)
  int every = 0;  // read the loss every `every` steps; 0: never (the paired baseline)
};

// Throws Unsupported with fewer than two GPUs, or when built without NCCL.
void run_data_parallel(benchmark::State& state, const DataParallelCase& c);

// For the run's context: "2.28.3, NCCL_NVLS_ENABLE=0", or why there is no NCCL. Sets
// NCCL_NVLS_ENABLE=0 unless the environment sets it (NVLink multicast stays off unless asked
// for), so call it before any NCCL call.
std::string prepare_nccl();

}  // namespace sync_bench
