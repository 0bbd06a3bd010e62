// Alloc: device memory allocated and freed every step around a small GEMM (bf16, cuBLAS,
// n = 1024), as code that allocates per batch does. A step = allocate, a kernel fills the
// allocation with the step's value, the GEMM, a kernel probes the allocation, free.

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "bench_context.hpp"
#include "copies_kernels.cuh"
#include "families.hpp"
#include "names.hpp"
#include "ops.hpp"
#include "step_loop.hpp"
#include "unsupported.hpp"

namespace sync_bench {
namespace {

enum class Pattern { Async, MallocFree, MallocAsyncPool };

constexpr int kGemmN = 1024;

// A stream-ordered pool that keeps what it has: its release threshold is never reached, so a
// free returns the memory to the pool, not to the driver.
class MemPool {
 public:
  MemPool() {
    int device = 0, pools = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device));
    if (!pools) throw Unsupported("this GPU or driver has no stream-ordered memory pools");
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    CUDA_CHECK(cudaMemPoolCreate(&pool_, &props));
    std::uint64_t keep = std::numeric_limits<std::uint64_t>::max();
    const cudaError_t err = cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &keep);
    if (err != cudaSuccess) CUDA_CHECK_NOEXCEPT(cudaMemPoolDestroy(pool_));
    CUDA_CHECK(err);
  }
  ~MemPool() { CUDA_CHECK_NOEXCEPT(cudaMemPoolDestroy(pool_)); }
  MemPool(const MemPool&) = delete;
  MemPool& operator=(const MemPool&) = delete;
  cudaMemPool_t get() const { return pool_; }

 private:
  cudaMemPool_t pool_ = nullptr;
};

std::uint32_t value_of(std::int64_t step) {
  return 0x9e3779b9u ^ static_cast<std::uint32_t>(step);
}

void run(benchmark::State& state, Pattern pattern, std::size_t bytes) {
  using Clock = std::chrono::steady_clock;
  BenchContext& ctx = bench_context();
  const cudaStream_t stream = ctx.stream();
  const GemmOp op(ctx.gemm(Dtype::bf16, Backend::cublas, kGemmN));
  const std::size_t words = bytes / sizeof(std::uint32_t);
  DeviceBuffer<std::uint32_t> fixed(words);  // Async's memory, and the patterns' paired baseline
  std::optional<MemPool> pool;
  if (pattern == Pattern::MallocAsyncPool) pool.emplace();
  DeviceBuffer<unsigned long long> bad(1);
  DeviceBuffer<std::uint32_t> last_seen(1);
  CUDA_CHECK(cudaMemsetAsync(bad.get(), 0, bad.bytes(), stream));

  auto use = [&](void* memory, std::int64_t i) {
    auto* data = static_cast<std::uint32_t*>(memory);
    fill_words(data, words, value_of(i), stream);
    op.enqueue(i);
    probe_words(data, words, value_of(i), bad.get(), last_seen.get(), stream);
  };
  TimedSum alloc_seconds;  // in allocate + free
  auto seconds_in = [](auto&& call) {
    const auto t0 = Clock::now();
    call();
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  // Async's step never waits and is probed as it is; the patterns are probed on their baseline.
  LoopConfig config;
  config.step_is_async = pattern == Pattern::Async;
  // The patterns are paired with Async's step, round by round: their overhead is the allocation's.
  // The baseline reads the clock as often as a pattern's step does for alloc_us (four times, about
  // 0.1 us on a host-bound step), so that the clock's cost is not charged to the allocation.
  TimedSum baseline_clock;
  if (pattern != Pattern::Async)
    config.baseline = [&](std::int64_t i) {
      const double before = seconds_in([] {});
      use(fixed.get(), i);
      baseline_clock.add(before + seconds_in([] {}));
    };

  StepStats stats;
  switch (pattern) {
    case Pattern::Async:
      // The baseline: the same work on memory allocated once.
      stats = run_timed_steps(
          state, stream, [&](std::int64_t i) { use(fixed.get(), i); }, config);
      break;
    case Pattern::MallocFree:
      // cudaFree waits for the whole device: the host cannot run ahead of the GPU.
      stats = run_timed_steps(
          state, stream,
          [&](std::int64_t i) {
            void* p = nullptr;
            const double allocate = seconds_in([&] { CUDA_CHECK(cudaMalloc(&p, bytes)); });
            try {
              use(p, i);
            } catch (...) {
              CUDA_CHECK_NOEXCEPT(cudaFree(p));
              throw;
            }
            alloc_seconds.add(allocate + seconds_in([&] { CUDA_CHECK(cudaFree(p)); }));
          },
          config);
      break;
    case Pattern::MallocAsyncPool:
      // Stream-ordered allocation from a warm pool: no wait, the memory is reused in stream order.
      stats = run_timed_steps(
          state, stream,
          [&](std::int64_t i) {
            void* p = nullptr;
            const double allocate = seconds_in(
                [&] { CUDA_CHECK(cudaMallocFromPoolAsync(&p, bytes, pool->get(), stream)); });
            try {
              use(p, i);
            } catch (...) {
              CUDA_CHECK_NOEXCEPT(cudaFreeAsync(p, stream));
              throw;
            }
            alloc_seconds.add(allocate + seconds_in([&] { CUDA_CHECK(cudaFreeAsync(p, stream)); }));
          },
          config);
      break;
  }

  // Every step's allocation held that step's value when probed; the GEMM output is the last one.
  CUDA_CHECK(cudaStreamSynchronize(stream));
  unsigned long long probes_wrong = 0;
  std::uint32_t last = 0;
  CUDA_CHECK(cudaMemcpy(&probes_wrong, bad.get(), sizeof(probes_wrong), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&last, last_seen.get(), sizeof(last), cudaMemcpyDeviceToHost));
  if (probes_wrong > 0 || last != value_of(stats.last_step))
    throw std::runtime_error(std::to_string(probes_wrong) +
                             " allocations did not hold their step's value when probed");
  check_final_output(op, stats.last_step, stream);

  report_step_counters(state, stats, op.flops());
  if (pattern != Pattern::Async && stats.steps > 0)
    state.counters["alloc_us"] = alloc_seconds.sum() / stats.steps * 1e6;
}

const char* pattern_name(Pattern p) {
  switch (p) {
    case Pattern::Async:
      return "Async";
    case Pattern::MallocFree:
      return "MallocFree";
    case Pattern::MallocAsyncPool:
      return "MallocAsyncPool";
  }
  return "?";
}

}  // namespace

void register_alloc() {
  for (std::size_t bytes : {std::size_t(4) << 10, std::size_t(1) << 20, std::size_t(64) << 20})
    for (Pattern p : {Pattern::Async, Pattern::MallocFree, Pattern::MallocAsyncPool})
      register_family_benchmark(
          bench_name({"Alloc", pattern_name(p)}, {{"bytes", static_cast<std::int64_t>(bytes)}}),
          [p, bytes](benchmark::State& state) { run(state, p, bytes); });
}

}  // namespace sync_bench
