// Harness overhead: minimal hand-written CUDA loops against sync_bench's own benchmarks, in one
// process on one GPU, alternated three times (medians compared), so that clocks, context and host
// state are the same for both. If the harness (batching, checks, counters) added cost, sync_bench's
// per-step time would exceed the bare loop's. Both numbers are printed for the README.

#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_context.hpp"
#include "families.hpp"
#include "gpu_guard.hpp"

#ifndef SYNC_BENCH_MIN_TIME_UNIT
#define SYNC_BENCH_MIN_TIME_UNIT ""
#endif

namespace sync_bench::test {
namespace {

constexpr double kTolerancePercent = 5.0;

#define CHECK_CUDA(x) ASSERT_EQ((x), cudaSuccess) << #x
#define CHECK_CUBLAS(x) ASSERT_EQ((x), CUBLAS_STATUS_SUCCESS) << #x

__global__ void store_one(int* out, int v) {
  *out = v;
}

template <class T>
__global__ void fill(T* p, size_t count) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x)
    p[i] = T(float((i * 2654435761u) % 2001) / 1000.0f - 1.0f);
}

// Median over `repeats` of (GPU time of `batch` steps) / batch, in microseconds.
template <class Step>
double median_step_us(cudaStream_t stream, Step step, int batch, int repeats) {
  cudaEvent_t start, stop;
  EXPECT_EQ(cudaEventCreate(&start), cudaSuccess);
  EXPECT_EQ(cudaEventCreate(&stop), cudaSuccess);
  for (int i = 0; i < 3; ++i) step();  // warm-up
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  std::vector<double> samples;
  for (int r = 0; r < repeats; ++r) {
    EXPECT_EQ(cudaEventRecord(start, stream), cudaSuccess);
    for (int i = 0; i < batch; ++i) step();
    EXPECT_EQ(cudaEventRecord(stop, stream), cudaSuccess);
    EXPECT_EQ(cudaEventSynchronize(stop), cudaSuccess);
    float ms = 0;
    EXPECT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    samples.push_back(ms * 1e3 / batch);
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(start), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(stop), cudaSuccess);
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

// Keeps the per-step time of the benchmark Google Benchmark runs.
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
    static char arg0[] = "test_fidelity";
    static char arg1[] = "--benchmark_min_time=0.1" SYNC_BENCH_MIN_TIME_UNIT;
    static char* argv[] = {arg0, arg1, nullptr};
    int argc = 2;
    benchmark::Initialize(&argc, argv);
    register_all_families();
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
    create_bench_context(0);
  }
  static void TearDownTestSuite() { destroy_bench_context(); }

  void SetUp() override {
    SKIP_WITHOUT_GPU();
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  }
  void TearDown() override {
    if (stream) EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
  }
  cudaStream_t stream = nullptr;
};

double sync_bench_us(const std::string& name) {
  CaptureReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter, "^" + name + "/manual_time$");
  EXPECT_GT(reporter.us, 0.0) << name << " did not run";
  return reporter.us;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Alternates the hand-written loop and the benchmark kRounds times and compares their medians
// (this VM's host now and then slows one sample by 10%). One unmeasured run first brings the GPU
// to the clock and power state both then run in (a big GEMM drives an H100 into its power cap
// within a fraction of a second).
constexpr int kRounds = 5;

template <class Hand>
void compare(const std::string& name, Hand&& hand) {
  (void)hand();
  std::vector<double> h, b;
  for (int r = 0; r < kRounds; ++r) {
    h.push_back(hand());
    b.push_back(sync_bench_us(name));
  }
  const double reference = median(h), measured = median(b);
  const double diff = (measured - reference) / reference * 100.0;
  std::printf("fidelity: %-48s hand-written %10.3f us  sync_bench %10.3f us  (%+.1f%%)\n",
              name.c_str(), reference, measured, diff);
  EXPECT_LT(std::abs(diff), kTolerancePercent) << name;
}

TEST_F(Fidelity, NullKernelStreamSync) {
  int* out = nullptr;
  CHECK_CUDA(cudaMalloc(&out, sizeof(int)));
  compare("NullKernel/StreamSync", [&] {
    return median_step_us(
        stream,
        [&] {
          store_one<<<1, 1, 0, stream>>>(out, 1);
          cudaStreamSynchronize(stream);
        },
        1000, 15);
  });
  CHECK_CUDA(cudaFree(out));
}

TEST_F(Fidelity, PinnedHostToDevice256MiB) {
  constexpr size_t kBytes = size_t(256) << 20;
  void *host = nullptr, *device = nullptr;
  CHECK_CUDA(cudaMallocHost(&host, kBytes));
  CHECK_CUDA(cudaMalloc(&device, kBytes));
  compare("HostCopy/H2D/pinned/memcpy_async/bytes:" + std::to_string(kBytes), [&] {
    return median_step_us(
        stream,
        [&] {
          cudaMemcpyAsync(device, host, kBytes, cudaMemcpyHostToDevice, stream);
          cudaStreamSynchronize(stream);
        },
        4, 5);
  });
  CHECK_CUDA(cudaFree(device));
  CHECK_CUDA(cudaFreeHost(host));
}

// cublasGemmEx back to back on one stream, as Async enqueues them.
template <class T>
void compare_gemm(cudaStream_t stream, const std::string& name, cudaDataType_t type, int n,
                  int batch, int repeats) {
  T *a, *b, *c;
  void* workspace;
  const size_t count = size_t(n) * n;
  CHECK_CUDA(cudaMalloc(&a, count * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&b, count * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&c, count * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&workspace, 32 << 20));
  fill<<<1024, 256, 0, stream>>>(a, count);
  fill<<<1024, 256, 0, stream>>>(b, count);
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  CHECK_CUBLAS(cublasSetStream(handle, stream));
  CHECK_CUBLAS(cublasSetWorkspace(handle, workspace, 32 << 20));
  const float alpha = 1.0f, beta = 0.0f;
  compare(name, [&] {
    return median_step_us(
        stream,
        [&] {
          cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, type, n, b, type, n,
                       &beta, c, type, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        },
        batch, repeats);
  });
  CHECK_CUBLAS(cublasDestroy(handle));
  for (void* p : {(void*)a, (void*)b, (void*)c, workspace}) CHECK_CUDA(cudaFree(p));
}

TEST_F(Fidelity, SmallGemmAsync) {
  compare_gemm<__half>(stream, "SmallGemm/Async/fp16/cublas/n:512", CUDA_R_16F, 512, 1000, 15);
}

TEST_F(Fidelity, BigGemmAsync) {
  // 100 GEMMs a sample (0.16 s), about as long as the benchmark runs.
  compare_gemm<__nv_bfloat16>(stream, "BigGemm/Async/bf16/cublas/n:8192", CUDA_R_16BF, 8192, 10,
                              10);
}

}  // namespace
}  // namespace sync_bench::test
