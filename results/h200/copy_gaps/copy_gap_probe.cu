// Why does cuBLAS's memset wait 8.2 us after a one-element copy, where a kernel waits 3.4 us?
// (results/h200/lagged_read/, LaggedRead's anatomy.) Each sequence below is enqueued REPS times
// behind a 3 ms spin kernel, so the whole queue is on the GPU before it starts: what separates two
// operations is the GPU's own, not the host's. Two measurements of each sequence:
//   - untraced: CUDA events around the REPS repetitions, in rounds that cycle through every
//     sequence (the order rotated each round); the time per repetition, median over the rounds.
//   - traced: CUPTI's activity records of one more pass (CONCURRENT_KERNEL, MEMCPY, MEMSET); the
//     gap from each operation's end to the next one's start, by pair of kinds, median and p10-p90.
// The differences of untraced times answer the question without CUPTI: what a memset adds after a
// copy against after a kernel.
//   nvcc -O2 -arch=sm_90 -o copy_gap_probe copy_gap_probe.cu -lcublas -lcupti
//   ./copy_gap_probe [ROUNDS]
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cupti.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
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
#define CHECK_BLAS(call)                                                        \
  do {                                                                          \
    cublasStatus_t s_ = (call);                                                 \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                          \
      std::fprintf(stderr, "%s:%d: %s: status %d\n", __FILE__, __LINE__, #call, \
                   static_cast<int>(s_));                                       \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)
#define CHECK_CUPTI(call)                                                                \
  do {                                                                                   \
    CUptiResult r_ = (call);                                                             \
    if (r_ != CUPTI_SUCCESS) {                                                           \
      const char* s_ = nullptr;                                                          \
      cuptiGetResultString(r_, &s_);                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, s_ ? s_ : "?"); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

__global__ void spin(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}
__global__ void null_kernel() {}
// MappedScalar's publish (common/mapped_scalar.cpp): the element, then a sequence number, stored
// by one thread into mapped pinned host memory; no copy engine.
__global__ void publish_mapped(const int* src, volatile int* slot, int seq) {
  slot[0] = *src;
  __threadfence_system();
  slot[1] = seq;
}

constexpr int kReps = 24;
constexpr int kGemmReps = 4;  // n=8192 bf16 runs about 1.5 ms: 4 fit behind the spin's queue
constexpr std::size_t kSmallBytes = 4;
constexpr std::size_t kLargeMemsetBytes = 1u << 20;
constexpr std::size_t kWorkspaceBytes = 32u
                                        << 20;  // what sync_bench gives cuBLAS (common/gemm.cpp)

struct Resources {
  cudaStream_t stream = nullptr;
  cudaEvent_t marker = nullptr;  // the event a sequence's "event" records (LaggedRead's copied_)
  cudaEvent_t begin = nullptr, end = nullptr;
  void* host = nullptr;        // pinned
  int* mapped_slot = nullptr;  // mapped pinned, as the device sees it
  int mapped_seq = 0;
  void* device_a = nullptr;
  void* device_b = nullptr;
  cublasHandle_t blas = nullptr;
  void* workspace = nullptr;
  void* gemm[2][3] = {};  // [n=512, n=8192][A, B, C], bf16
};

const int kGemmN[2] = {512, 8192};

void enqueue_op(Resources& r, const std::string& op) {
  if (op == "kernel") {
    null_kernel<<<1, 1, 0, r.stream>>>();
    CHECK(cudaGetLastError());
  } else if (op == "d2h") {
    CHECK(cudaMemcpyAsync(r.host, r.device_a, kSmallBytes, cudaMemcpyDeviceToHost, r.stream));
  } else if (op == "h2d") {
    CHECK(cudaMemcpyAsync(r.device_a, r.host, kSmallBytes, cudaMemcpyHostToDevice, r.stream));
  } else if (op == "d2d") {
    CHECK(cudaMemcpyAsync(r.device_b, r.device_a, kSmallBytes, cudaMemcpyDeviceToDevice, r.stream));
  } else if (op == "memset") {
    CHECK(cudaMemsetAsync(r.device_b, 0, kSmallBytes, r.stream));
  } else if (op == "memset1M") {
    CHECK(cudaMemsetAsync(r.device_b, 0, kLargeMemsetBytes, r.stream));
  } else if (op == "mapped") {
    publish_mapped<<<1, 1, 0, r.stream>>>(static_cast<const int*>(r.device_a), r.mapped_slot,
                                          ++r.mapped_seq);
    CHECK(cudaGetLastError());
  } else if (op == "event") {
    CHECK(cudaEventRecord(r.marker, r.stream));
  } else if (op == "gemm512" || op == "gemm8192") {
    const int which = op == "gemm512" ? 0 : 1;
    const int n = kGemmN[which];
    const float alpha = 1.0f, beta = 0.0f;
    CHECK_BLAS(cublasGemmEx(r.blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, r.gemm[which][0],
                            CUDA_R_16BF, n, r.gemm[which][1], CUDA_R_16BF, n, &beta,
                            r.gemm[which][2], CUDA_R_16BF, n, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT));
  } else {
    std::fprintf(stderr, "unknown op %s\n", op.c_str());
    std::exit(2);
  }
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

int reps_of(const std::string& sequence) {
  return sequence.find("gemm8192") != std::string::npos ? kGemmReps : kReps;
}

// The spin, then the sequence's repetitions between two timing events. Returns us per repetition
// (the host waits for the GPU here, outside every measured span).
double run_sequence(Resources& r, const std::string& sequence) {
  const std::vector<std::string> ops = split(sequence);
  const int reps = reps_of(sequence);
  spin<<<1, 1, 0, r.stream>>>(3'000'000ull);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(r.begin, r.stream));
  for (int i = 0; i < reps; ++i)
    for (const std::string& op : ops) enqueue_op(r, op);
  CHECK(cudaEventRecord(r.end, r.stream));
  CHECK(cudaStreamSynchronize(r.stream));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, r.begin, r.end));
  return ms * 1000.0 / reps;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * (v.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - lo);
}

