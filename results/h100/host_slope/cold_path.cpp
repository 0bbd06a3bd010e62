// Is the host's launch slower right after a sync? (results/h100/host_slope/README.md asks.)
//
// BigGemm/DeviceSync's paired overhead grows about 2 us per us of the host's warm submit time,
// faster than the submit time itself. One explanation: the launch right after
// cudaDeviceSynchronize runs a cold path that the Async loop never sees. This program times the
// host side of the very call sync_bench makes (Gemm::enqueue, or the null kernel's launch) in
// seven situations, in one process, interleaved round by round (T: the op's GPU time, measured
// first):
//   after_sync         cudaDeviceSynchronize returned just before (what DeviceSync's step does)
//   after_sync_spin    the same, then the host spun 100 us outside the driver first
//   after_sync_kernel  the same, then one null kernel was launched first (untimed)
//   after_drain        no sync: the host spun outside the driver until the GPU had surely drained
//                      the last round's work (5 T x 1.3 + 50 us), then launched
//   after_launch       another launch just before, the GPU still busy (the Async loop)
//   after_launch_spin  the same, then the host spun 100 us first (GPU busy, host away)
//   after_launch_wait  the same, then the host spun 0.7 T first (GPU still busy)
// A round: one of the four first situations (rotating); a launch (after_launch); a 0.7 T spin and
// a launch (after_launch_wait); a 100 us spin and a launch (after_launch_spin); a launch
// (after_launch); an event record, untimed. after_drain against after_launch_wait tells "the GPU
// drained" apart from "the host waited that long"; after_drain against after_sync tells whether
// the sync call itself matters. A drain whose event had not completed is counted (not_drained).
//
// Build against a sync_bench build (B: its folder), from the repository root, as one command:
//   cupti=$(sed -n 's/^CUDA_cupti_LIBRARY:FILEPATH=//p' $B/CMakeCache.txt)
//   nvcc -O2 -std=c++17 -Icommon results/h100/host_slope/cold_path.cpp
//     $B/common/libsync_bench_common.a $B/common/libsync_bench_anatomy.a -lcublas -lcublasLt
//     "$cupti" -Xlinker -rpath,"$(dirname "$cupti")" -ldl -o cold_path
// Usage: cold_path [ROUNDS]  (default 300 rounds a workload, after 20 untimed; at least 4)
// Prints one line a workload and situation: median, p25 and p75 of the call's host time (us).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"
#include "cuda_resources.hpp"
#include "device_kernels.cuh"
#include "gemm.hpp"
#include "unsupported.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using sync_bench::Backend;
using sync_bench::Dtype;

enum Situation {
  after_sync,
  after_sync_spin,
  after_sync_kernel,
  after_drain,
  after_launch,
  after_launch_spin,
  after_launch_wait,
  kSituations
};
constexpr const char* kSituationNames[] = {
    "after_sync",   "after_sync_spin",   "after_sync_kernel", "after_drain",
    "after_launch", "after_launch_spin", "after_launch_wait"};
constexpr int kFirstSituations = 4;  // the ones a round starts with, in turn
constexpr int kLaunchesPerRound = 5;

void spin_host(std::chrono::duration<double, std::micro> d) {
  const auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(d);
  while (Clock::now() < end) {
  }
}

double timed_us(const std::function<void()>& launch) {
  const auto t0 = Clock::now();
  launch();
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
}

// The op's GPU time: 8 launches back to back between two events, after a sync.
double gpu_time_us(const std::function<void()>& launch, cudaStream_t stream) {
  sync_bench::Event start, stop;
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaEventRecord(start.get(), stream));
  for (int i = 0; i < 8; ++i) launch();
  CUDA_CHECK(cudaEventRecord(stop.get(), stream));
  CUDA_CHECK(cudaEventSynchronize(stop.get()));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  return 1000.0 * ms / 8;
}

