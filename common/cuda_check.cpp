#include "cuda_check.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

#include "unsupported.hpp"

namespace sync_bench {

void throw_cuda_error(cudaError_t err, const char* expr, const char* file, int line) {
  // Clear a non-sticky error so that the next benchmark starts clean; a sticky one (a fault in a
  // kernel) stays and makes every later call fail loudly, which is what we want.
  (void)cudaGetLastError();
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " +
                           cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ") in " + expr);
}

void throw_cublas_error(cublasStatus_t status, const char* expr, const char* file, int line) {
  (void)cudaGetLastError();
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " +
                           cublasGetStatusName(status) + " (" + cublasGetStatusString(status) +
                           ") in " + expr);
}

void check_allocation(cudaError_t err, Memory memory, std::size_t bytes, const char* expr,
                      const char* file, int line) {
  if (err == cudaSuccess) return;
  if (err != cudaErrorMemoryAllocation) throw_cuda_error(err, expr, file, line);
  (void)cudaGetLastError();
  std::string what = std::to_string(bytes >> 20) + " MiB of ";
  if (memory == Memory::device) {
    std::size_t free_bytes = 0, total_bytes = 0;
    what += "device memory does not fit";
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
      what += " (" + std::to_string(free_bytes >> 20) + " MiB free)";
    else
      (void)cudaGetLastError();
  } else {
    what += "pinned host memory could not be allocated";
  }
  throw Unsupported(what);
}

void report_cuda_error(cudaError_t err, const char* expr, const char* file, int line) noexcept {
  std::fprintf(stderr, "%s:%d: %s in %s (ignored in a destructor)\n", file, line,
               cudaGetErrorName(err), expr);
}

void report_cublas_error(cublasStatus_t status, const char* expr, const char* file,
                         int line) noexcept {
  std::fprintf(stderr, "%s:%d: %s in %s (ignored in a destructor)\n", file, line,
               cublasGetStatusName(status), expr);
}

}  // namespace sync_bench
