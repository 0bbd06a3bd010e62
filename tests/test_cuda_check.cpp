// The error path every CUDA call goes through: which failures skip a benchmark (a size that does
// not fit) and which fail it. Runs anywhere: the error codes are given, not provoked.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "cuda_check.hpp"
#include "unsupported.hpp"

namespace sync_bench {
namespace {

std::string message_of(cudaError_t err, Memory memory, std::size_t bytes) {
  try {
    CUDA_CHECK_ALLOCATION(err, memory, bytes);
  } catch (const Unsupported& e) {
    return std::string("unsupported: ") + e.what();
  } catch (const std::runtime_error& e) {
    return std::string("error: ") + e.what();
  }
  return "no throw";
}

TEST(CudaCheck, OutOfDeviceMemoryIsAnUnsupportedSize) {
  const std::string m = message_of(cudaErrorMemoryAllocation, Memory::device, 3u << 20);
  EXPECT_EQ(m.rfind("unsupported: 3 MiB of device memory does not fit", 0), 0u) << m;
}

TEST(CudaCheck, OutOfPinnedHostMemoryIsAnUnsupportedSize) {
  const std::string m = message_of(cudaErrorMemoryAllocation, Memory::pinned_host, 256u << 20);
  EXPECT_EQ(m, "unsupported: 256 MiB of pinned host memory could not be allocated");
}

TEST(CudaCheck, AnyOtherAllocationFailureIsAnError) {
  const std::string m = message_of(cudaErrorInvalidValue, Memory::device, 1u << 20);
  EXPECT_EQ(m.rfind("error: ", 0), 0u) << m;
  EXPECT_NE(m.find("cudaErrorInvalidValue"), std::string::npos) << m;
  EXPECT_NE(m.find("test_cuda_check.cpp"), std::string::npos) << "names the place: " << m;
}

TEST(CudaCheck, SuccessDoesNotThrow) {
  EXPECT_EQ(message_of(cudaSuccess, Memory::device, 1), "no throw");
}

}  // namespace
}  // namespace sync_bench