// ---- CUPTI ----
struct Activity {
  std::uint64_t start, end;
  std::string kind;  // kernel, spin, d2h, h2d, d2d, memset
  std::uint64_t bytes;
};
std::vector<Activity> g_activities;
std::uint64_t g_dropped = 0;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 8u << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        const std::string name = k->name ? k->name : "";
        std::string kind = "gemm_kernel";
        if (name.find("null_kernel") != std::string::npos) kind = "kernel";
        if (name.find("publish_mapped") != std::string::npos) kind = "mapped";
        if (name.find("spin") != std::string::npos) kind = "spin";
        g_activities.push_back({k->start, k->end, kind, 0});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        const char* kind = m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH   ? "d2h"
                           : m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD ? "h2d"
                           : m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOD ? "d2d"
                                                                            : "copy";
        g_activities.push_back({m->start, m->end, kind, m->bytes});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
        g_activities.push_back({m->start, m->end, "memset", m->bytes});
        break;
      }
      default:
        break;
    }
  }
  std::size_t dropped = 0;
  cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped);
  g_dropped += dropped;
  std::free(buffer);
}

const CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                     CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET};

// One traced pass of a sequence: the gaps between consecutive GPU operations, by pair of kinds.
std::map<std::string, std::vector<double>> traced_gaps(
    Resources& r, const std::string& sequence, std::map<std::string, std::uint64_t>* bytes) {
  g_activities.clear();
  for (CUpti_ActivityKind k : kKinds) CHECK_CUPTI(cuptiActivityEnable(k));
  run_sequence(r, sequence);
  for (CUpti_ActivityKind k : kKinds) CHECK_CUPTI(cuptiActivityDisable(k));
  CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  if (g_dropped) {
    std::fprintf(stderr, "CUPTI dropped %llu records\n",
                 static_cast<unsigned long long>(g_dropped));
    std::exit(1);
  }
  std::vector<Activity> a = g_activities;
  std::sort(a.begin(), a.end(),
            [](const Activity& x, const Activity& y) { return x.start < y.start; });
  std::map<std::string, std::vector<double>> gaps;
  for (std::size_t i = 0; i + 1 < a.size(); ++i) {
    if (a[i].kind == "spin") continue;  // the first gap after the spin is the queue's start
    const double gap_us = (static_cast<double>(a[i + 1].start) - a[i].end) / 1000.0;
    gaps[a[i].kind + " -> " + a[i + 1].kind].push_back(gap_us);
  }
  for (const Activity& x : a)
    if (x.kind == "memset" || x.kind == "d2h") (*bytes)[x.kind] = x.bytes;
  return gaps;
}

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 15;
  if (rounds < 1) {
    std::fprintf(stderr, "usage: copy_gap_probe [ROUNDS>=1]\n");
    return 2;
  }
  Resources r;
  CHECK(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking));
  CHECK(cudaEventCreateWithFlags(&r.marker, cudaEventDisableTiming));
  CHECK(cudaEventCreate(&r.begin));
  CHECK(cudaEventCreate(&r.end));
  CHECK(cudaMallocHost(&r.host, 4096));
  CHECK(cudaMalloc(&r.device_a, 4096));
  CHECK(cudaMalloc(&r.device_b, kLargeMemsetBytes));
  CHECK(cudaMemset(r.device_a, 0, 4096));
  void* mapped_host = nullptr;
  CHECK(cudaHostAlloc(&mapped_host, 64, cudaHostAllocMapped));
  CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&r.mapped_slot), mapped_host, 0));
  CHECK_BLAS(cublasCreate(&r.blas));
  CHECK_BLAS(cublasSetStream(r.blas, r.stream));
  CHECK(cudaMalloc(&r.workspace, kWorkspaceBytes));
  CHECK_BLAS(cublasSetWorkspace(r.blas, r.workspace, kWorkspaceBytes));
  for (int w = 0; w < 2; ++w)
    for (int m = 0; m < 3; ++m) {
      const std::size_t bytes = std::size_t(kGemmN[w]) * kGemmN[w] * sizeof(__nv_bfloat16);
      CHECK(cudaMalloc(&r.gemm[w][m], bytes));
      CHECK(cudaMemset(r.gemm[w][m], 0, bytes));  // zeros: the values do not matter to the timing
    }
  CHECK_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));

  // Each row adds one operation to a reference row; their difference is that operation's cost.
  const std::vector<std::string> sequences = {"kernel",
                                              "kernel,kernel",
                                              "d2h,kernel",
                                              "d2h,event,kernel",
                                              "kernel,memset",
                                              "d2h,memset",
                                              "d2h,event,memset",
                                              "h2d,memset",
                                              "d2d,memset",
                                              "memset",
                                              "d2h",
                                              "d2h,kernel,memset",
                                              "memset,memset",
                                              "kernel,memset1M",
                                              "d2h,memset1M",
                                              "kernel,gemm512",
                                              "d2h,gemm512",
                                              "gemm512",
                                              "kernel,gemm8192",
                                              "d2h,gemm8192",
                                              "d2h,event,gemm8192",
                                              "gemm8192",
                                              "mapped",
                                              "mapped,kernel",
                                              "mapped,gemm512",
                                              "mapped,gemm8192"};

  for (const std::string& s : sequences)  // warm-up: cuBLAS's heuristics, the module loads
    run_sequence(r, s);

  std::map<std::string, std::vector<double>> per_rep;
  for (int round = 0; round < rounds; ++round)
    for (std::size_t i = 0; i < sequences.size(); ++i) {
      const std::string& s = sequences[(i + round) % sequences.size()];
      per_rep[s].push_back(run_sequence(r, s));
    }

  int device = 0;
  cudaDeviceProp prop{};
  CHECK(cudaGetDevice(&device));
  CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("# %s, %d rounds, %d reps a sequence (%d with gemm8192)\n", prop.name, rounds, kReps,
              kGemmReps);
  std::printf("# untraced: us per repetition, median (p10-p90) over the rounds\n");
  for (const std::string& s : sequences)
    std::printf("untraced %-20s %9.3f (%.3f-%.3f)\n", s.c_str(), quantile(per_rep[s], 0.5),
                quantile(per_rep[s], 0.1), quantile(per_rep[s], 0.9));

  std::printf(
      "# traced (CUPTI, one pass): gap us from an operation's end to the next one's start\n");
  for (const std::string& s : sequences) {
    std::map<std::string, std::uint64_t> bytes;
    const auto gaps = traced_gaps(r, s, &bytes);
    for (const auto& [pair, v] : gaps)
      std::printf("traced %-20s %-26s n=%-3zu %8.3f (%.3f-%.3f)\n", s.c_str(), pair.c_str(),
                  v.size(), quantile(v, 0.5), quantile(v, 0.1), quantile(v, 0.9));
    for (const auto& [kind, b] : bytes)
      std::printf("traced %-20s bytes %s %llu\n", s.c_str(), kind.c_str(),
                  static_cast<unsigned long long>(b));
  }
  CHECK(cudaDeviceSynchronize());
  return 0;
}
