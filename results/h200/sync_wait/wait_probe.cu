// Does a sync cost more when the host has waited longer? Each step is a kernel that keeps the GPU
// busy for X us (one thread reading %globaltimer), optionally preceded by a small cuBLAS GEMM, then
// (pattern "sync") cudaDeviceSynchronize, or (pattern "async") nothing. The kernel stamps its own
// start and end with %globaltimer, so the GPU's idle gap between one step's busy kernel and the
// next is measured on the GPU; the host times its first launch call of each step, which in "sync"
// follows the return of a wait of about X us. Rounds of one batch per X and pattern, the pattern
// order flipped every round, so that slow and fast stretches of the host fall on both.
//   nvcc -O2 -arch=sm_90 -o wait_probe wait_probe.cu -lcublas
//   ./wait_probe spin|yield|blocking|auto kernel|gemm [ROUNDS]
// Prints one line per X and pattern: us, medians and 90th percentiles over the steps.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(call)                                                                               \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)
#define CHECK_BLAS(call)                                                        \
  do {                                                                          \
    cublasStatus_t s_ = (call);                                                 \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                          \
      std::fprintf(stderr, "%s:%d: %s: status %d\n", __FILE__, __LINE__, #call, \
                   static_cast<int>(s_));                                       \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void busy(unsigned long long ns, unsigned long long* stamps) {
  const unsigned long long start = global_ns();
  while (global_ns() - start < ns) {
  }
  stamps[0] = start;
  stamps[1] = global_ns();
}

using Clock = std::chrono::steady_clock;
double us_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * (v.size() - 1) + 0.5)];
}

