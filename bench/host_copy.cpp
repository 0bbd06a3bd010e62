// HostCopy: what a copy between host and device costs, by direction, host memory (pageable or
// pinned) and API (cudaMemcpy, or cudaMemcpyAsync + cudaStreamSynchronize), from 4 B to 256 MiB.
// A step = one copy and its wait. Every copied word is checked against a hash pattern.

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_context.hpp"
#include "copies_kernels.cuh"
#include "families.hpp"
#include "names.hpp"
#include "step_loop.hpp"

namespace sync_bench {
namespace {

enum class Direction { H2D, D2H };
enum class HostMemory { pageable, pinned };
enum class Api { memcpy, memcpy_async };

struct Spec {
  Direction direction;
  bool call_only;  // the step is the cudaMemcpyAsync call alone: no wait
  HostMemory memory;
  Api api;
  std::size_t bytes;
};

constexpr std::uint32_t kSeed = 7;

// Host side of a copy: plain memory (touched now, not on the first copy) or page-locked.
class HostWords {
 public:
  HostWords(HostMemory memory, std::size_t words) {
    if (memory == HostMemory::pinned)
      pinned_ = PinnedBuffer<std::uint32_t>(words);
    else
      pageable_.assign(words, 0);
  }
  std::uint32_t* get() { return pinned_.get() ? pinned_.get() : pageable_.data(); }

 private:
  PinnedBuffer<std::uint32_t> pinned_;
  std::vector<std::uint32_t> pageable_;
};

void run(benchmark::State& state, const Spec& spec) {
  using Clock = std::chrono::steady_clock;
  const cudaStream_t setup = bench_context().stream();  // non-blocking
  // cudaMemcpy always goes to the legacy default stream: its copies are timed there.
  const cudaStream_t stream = spec.api == Api::memcpy ? cudaStreamLegacy : setup;
  const bool h2d = spec.direction == Direction::H2D;
  const std::size_t words = spec.bytes / sizeof(std::uint32_t), last = words - 1;
  HostWords host(spec.memory, words);
  DeviceBuffer<std::uint32_t> device(words);
  std::uint32_t* const h = host.get();

  // The source holds the pattern, the destination poison.
  fill_pattern(device.get(), words, kSeed, setup);
  if (h2d) {
    CUDA_CHECK(cudaMemcpyAsync(h, device.get(), spec.bytes, cudaMemcpyDeviceToHost, setup));
    CUDA_CHECK(cudaMemsetAsync(device.get(), 0xff, spec.bytes, setup));
  }
  CUDA_CHECK(cudaStreamSynchronize(setup));
  if (!h2d) std::memset(h, 0xa5, spec.bytes);

  void* const dst = h2d ? static_cast<void*>(device.get()) : h;
  const void* const src = h2d ? static_cast<const void*>(h) : device.get();
  const cudaMemcpyKind kind = h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  const std::uint32_t first = pattern_word(0, kSeed), final_word = pattern_word(last, kSeed);
  // H2D steps stamp word 0 of the source, so the destination tells which step arrived last.
  auto stamp = [first](std::int64_t i) { return first ^ static_cast<std::uint32_t>(i + 1); };
  auto copy = [&] {
    if (spec.api == Api::memcpy)
      CUDA_CHECK(cudaMemcpy(dst, src, spec.bytes, kind));
    else
      CUDA_CHECK(cudaMemcpyAsync(dst, src, spec.bytes, kind, stream));
  };

  // From pinned memory the copy is DMA work the host only enqueues: its GPU time is what the
  // probe measures (stamped as a waited H2D step is, so the last-step check still holds).
  LoopConfig config;
  if (spec.memory == HostMemory::pinned) {
    if (spec.call_only)
      config.step_is_async = true;
    else
      config.gpu_work = [&](std::int64_t i) {
        if (h2d) h[0] = stamp(i);
        CUDA_CHECK(cudaMemcpyAsync(dst, src, spec.bytes, kind, stream));
      };
  }
  TimedSum call_seconds;
  std::int64_t bad_reads = 0;
  StepStats stats;
  if (spec.call_only) {
    // What "async" means to the host: from pinned memory the call only enqueues; from pageable
    // memory an H2D call returns once the data is staged, a D2H call once it has landed.
    stats = run_timed_steps(
        state, stream,
        [&](std::int64_t) {
          const auto t0 = Clock::now();
          copy();
          call_seconds.add(std::chrono::duration<double>(Clock::now() - t0).count());
        },
        config);
  } else {
    // The copy a program waits for: D2H words 0 and last are poisoned before and checked after.
    stats = run_timed_steps(
        state, stream,
        [&](std::int64_t i) {
          if (h2d) {
            h[0] = stamp(i);
          } else {
            h[0] = ~first;
            h[last] = ~final_word;
          }
          copy();
          if (spec.api == Api::memcpy_async) CUDA_CHECK(cudaStreamSynchronize(stream));
          if (!h2d && (h[0] != first || h[last] != final_word)) ++bad_reads;
        },
        config);
  }

  // Every word of the destination, checked on the device after everything has landed.
  CUDA_CHECK(cudaDeviceSynchronize());
  std::size_t from = 0;
  if (h2d && !spec.call_only) {
    std::uint32_t got = 0;
    CUDA_CHECK(cudaMemcpy(&got, device.get(), sizeof(got), cudaMemcpyDeviceToHost));
    if (got != stamp(stats.last_step))
      throw std::runtime_error("word 0 of the destination is not what the last step copied");
    from = 1;
  } else if (!h2d) {
    CUDA_CHECK(cudaMemcpy(device.get(), h, spec.bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));  // a pageable H2D may still be landing
  }
  const std::uint64_t wrong = pattern_mismatches(device.get(), from, words, kSeed, setup);
  if (wrong > 0 || bad_reads > 0)
    throw std::runtime_error(std::to_string(wrong) + " words copied wrong, " +
                             std::to_string(bad_reads) + " steps read before their copy landed");
  report_step_counters(state, stats);
  state.SetBytesProcessed(static_cast<std::int64_t>(spec.bytes));  // per step
  if (spec.call_only && stats.steps > 0)
    state.counters["call_us"] = call_seconds.sum() / stats.steps * 1e6;
}

const char* pattern_name(const Spec& s) {
  if (s.direction == Direction::H2D) return s.call_only ? "H2DCall" : "H2D";
  return s.call_only ? "D2HCall" : "D2H";
}

void add(const Spec& spec) {
  const std::string bench = bench_name(
      {"HostCopy", pattern_name(spec), spec.memory == HostMemory::pinned ? "pinned" : "pageable",
       spec.api == Api::memcpy ? "memcpy" : "memcpy_async"},
      {{"bytes", static_cast<std::int64_t>(spec.bytes)}});
  register_family_benchmark(bench, [spec](benchmark::State& state) { run(state, spec); });
}

// A log sweep from one word to 256 MiB: latency-bound up to ~64 KiB, bandwidth-bound from 1 MiB.
const std::vector<std::size_t> kSizes = {4, 4 << 10, 64 << 10, 1 << 20, 16 << 20, 256 << 20};

}  // namespace

void register_host_copy() {
  for (bool call_only : {false, true})
    for (Direction d : {Direction::H2D, Direction::D2H})
      for (HostMemory m : {HostMemory::pageable, HostMemory::pinned})
        for (Api a : {Api::memcpy, Api::memcpy_async}) {
          if (call_only && a == Api::memcpy) continue;  // cudaMemcpy always waits
          for (std::size_t bytes : kSizes) add(Spec{d, call_only, m, a, bytes});
        }
}

}  // namespace sync_bench
