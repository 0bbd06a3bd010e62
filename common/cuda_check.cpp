#include "cuda_check.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

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
