// Harness overhead: a minimal hand-written CUDA loop against sync_bench on the same GPU in the
// same test run. If the harness (batching, lambdas, checks, counters) added cost, sync_bench's
// per-step time would exceed the bare loop's. Both numbers are printed for the README.

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "command.hpp"
#include "gpu_guard.hpp"

namespace sync_bench::test {
namespace {

#define CHECK_CUDA(x) ASSERT_EQ((x), cudaSuccess) << #x
#define CHECK_CUBLAS(x) ASSERT_EQ((x), CUBLAS_STATUS_SUCCESS) << #x

__global__ void store_one(int* out, int v) {
  *out = v;
}

__global__ void fill(__half* p, size_t count) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x)
    p[i] = __float2half(float((i * 2654435761u) % 2001) / 1000.0f - 1.0f);
}

constexpr int kBatch = 1000;
constexpr int kRepeats = 15;

// Median over repeats of (GPU time of kBatch steps) / kBatch, in microseconds.
template <class Step>
void median_step_us(cudaStream_t stream, Step step, double* out) {
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  for (int i = 0; i < 50; ++i) step(i);  // warm-up
  CHECK_CUDA(cudaStreamSynchronize(stream));
  std::vector<double> samples;
  for (int r = 0; r < kRepeats; ++r) {
    CHECK_CUDA(cudaEventRecord(start, stream));
    for (int i = 0; i < kBatch; ++i) step(i);
    CHECK_CUDA(cudaEventRecord(stop, stream));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    samples.push_back(ms * 1e3 / kBatch);
  }
  std::sort(samples.begin(), samples.end());
  *out = samples[samples.size() / 2];
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
}

double sync_bench_us(const std::string& name) {
  const nlohmann::json run = run_sync_bench_json("--benchmark_filter='^" + name +
                                                 "/manual_time$' --benchmark_min_time=0.2");
  for (const auto& b : run["benchmarks"]) return b.at("real_time").get<double>();
  ADD_FAILURE() << "no result for " << name;
  return 0.0;
}

void expect_close(const char* what, double reference, double measured) {
  const double diff = (measured - reference) / reference * 100.0;
  std::printf("fidelity: %-40s hand-written %8.3f us  sync_bench %8.3f us  (%+.1f%%)\n", what,
              reference, measured, diff);
  EXPECT_LT(std::abs(diff), 10.0) << what;
}

TEST(Fidelity, NullKernelStreamSyncMatchesAHandWrittenLoop) {
  SKIP_WITHOUT_GPU();
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int* out = nullptr;
  CHECK_CUDA(cudaMalloc(&out, sizeof(int)));
  double hand = 0;
  median_step_us(
      stream,
      [&](int i) {
        store_one<<<1, 1, 0, stream>>>(out, i);
        cudaStreamSynchronize(stream);
      },
      &hand);
  CHECK_CUDA(cudaGetLastError());
  expect_close("NullKernel/StreamSync", hand, sync_bench_us("NullKernel/StreamSync"));
  CHECK_CUDA(cudaFree(out));
  CHECK_CUDA(cudaStreamDestroy(stream));
}

TEST(Fidelity, SmallGemmAsyncMatchesAHandWrittenLoop) {
  SKIP_WITHOUT_GPU();
  constexpr int n = 512;
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  __half *a, *b, *c;
  void* workspace;
  CHECK_CUDA(cudaMalloc(&a, n * n * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&b, n * n * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&c, n * n * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&workspace, 32 << 20));
  fill<<<256, 256, 0, stream>>>(a, n * n);
  fill<<<256, 256, 0, stream>>>(b, n * n);
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  CHECK_CUBLAS(cublasSetStream(handle, stream));
  CHECK_CUBLAS(cublasSetWorkspace(handle, workspace, 32 << 20));
  const float alpha = 1.0f, beta = 0.0f;
  double hand = 0;
  median_step_us(
      stream,
      [&](int) {
        cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, CUDA_R_16F, n, b,
                     CUDA_R_16F, n, &beta, c, CUDA_R_16F, n, CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT);
      },
      &hand);
  CHECK_CUDA(cudaGetLastError());
  expect_close("SmallGemm/Async/fp16/cublas/n:512", hand,
               sync_bench_us("SmallGemm/Async/fp16/cublas/n:512"));
  CHECK_CUBLAS(cublasDestroy(handle));
  for (void* p : {(void*)a, (void*)b, (void*)c, workspace}) CHECK_CUDA(cudaFree(p));
  CHECK_CUDA(cudaStreamDestroy(stream));
}

}  // namespace
}  // namespace sync_bench::test
