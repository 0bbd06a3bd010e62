// What makes the host slow in its slow stretches? `../host_modes/` found that the host's time per
// kernel launch switches between two speeds for seconds at a time inside one process. This probe
// measures, every WINDOW_MS, the launch speed beside what could explain it:
//   - the CPU's own speed: a chain of dependent multiply-adds (ns per step; the clock and any
//     share of the core taken by a sibling thread show here), and pointer chases in the core's
//     own L1 (24 KiB) and L2 (256 KiB), in the last-level cache the socket shares (16 MiB) and
//     in memory (256 MiB);
//   - the CPU cycles and instructions per launch, where the VM exposes a PMU (n/a otherwise):
//     more cycles for the same instructions is a slower pipeline, more instructions is more work;
//   - time taken away: the steal ticks of the thread's CPU and of the whole VM (/proc/stat, in
//     USER_HZ), the thread's run-queue delay (/proc/self/schedstat) and its context switches.
//   nvcc -O2 -arch=sm_90 -o cause_probe cause_probe.cu && ./cause_probe SECONDS WINDOW_MS [sweep]
// One line per window: t cpu us_per_launch cycles_per_launch instructions_per_launch
//   alu_ns_per_step l1_ns_per_load l2_ns_per_load llc_ns_per_load mem_ns_per_load steal_cpu
//   steal_all run_delay_us nvcsw nivcsw
#include <cuda_runtime.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
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

__global__ void null_kernel(int* p) {
  *p = 1;
}

using Clock = std::chrono::steady_clock;
static double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// A hardware counter of this thread (user space only, which perf_event_paranoid 2 allows), or -1
// where the VM has no PMU.
static int open_counter(std::uint64_t config) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.size = sizeof(attr);
  attr.type = PERF_TYPE_HARDWARE;
  attr.config = config;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
}
static double read_counter(int fd) {
  if (fd < 0) return -1;
  std::uint64_t v = 0;
  if (read(fd, &v, sizeof(v)) != static_cast<ssize_t>(sizeof(v))) return -1;
  return static_cast<double>(v);
}

// Steal ticks of one CPU's line ("cpuN") and of the VM's ("cpu"): the 8th number.
static void read_steal(int cpu, double& steal_cpu, double& steal_all) {
  std::ifstream stat("/proc/stat");
  std::string line;
  const std::string mine = "cpu" + std::to_string(cpu) + " ";
  steal_cpu = steal_all = -1;
  while (std::getline(stat, line)) {
    if (line.rfind("cpu", 0) != 0) break;
    std::istringstream in(line);
    std::string name;
    double v[8] = {};
    in >> name;
    for (double& x : v) in >> x;
    if (name == "cpu") steal_all = v[7];
    if (line.rfind(mine, 0) == 0) steal_cpu = v[7];
  }
}

static double run_delay_ns() {
  std::ifstream f("/proc/self/schedstat");
  double on_cpu = 0, delay = -1;
  f >> on_cpu >> delay;
  return delay;
}

struct Sample {
  double steal_cpu, steal_all, run_delay, nvcsw, nivcsw;
};
static Sample sample(int cpu) {
  Sample s;
  read_steal(cpu, s.steal_cpu, s.steal_all);
  s.run_delay = run_delay_ns();
  rusage u;
  getrusage(RUSAGE_THREAD, &u);
  s.nvcsw = static_cast<double>(u.ru_nvcsw);
  s.nivcsw = static_cast<double>(u.ru_nivcsw);
  return s;
}

