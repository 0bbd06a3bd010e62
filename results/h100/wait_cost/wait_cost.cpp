// What makes the launch after a wait slow: the host's time away, or the GPU's idleness?
// (results/h100/wait_cost/README.md says what it found.)
//
// cold_path.cpp found that an n=8192 GEMM's launch right after a millisecond-long wait
// took 1.2-5.5x its time in the Async loop, and that a wait without a sync call cost as much. That
// probe could not separate the two things a long wait brings: the host stays away from the launch
// path, and the GPU drains. Here the host's time away A is set exactly (a spin outside the driver,
// no driver call in it) and the GPU's state is chosen independently:
//   busy  a spin kernel of A + 2 T + 300 us runs on the stream, so the GPU never idles
//   idle  only the workload's own launch is queued, so the GPU idles for A - T (when A > T)
// Each round: cudaDeviceSynchronize (untimed, a known start); in busy rounds the spin kernel's
// launch; the workload's launch (untimed: the last driver call before the wait, so its path is as
// warm as in the Async loop); an event record; a spin of A us; the workload's timed launch. Rounds
// rotate over both states and A = 0, 100, 300, 1000, 3000, 10000 us. After each timed launch the
// event is queried: a busy round whose spin kernel had finished, or an idle round with
// A > 1.3 T + 50 us whose launch had not, is counted (a state not held).
//
// Workloads: the null kernel, a 1 ms spin kernel (the host path of a plain launch, a GEMM's GPU
// time), and sync_bench's Gemm::enqueue for fp16 cuBLAS and fp8 cuBLASLt n=8192.
//
// Last, with no GPU work at all, a pointer chase over 1 MiB (its lines in random order) after the
// same spins: how much of the host's own caches a wait of A costs it on this machine.
//
// Build against a sync_bench build (B: its folder), from the repository root, as one command:
//   cupti=$(sed -n 's/^CUDA_cupti_LIBRARY:FILEPATH=//p' $B/CMakeCache.txt)
//   nvcc -O2 -std=c++17 -Icommon results/h100/wait_cost/wait_cost.cpp
//     $B/common/libsync_bench_common.a $B/common/libsync_bench_anatomy.a -lcublas -lcublasLt
//     "$cupti" -Xlinker -rpath,"$(dirname "$cupti")" -ldl -o wait_cost
// Usage: wait_cost [ROUNDS]  (default 40 rounds a state and A, after 12 untimed; at least 4)
// Prints one line a workload, state and A: median, p25 and p75 of the launch's host time (us), and
// the median apart for the rounds whose spin ran unbroken ("quiet") and those whose spin saw a gap
// of over 3 us between two clock reads ("interrupted": the thread was off its CPU meanwhile).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <numeric>
#include <random>
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
using Micros = std::chrono::duration<double, std::micro>;
using sync_bench::Backend;
using sync_bench::Dtype;

constexpr double kAways[] = {0, 100, 300, 1000, 3000, 10000};
constexpr int kAwayCount = sizeof(kAways) / sizeof(kAways[0]);
enum State { busy, idle, kStates };
constexpr const char* kStateNames[] = {"busy", "idle"};

// Spins for d and returns the longest gap between two consecutive clock reads (us): a gap of
// microseconds means the thread was taken off its CPU (an interrupt, the hypervisor) meanwhile.
double spin_host(Micros d) {
  auto last = Clock::now();
  const auto end = last + std::chrono::duration_cast<Clock::duration>(d);
  Clock::duration longest{};
  while (last < end) {
    const auto now = Clock::now();
    longest = std::max(longest, now - last);
    last = now;
  }
  return Micros(longest).count();
}

constexpr double kInterruptedGapUs = 3;

// One situation's launch times, split by whether the spin before them was interrupted.
struct Samples {
  std::vector<double> all, quiet, interrupted;
  void add(double t, double longest_gap_us) {
    all.push_back(t);
    (longest_gap_us > kInterruptedGapUs ? interrupted : quiet).push_back(t);
  }
};

double timed_us(const std::function<void()>& f) {
  const auto t0 = Clock::now();
  f();
  return Micros(Clock::now() - t0).count();
}

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
}

double median_or_nan(const std::vector<double>& v) {
  return v.empty() ? NAN : quantile(v, 0.5);
}

