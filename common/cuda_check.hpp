#pragma once
// One error path for every CUDA runtime and cuBLAS call: a failed call throws std::runtime_error
// naming the expression, the error and the place. Checks never synchronize: after a launch,
// CUDA_CHECK_LAST_LAUNCH reads cudaGetLastError() only.

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>

namespace sync_bench {

[[noreturn]] void throw_cuda_error(cudaError_t err, const char* expr, const char* file, int line);
[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* expr, const char* file,
                                     int line);
// For an allocation: out of memory throws Unsupported (a size that does not fit on this machine
// skips its benchmark with the reason, as a GEMM too big for the GPU does); any other failure
// throws as CUDA_CHECK does.
enum class Memory { device, pinned_host };
void check_allocation(cudaError_t err, Memory memory, std::size_t bytes, const char* expr,
                      const char* file, int line);
// For destructors: report to stderr and never throw.
void report_cuda_error(cudaError_t err, const char* expr, const char* file, int line) noexcept;
void report_cublas_error(cublasStatus_t status, const char* expr, const char* file,
                         int line) noexcept;

}  // namespace sync_bench

#define CUDA_CHECK(expr)                                                          \
  do {                                                                            \
    const cudaError_t sync_bench_err_ = (expr);                                   \
    if (sync_bench_err_ != cudaSuccess)                                           \
      ::sync_bench::throw_cuda_error(sync_bench_err_, #expr, __FILE__, __LINE__); \
  } while (0)

#define CUDA_CHECK_NOEXCEPT(expr)                                                  \
  do {                                                                             \
    const cudaError_t sync_bench_err_ = (expr);                                    \
    if (sync_bench_err_ != cudaSuccess)                                            \
      ::sync_bench::report_cuda_error(sync_bench_err_, #expr, __FILE__, __LINE__); \
  } while (0)

#define CUDA_CHECK_ALLOCATION(expr, memory, bytes) \
  ::sync_bench::check_allocation((expr), (memory), (bytes), #expr, __FILE__, __LINE__)

#define CUDA_CHECK_LAST_LAUNCH() CUDA_CHECK(cudaGetLastError())

#define CUBLAS_CHECK(expr)                                                             \
  do {                                                                                 \
    const cublasStatus_t sync_bench_status_ = (expr);                                  \
    if (sync_bench_status_ != CUBLAS_STATUS_SUCCESS)                                   \
      ::sync_bench::throw_cublas_error(sync_bench_status_, #expr, __FILE__, __LINE__); \
  } while (0)

#define CUBLAS_CHECK_NOEXCEPT(expr)                                                     \
  do {                                                                                  \
    const cublasStatus_t sync_bench_status_ = (expr);                                   \
    if (sync_bench_status_ != CUBLAS_STATUS_SUCCESS)                                    \
      ::sync_bench::report_cublas_error(sync_bench_status_, #expr, __FILE__, __LINE__); \
  } while (0)