// A pointer chase over `bytes` of memory, one cache line a slot, in a random cyclic order: every
// load depends on the one before, so the time per load is the latency of wherever the lines live.
// Huge pages where the kernel gives them, so that the chase measures the caches, not the TLB.
struct alignas(64) Line {
  Line* next;
};
class Chase {
 public:
  Chase(std::size_t bytes, std::mt19937& rng) : count_(bytes / sizeof(Line)) {
    lines_ = static_cast<Line*>(std::aligned_alloc(2u << 20, count_ * sizeof(Line)));
    if (lines_ == nullptr) std::abort();
    madvise(lines_, count_ * sizeof(Line), MADV_HUGEPAGE);
    std::vector<std::size_t> order(count_);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin() + 1, order.end(), rng);
    for (std::size_t i = 0; i < count_; ++i)
      lines_[order[i]].next = &lines_[order[(i + 1) % count_]];
    at_ = lines_;
  }
  ~Chase() { std::free(lines_); }
  Chase(const Chase&) = delete;
  Chase& operator=(const Chase&) = delete;
  // `warm` untimed loads first (one pass brings a set that fits a cache into it), then `loads`
  // timed ones.
  double ns_per_load(std::size_t warm, std::size_t loads) {
    Line* at = at_;
    for (std::size_t i = 0; i < warm; ++i) at = at->next;
    const Clock::time_point t0 = Clock::now();
    for (std::size_t i = 0; i < loads; ++i) at = at->next;
    const double ns = seconds_between(t0, Clock::now()) * 1e9 / loads;
    at_ = at;
    return ns;
  }
  std::size_t lines() const { return count_; }
  std::uintptr_t position() const { return reinterpret_cast<std::uintptr_t>(at_); }

 private:
  std::size_t count_;
  Line* lines_ = nullptr;
  Line* at_ = nullptr;
};

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 20.0;
  const double window = (argc > 2 ? std::atof(argv[2]) : 100.0) * 1e-3;
  // "sweep": each window on the next of the process's CPUs in turn, pinned there, so that a CPU
  // that is slow for good can be told from a time that is slow on every CPU.
  const bool sweep = argc > 3 && std::strcmp(argv[3], "sweep") == 0;
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) std::perror("sched_getaffinity");
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
  std::size_t next_cpu = 0;
  std::mt19937 rng(12345);
  Chase l1(24u << 10, rng), l2(256u << 10, rng), llc(16u << 20, rng), mem(256u << 20, rng);
  std::uint64_t alu = 1;

  const int cycles_fd = open_counter(PERF_COUNT_HW_CPU_CYCLES);
  const int instructions_fd = open_counter(PERF_COUNT_HW_INSTRUCTIONS);
  std::fprintf(stderr, "PMU: cycles %s, instructions %s\n", cycles_fd >= 0 ? "yes" : "n/a",
               instructions_fd >= 0 ? "yes" : "n/a");

  int* d = nullptr;
  CHECK(cudaMalloc(&d, sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (int i = 0; i < 2000; ++i) null_kernel<<<1, 1, 0, s>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(s));

  const Clock::time_point start = Clock::now();
  while (seconds_between(start, Clock::now()) < seconds) {
    if (sweep) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpus[next_cpu++ % cpus.size()], &one);
      if (sched_setaffinity(0, sizeof(one), &one) != 0) std::perror("sched_setaffinity");
    }
    const int cpu = sched_getcpu();
    const Sample before = sample(cpu);
    const double t = seconds_between(start, Clock::now());

    const double c0 = read_counter(cycles_fd), i0 = read_counter(instructions_fd);
    const Clock::time_point l0 = Clock::now();
    long launches = 0;
    while (seconds_between(l0, Clock::now()) < 0.8 * window) {
      for (int i = 0; i < 100; ++i) null_kernel<<<1, 1, 0, s>>>(d);
      launches += 100;
    }
    const double launch_s = seconds_between(l0, Clock::now());
    const double c1 = read_counter(cycles_fd), i1 = read_counter(instructions_fd);
    CHECK(cudaGetLastError());
    // Not timed: let the GPU drain so that the queue never fills and blocks a launch.
    CHECK(cudaStreamSynchronize(s));

    // Dependent multiply-adds: the step's latency is the core's, at the clock it runs.
    constexpr int kAluSteps = 500000;
    const Clock::time_point a0 = Clock::now();
    for (int i = 0; i < kAluSteps; ++i) alu = alu * 6364136223846793005ull + 1442695040888963407ull;
    const double alu_ns = seconds_between(a0, Clock::now()) * 1e9 / kAluSteps;
    // The core's own L1 (48 KiB) and L2 (2 MiB), warm; the last-level cache, shared with the
    // socket's other cores, warm; memory, cold (256 MiB is over any LLC). A hyperthread sibling the
    // VM cannot see would share L1 and L2 with this thread, and show in their times alone.
    const double l1_ns = l1.ns_per_load(l1.lines(), 100000);
    const double l2_ns = l2.ns_per_load(l2.lines(), 100000);
    const double llc_ns = llc.ns_per_load(llc.lines(), 100000);
    const double mem_ns = mem.ns_per_load(0, 20000);

    const Sample after = sample(cpu);
    const bool pmu = cycles_fd >= 0 && instructions_fd >= 0 && c0 >= 0 && c1 >= 0;
    std::printf("%.3f %d %.3f %.0f %.0f %.3f %.2f %.2f %.2f %.1f %.0f %.0f %.1f %.0f %.0f\n", t,
                cpu, launch_s / launches * 1e6, pmu ? (c1 - c0) / launches : -1.0,
                pmu ? (i1 - i0) / launches : -1.0, alu_ns, l1_ns, l2_ns, llc_ns, mem_ns,
                after.steal_cpu - before.steal_cpu, after.steal_all - before.steal_all,
                (after.run_delay - before.run_delay) * 1e-3, after.nvcsw - before.nvcsw,
                after.nivcsw - before.nivcsw);
  }
  // Printed so that the chains cannot be optimized away.
  std::fprintf(stderr, "checksum %llu\n",
               static_cast<unsigned long long>(alu + l1.position() + l2.position() +
                                               llc.position() + mem.position()));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d));
  return 0;
}