struct Series {
  std::vector<double> launch_us, gap_us;  // per step after the first of each batch
  std::vector<double> round_gap_median;   // per round: the batch's median gap
  long migrations = 0, involuntary_switches = 0, voluntary_switches = 0, steps = 0;
};

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: wait_probe spin|yield|blocking|auto kernel|gemm [ROUNDS]\n");
    return 2;
  }
  const std::string mode = argv[1], step_kind = argv[2];
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 15;
  unsigned flags = cudaDeviceScheduleAuto;
  if (mode == "spin")
    flags = cudaDeviceScheduleSpin;
  else if (mode == "yield")
    flags = cudaDeviceScheduleYield;
  else if (mode == "blocking")
    flags = cudaDeviceScheduleBlockingSync;
  else if (mode != "auto")
    return std::fprintf(stderr, "unknown mode %s\n", mode.c_str()), 2;
  if (step_kind != "kernel" && step_kind != "gemm")
    return std::fprintf(stderr, "unknown step %s\n", step_kind.c_str()), 2;
  CHECK(cudaSetDeviceFlags(flags));
  const bool with_gemm = step_kind == "gemm";

  const std::vector<double> waits_us = {0, 10, 30, 100, 300, 1000, 3000};
  const int batch = 20;
  const int patterns = 2;  // 0 async, 1 sync
  const std::size_t slots =
      static_cast<std::size_t>(rounds) * waits_us.size() * patterns * batch * 2;
  unsigned long long* stamps = nullptr;
  CHECK(cudaMalloc(&stamps, slots * sizeof(unsigned long long)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cublasHandle_t blas;
  CHECK_BLAS(cublasCreate(&blas));
  CHECK_BLAS(cublasSetStream(blas, s));
  const int n = 512;
  __nv_bfloat16 *a = nullptr, *b = nullptr, *c = nullptr;
  CHECK(cudaMalloc(&a, n * n * sizeof(__nv_bfloat16)));
  CHECK(cudaMalloc(&b, n * n * sizeof(__nv_bfloat16)));
  CHECK(cudaMalloc(&c, n * n * sizeof(__nv_bfloat16)));
  CHECK(cudaMemsetAsync(a, 0, n * n * sizeof(__nv_bfloat16), s));
  CHECK(cudaMemsetAsync(b, 0, n * n * sizeof(__nv_bfloat16), s));
  const float alpha = 1.0f, beta = 0.0f;
  auto gemm = [&] {
    CHECK_BLAS(cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, CUDA_R_16BF, n, b,
                            CUDA_R_16BF, n, &beta, c, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT));
  };
  for (int i = 0; i < 50; ++i) {  // warm-up: module loading, cuBLAS's first-call setup
    if (with_gemm) gemm();
    busy<<<1, 1, 0, s>>>(1000, stamps);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<Series> series(waits_us.size() * patterns);
  std::vector<double> host_launch(batch);
  std::vector<int> cpu_before(batch), cpu_after(batch);
  std::size_t slot = 0;
  struct BatchRef {
    std::size_t series, first_slot;
  };
  std::vector<BatchRef> batches;
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t w = 0; w < waits_us.size(); ++w) {
      for (int k = 0; k < patterns; ++k) {
        const int pattern = (r % 2 == 0) ? k : 1 - k;
        Series& out = series[w * patterns + pattern];
        const auto ns = static_cast<unsigned long long>(waits_us[w] * 1000.0);
        rusage before{}, after{};
        getrusage(RUSAGE_THREAD, &before);
        for (int i = 0; i < batch; ++i) {
          cpu_before[i] = sched_getcpu();
          const Clock::time_point t0 = Clock::now();
          if (with_gemm)
            gemm();
          else
            busy<<<1, 1, 0, s>>>(ns, stamps + 2 * (slot + i));
          const Clock::time_point t1 = Clock::now();
          if (with_gemm) busy<<<1, 1, 0, s>>>(ns, stamps + 2 * (slot + i));
          if (pattern == 1) CHECK(cudaDeviceSynchronize());
          cpu_after[i] = sched_getcpu();
          host_launch[i] = us_between(t0, t1);
        }
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());  // not part of any step: the batch drains
        getrusage(RUSAGE_THREAD, &after);
        for (int i = 1; i < batch; ++i) {
          out.launch_us.push_back(host_launch[i]);
          out.migrations += cpu_before[i] != cpu_after[i - 1];
        }
        out.involuntary_switches += after.ru_nivcsw - before.ru_nivcsw;
        out.voluntary_switches += after.ru_nvcsw - before.ru_nvcsw;
        out.steps += batch;
        batches.push_back({w * patterns + pattern, slot});
        slot += batch;
      }
    }
  }
  std::vector<unsigned long long> host_stamps(2 * slot);
  CHECK(cudaMemcpy(host_stamps.data(), stamps, host_stamps.size() * sizeof(unsigned long long),
                   cudaMemcpyDeviceToHost));
  for (const BatchRef& ref : batches) {
    std::vector<double> gaps;
    for (int i = 1; i < batch; ++i) {
      const unsigned long long prev_end = host_stamps[2 * (ref.first_slot + i - 1) + 1];
      const unsigned long long start = host_stamps[2 * (ref.first_slot + i)];
      gaps.push_back((static_cast<double>(start) - static_cast<double>(prev_end)) / 1000.0);
    }
    series[ref.series].gap_us.insert(series[ref.series].gap_us.end(), gaps.begin(), gaps.end());
    series[ref.series].round_gap_median.push_back(quantile(gaps, 0.5));
  }

  std::printf(
      "# mode %s, step %s, %d rounds of %d steps per X and pattern\n"
      "# X_us pattern launch_med launch_p90 gap_med gap_p90 gap_minus_async_med(paired) "
      "migrations involuntary_switches voluntary_switches steps\n",
      mode.c_str(), step_kind.c_str(), rounds, batch);
  for (std::size_t w = 0; w < waits_us.size(); ++w) {
    const Series& as = series[w * patterns];
    const Series& sy = series[w * patterns + 1];
    std::vector<double> paired;
    for (std::size_t r = 0; r < sy.round_gap_median.size(); ++r)
      paired.push_back(sy.round_gap_median[r] - as.round_gap_median[r]);
    for (int p = 0; p < patterns; ++p) {
      const Series& x = series[w * patterns + p];
      std::printf("%g %s %.2f %.2f %.2f %.2f %.2f %ld %ld %ld %ld\n", waits_us[w],
                  p == 0 ? "async" : "sync", quantile(x.launch_us, 0.5), quantile(x.launch_us, 0.9),
                  quantile(x.gap_us, 0.5), quantile(x.gap_us, 0.9),
                  p == 0 ? 0.0 : quantile(paired, 0.5), x.migrations, x.involuntary_switches,
                  x.voluntary_switches, x.steps);
    }
  }
  CHECK_BLAS(cublasDestroy(blas));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  CHECK(cudaFree(stamps));
  CHECK(cudaStreamDestroy(s));
  return 0;
}
