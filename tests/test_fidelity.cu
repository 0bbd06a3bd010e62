// Harness overhead: a minimal hand-written CUDA loop against sync_bench's own benchmark, in one
// process on one GPU, alternated three times (medians compared), so that clocks, context and host
// state are the same for both. If the harness (batching, checks, counters) added cost, sync_bench's
// per-step time would exceed the bare loop's. Both numbers are printed for the README.

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_context.hpp"
#include "families.hpp"
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

// Keeps the per-step time of each benchmark Google Benchmark runs.
class CaptureReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) us = run.GetAdjustedRealTime();  // the unit is microseconds
  }
  double us = 0.0;
};

class Fidelity : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!gpu_unavailable_reason().empty()) return;
    static char arg0[] = "test_fidelity", arg1[] = "--benchmark_min_time=0.1";
    static char* argv[] = {arg0, arg1, nullptr};
    int argc = 2;
    benchmark::Initialize(&argc, argv);
    register_all_families();
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
    create_bench_context(0);
  }
  static void TearDownTestSuite() { destroy_bench_context(); }
};

double sync_bench_us(const std::string& name) {
  CaptureReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter, "^" + name + "/manual_time$");
  EXPECT_GT(reporter.us, 0.0) << name << " did not run";
  return reporter.us;
}

double median3(double a, double b, double c) {
  return std::max(std::min(a, b), std::min(std::max(a, b), c));
}

// Alternates the two measurements three times and compares their medians.
template <class Hand>
void compare(const char* name, Hand&& hand) {
  double h[3], b[3];
  for (int r = 0; r < 3; ++r) {
    hand(&h[r]);
    b[r] = sync_bench_us(name);
  }
  const double reference = median3(h[0], h[1], h[2]), measured = median3(b[0], b[1], b[2]);
  const double diff = (measured - reference) / reference * 100.0;
  std::printf("fidelity: %-40s hand-written %8.3f us  sync_bench %8.3f us  (%+.1f%%)\n", name,
              reference, measured, diff);
  EXPECT_LT(std::abs(diff), 10.0) << name;
}

TEST_F(Fidelity, NullKernelStreamSyncMatchesAHandWrittenLoop) {
  SKIP_WITHOUT_GPU();
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int* out = nullptr;
  CHECK_CUDA(cudaMalloc(&out, sizeof(int)));
  compare("NullKernel/StreamSync", [&](double* us) {
    median_step_us(
        stream,
        [&](int i) {
          store_one<<<1, 1, 0, stream>>>(out, i);
          cudaStreamSynchronize(stream);
        },
        us);
  });
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaFree(out));
  CHECK_CUDA(cudaStreamDestroy(stream));
}

TEST_F(Fidelity, SmallGemmAsyncMatchesAHandWrittenLoop) {
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
  compare("SmallGemm/Async/fp16/cublas/n:512", [&](double* us) {
    median_step_us(
        stream,
        [&](int) {
          cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, CUDA_R_16F, n, b,
                       CUDA_R_16F, n, &beta, c, CUDA_R_16F, n, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT);
        },
        us);
  });
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUBLAS(cublasDestroy(handle));
  for (void* p : {(void*)a, (void*)b, (void*)c, workspace}) CHECK_CUDA(cudaFree(p));
  CHECK_CUDA(cudaStreamDestroy(stream));
}

}  // namespace
}  // namespace sync_bench::test
