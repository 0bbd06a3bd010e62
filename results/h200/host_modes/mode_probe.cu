// Does the host's launch speed switch between modes over time inside one process? Launches a null
// kernel (one thread storing one int) back to back on one stream and reports, every WINDOW_MS, the
// host time per launch and the CPU the thread ran on. The run is in PHASES equal phases that
// alternate: free (the thread may run on any CPU), then pinned to the CPU it is on, and so on; so
// that a change with time and a change with pinning can be told apart.
//   nvcc -O2 -arch=sm_90 -o mode_probe mode_probe.cu && ./mode_probe SECONDS WINDOW_MS [PHASES]
#include <cuda_runtime.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                               \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

__global__ void null_kernel(int* p) {
  *p = 1;
}

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

struct Window {
  double t, us_per_launch;
  int cpu_start, cpu_end;
  bool pinned;
};

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 20.0;
  const double window = (argc > 2 ? std::atof(argv[2]) : 20.0) * 1e-3;
  const int phases = argc > 3 ? std::atoi(argv[3]) : 2;
  cpu_set_t all;
  if (sched_getaffinity(0, sizeof(all), &all) != 0) std::perror("sched_getaffinity");
  int* d = nullptr;
  CHECK(cudaMalloc(&d, sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (int i = 0; i < 2000; ++i) null_kernel<<<1, 1, 0, s>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(s));

  std::vector<Window> windows;
  const Clock::time_point start = Clock::now();
  bool pinned = false;
  while (since(start) < seconds) {
    const bool pin = static_cast<int>(since(start) / (seconds / phases)) % 2 == 1;
    if (pin != pinned) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(sched_getcpu(), &one);
      if (sched_setaffinity(0, sizeof(cpu_set_t), pin ? &one : &all) != 0)
        std::perror("sched_setaffinity");
      pinned = pin;
    }
    const int cpu0 = sched_getcpu();
    const Clock::time_point t0 = Clock::now();
    long n = 0;
    while (since(t0) < window) {
      for (int i = 0; i < 100; ++i) null_kernel<<<1, 1, 0, s>>>(d);
      n += 100;
    }
    const double elapsed = since(t0);
    CHECK(cudaGetLastError());
    // Not timed: let the GPU drain so the queue never fills and blocks a launch.
    CHECK(cudaStreamSynchronize(s));
    windows.push_back({std::chrono::duration<double>(t0 - start).count(), elapsed / n * 1e6, cpu0,
                       sched_getcpu(), pinned});
  }
  for (const Window& w : windows)
    std::printf("%.3f %.3f %d %d %d\n", w.t, w.us_per_launch, w.cpu_start, w.cpu_end, w.pinned);
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d));
  return 0;
}