void print_row(const char* name, const char* state, double away, const Samples& s) {
  std::printf(
      "%-24s %-5s away %6.0f us  n=%3zu  median %8.2f  p25 %8.2f  p75 %8.2f us"
      "  | quiet n=%3zu median %8.2f | interrupted n=%3zu median %8.2f\n",
      name, state, away, s.all.size(), quantile(s.all, 0.5), quantile(s.all, 0.25),
      quantile(s.all, 0.75), s.quiet.size(), median_or_nan(s.quiet), s.interrupted.size(),
      median_or_nan(s.interrupted));
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

void measure(const char* name, const std::function<void()>& launch, cudaStream_t stream,
             int rounds) {
  gpu_time_us(launch, stream);  // the first launches load modules: not the op's time
  const double gpu_us = gpu_time_us(launch, stream);
  sync_bench::Event marker(cudaEventDisableTiming);
  Samples samples[kStates][kAwayCount];
  int state_not_held = 0;
  const int situations = kStates * kAwayCount;
  for (int r = -12; r < rounds * situations; ++r) {  // 12 untimed rounds first
    const int situation = (r + 12) % situations;
    const State state = static_cast<State>(situation / kAwayCount);
    const double away = kAways[situation % kAwayCount];
    CUDA_CHECK(cudaDeviceSynchronize());
    if (state == busy) {
      const double filler_us = away + 2 * gpu_us + 300;
      sync_bench::launch_spin_kernel(static_cast<std::uint64_t>(filler_us * 1000), stream);
      CUDA_CHECK(cudaEventRecord(marker.get(), stream));  // done when the filler is
    }
    launch();
    if (state == idle) CUDA_CHECK(cudaEventRecord(marker.get(), stream));  // done at the drain
    const double gap = spin_host(Micros(away));
    const double t = timed_us(launch);
    const cudaError_t done = cudaEventQuery(marker.get());
    if (done != cudaErrorNotReady) CUDA_CHECK(done);
    const bool finished = done == cudaSuccess;
    if ((state == busy && finished) || (state == idle && away > 1.3 * gpu_us + 50 && !finished)) {
      ++state_not_held;
    }
    if (r >= 0) samples[state][situation % kAwayCount].add(t, gap);
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  std::printf("%-22s GPU time %.2f us a launch; rounds whose GPU state was not held: %d\n", name,
              gpu_us, state_not_held);
  for (int s = 0; s < kStates; ++s) {
    for (int a = 0; a < kAwayCount; ++a) print_row(name, kStateNames[s], kAways[a], samples[s][a]);
  }
  std::fflush(stdout);
}

// The host alone: a pointer chase over 1 MiB, warm, then again after a spin of A.
void measure_host_caches(int rounds) {
  constexpr std::size_t kLine = 64 / sizeof(std::size_t), kLines = (1 << 20) / 64;
  std::vector<std::size_t> next(kLines * kLine);
  std::vector<std::size_t> order(kLines);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(42));
  for (std::size_t i = 0; i < kLines; ++i) next[order[i] * kLine] = order[(i + 1) % kLines] * kLine;
  std::size_t at = 0;
  const auto chase = [&] {
    for (std::size_t i = 0; i < kLines; ++i) at = next[at];
  };
  Samples samples[kAwayCount];
  for (int r = -kAwayCount; r < rounds * kAwayCount; ++r) {
    const int a = (r + kAwayCount) % kAwayCount;
    chase();
    chase();  // warm
    const double gap = spin_host(Micros(kAways[a]));
    const double t = timed_us(chase);
    if (r >= 0) samples[a].add(t, gap);
  }
  for (int a = 0; a < kAwayCount; ++a) print_row("HostChase/1MiB", "-", kAways[a], samples[a]);
  std::printf("(chase end %zu)\n", at);  // keeps the chase from being optimized away
  std::fflush(stdout);
}

int run(int rounds) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "wait_cost: no CUDA GPU available\n");
    return 2;
  }
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, GPU-", prop.name);
  for (int i = 0; i < 4; ++i) std::printf("%02x", static_cast<unsigned char>(prop.uuid.bytes[i]));
  std::printf(", %d rounds a state and A\n", rounds);

  sync_bench::Stream stream;
  sync_bench::DeviceBuffer<int> null_out(1);
  measure(
      "NullKernel", [&] { sync_bench::launch_null_kernel(null_out.get(), 1, stream.get()); },
      stream.get(), rounds);
  measure(
      "SpinKernel/1ms", [&] { sync_bench::launch_spin_kernel(1000000, stream.get()); },
      stream.get(), rounds);
  struct Config {
    Dtype dtype;
    Backend backend;
  };
  for (const Config c :
       {Config{Dtype::fp16, Backend::cublas}, Config{Dtype::fp8, Backend::cublaslt}}) {
    const std::string name = "Gemm/" + std::string(sync_bench::name(c.dtype)) + "/" +
                             std::string(sync_bench::name(c.backend)) + "/n:8192";
    try {
      sync_bench::Gemm gemm(c.dtype, c.backend, 8192, stream.get());
      gemm.validate();
      measure(
          name.c_str(), [&] { gemm.enqueue(); }, stream.get(), rounds);
    } catch (const sync_bench::Unsupported& e) {
      std::printf("%-22s skipped: %s\n", name.c_str(), e.what());
    }
  }
  measure_host_caches(rounds);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 40;
  if (argc > 2 || rounds < 4) {
    std::fprintf(stderr, "usage: wait_cost [ROUNDS >= 4]\n");
    return 2;
  }
  try {
    return run(rounds);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wait_cost: %s\n", e.what());
    return 1;
  }
}