void measure(const std::string& name, const std::function<void()>& launch, int* null_out,
             cudaStream_t stream, int rounds) {
  constexpr std::chrono::microseconds kSpin(100);
  gpu_time_us(launch, stream);  // the first launches load modules: not the op's time
  const double gpu_us = gpu_time_us(launch, stream);
  const std::chrono::duration<double, std::micro> wait(0.7 * gpu_us);
  const std::chrono::duration<double, std::micro> drain(1.3 * kLaunchesPerRound * gpu_us + 50);
  sync_bench::Event round_end(cudaEventDisableTiming);
  std::vector<double> samples[kSituations];
  int not_drained = 0;
  for (int r = -20; r < rounds; ++r) {  // the first 20 rounds warm up, untimed
    const int first = r < 0 ? after_sync : (r % kFirstSituations);
    if (first == after_drain) {
      spin_host(drain);
    } else {
      CUDA_CHECK(cudaDeviceSynchronize());
    }
    if (first == after_sync_spin) spin_host(kSpin);
    if (first == after_sync_kernel) sync_bench::launch_null_kernel(null_out, r, stream);
    const double t_first = timed_us(launch);
    if (first == after_drain) {
      // Queried after the timed launch, so that no driver call comes between the spin and it.
      const cudaError_t done = cudaEventQuery(round_end.get());
      if (done == cudaErrorNotReady) {
        ++not_drained;
      } else {
        CUDA_CHECK(done);
      }
    }
    const double t_second = timed_us(launch);
    spin_host(wait);
    const double t_waited = timed_us(launch);
    spin_host(kSpin);
    const double t_spun = timed_us(launch);
    const double t_fifth = timed_us(launch);
    CUDA_CHECK(cudaEventRecord(round_end.get(), stream));
    if (r < 0) continue;
    samples[first].push_back(t_first);
    samples[after_launch].push_back(t_second);
    samples[after_launch].push_back(t_fifth);
    samples[after_launch_wait].push_back(t_waited);
    samples[after_launch_spin].push_back(t_spun);
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  std::printf("%-26s GPU time %.2f us a launch; drains not complete at the launch: %d\n",
              name.c_str(), gpu_us, not_drained);
  for (int s = 0; s < kSituations; ++s) {
    std::printf("%-26s %-18s n=%4zu  median %7.2f  p25 %7.2f  p75 %7.2f us\n", name.c_str(),
                kSituationNames[s], samples[s].size(), quantile(samples[s], 0.5),
                quantile(samples[s], 0.25), quantile(samples[s], 0.75));
  }
  std::fflush(stdout);
}

int run(int rounds) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "cold_path: no CUDA GPU available\n");
    return 2;
  }
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, GPU-", prop.name);
  for (int i = 0; i < 4; ++i) std::printf("%02x", static_cast<unsigned char>(prop.uuid.bytes[i]));
  std::printf(", %d rounds a workload\n", rounds);

  sync_bench::Stream stream;
  sync_bench::DeviceBuffer<int> null_out(1);
  measure(
      "NullKernel", [&] { sync_bench::launch_null_kernel(null_out.get(), 1, stream.get()); },
      null_out.get(), stream.get(), rounds);
  struct Config {
    Dtype dtype;
    Backend backend;
    int n;
  };
  const Config configs[] = {
      {Dtype::fp16, Backend::cublas, 512},    {Dtype::fp16, Backend::cublas, 8192},
      {Dtype::fp16, Backend::cublaslt, 8192}, {Dtype::bf16, Backend::cublas, 8192},
      {Dtype::fp8, Backend::cublaslt, 8192},  {Dtype::tf32, Backend::cublas, 8192}};
  for (const Config& c : configs) {
    const std::string name = "Gemm/" + std::string(sync_bench::name(c.dtype)) + "/" +
                             std::string(sync_bench::name(c.backend)) + "/n:" + std::to_string(c.n);
    try {
      sync_bench::Gemm gemm(c.dtype, c.backend, c.n, stream.get());
      gemm.validate();
      measure(
          name, [&] { gemm.enqueue(); }, null_out.get(), stream.get(), rounds);
    } catch (const sync_bench::Unsupported& e) {
      std::printf("%-34s skipped: %s\n", name.c_str(), e.what());
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 300;
  if (argc > 2 || rounds < 4) {
    std::fprintf(stderr, "usage: cold_path [ROUNDS >= 4]\n");
    return 2;
  }
  try {
    return run(rounds);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cold_path: %s\n", e.what());
    return 1;
  }
}
