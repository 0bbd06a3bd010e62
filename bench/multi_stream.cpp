// MultiStream: which waits see work on another stream (seed 002). A one-thread kernel spins for
// spin_us on one stream, then writes the step's value; the values the host reads afterwards show
// what each wait waited for, and the GPU timeline shows what it cost.

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "copies_kernels.cuh"
#include "cuda_resources.hpp"
#include "device_kernels.cuh"
#include "families.hpp"
#include "names.hpp"
#include "step_loop.hpp"

namespace sync_bench {
namespace {

enum class Pattern { StreamSyncOther, DeviceSyncOther, LegacyMemcpy };

struct Spec {
  Pattern pattern;
  bool blocking_stream = false;  // LegacyMemcpy: the spinning stream syncs with the legacy one
  std::int64_t spin_us = 200;
};

int value_of(std::int64_t step) {
  return static_cast<int>(step % 1000000000 + 1);
}

// Stream B keeps one spin in flight (a new one as soon as the last one wrote its flag); each step
// runs a null kernel on stream A and waits: cudaStreamSynchronize(A) returns while B still spins,
// cudaDeviceSynchronize waits for B's spin to end.
StepStats run_other(benchmark::State& state, const Spec& spec, const LoopConfig& config,
                    TimedSum* busy_at_return) {
  Stream a(cudaStreamNonBlocking), b(cudaStreamNonBlocking);
  PinnedBuffer<int> flags(2);  // written by the kernels through the mapping, read by the host
  volatile int* const flag = flags.get();
  flag[0] = flag[1] = 0;
  void* mapped = nullptr;
  CUDA_CHECK(cudaHostGetDevicePointer(&mapped, flags.get(), 0));
  int* const device_flag = static_cast<int*>(mapped);
  const bool device_sync = spec.pattern == Pattern::DeviceSyncOther;
  int spinning = 0;  // the value the spin last launched on B will write
  std::int64_t bad = 0;
  StepStats stats = run_timed_steps(
      state, a.get(),
      [&](std::int64_t i) {
        const int v = value_of(i);
        if (flag[1] == spinning) {
          launch_spin_kernel(spec.spin_us * 1000, b.get(), device_flag + 1, v);
          spinning = v;
        }
        launch_null_kernel(device_flag, v, a.get());
        if (device_sync)
          CUDA_CHECK(cudaDeviceSynchronize());
        else
          CUDA_CHECK(cudaStreamSynchronize(a.get()));
        const bool b_busy = flag[1] != spinning;
        if (flag[0] != v || (device_sync && b_busy)) ++bad;
        busy_at_return->add(b_busy ? 1.0 : 0.0);
      },
      config);
  CUDA_CHECK(cudaDeviceSynchronize());
  if (bad > 0 || flag[1] != spinning)
    throw std::runtime_error(std::to_string(bad) + " syncs returned before what they wait for");
  return stats;
}

// A plain cudaMemcpy (legacy default stream) reads the value a spinning kernel writes at its end:
// it waits for a blocking stream's kernel and reads the new value; it does not wait for a
// non-blocking stream's kernel and reads the previous step's value (counted, not failed).
StepStats run_legacy_memcpy(benchmark::State& state, const Spec& spec, const LoopConfig& config,
                            TimedSum* stale_reads, TimedSum* memcpy_seconds) {
  using Clock = std::chrono::steady_clock;
  Stream s(spec.blocking_stream ? cudaStreamDefault : cudaStreamNonBlocking);
  DeviceBuffer<int> value(1);
  PinnedBuffer<int> read(1);
  CUDA_CHECK(cudaMemsetAsync(value.get(), 0, value.bytes(), s.get()));
  CUDA_CHECK(cudaStreamSynchronize(s.get()));
  int previous = 0;
  std::int64_t bad = 0;
  LoopConfig probed = config;  // the step's GPU work is its spin
  probed.gpu_work = [&](std::int64_t i) {
    launch_spin_kernel(spec.spin_us * 1000, s.get(), value.get(), value_of(i));
  };
  StepStats stats = run_timed_steps(
      state, s.get(),
      [&](std::int64_t i) {
        const int v = value_of(i);
        launch_spin_kernel(spec.spin_us * 1000, s.get(), value.get(), v);
        const auto t0 = Clock::now();
        CUDA_CHECK(cudaMemcpy(read.get(), value.get(), sizeof(int), cudaMemcpyDeviceToHost));
        memcpy_seconds->add(std::chrono::duration<double>(Clock::now() - t0).count());
        const int got = *read.get();
        if (got != v && (spec.blocking_stream || got != previous)) ++bad;
        stale_reads->add(got != v ? 1.0 : 0.0);
        CUDA_CHECK(cudaStreamSynchronize(s.get()));  // the next step starts from this step's value
        previous = v;
      },
      probed);
  if (bad > 0)
    throw std::runtime_error(std::to_string(bad) +
                             " plain cudaMemcpy reads were neither this step's nor the last one's "
                             "value, or were stale after a blocking stream");
  return stats;
}

void run(benchmark::State& state, const Spec& spec) {
  const LoopConfig config;
  TimedSum counted, memcpy_seconds;
  const StepStats stats = spec.pattern == Pattern::LegacyMemcpy
                              ? run_legacy_memcpy(state, spec, config, &counted, &memcpy_seconds)
                              : run_other(state, spec, config, &counted);
  report_step_counters(state, stats);
  if (stats.steps == 0) return;
  if (spec.pattern == Pattern::LegacyMemcpy) {
    state.counters["stale_reads"] = counted.sum();
    state.counters["memcpy_us"] = memcpy_seconds.sum() / stats.steps * 1e6;
  } else {
    // The share of syncs that returned while the other stream was still spinning.
    state.counters["other_busy"] = counted.sum() / stats.steps;
  }
}

void add(const Spec& spec) {
  const char* pattern = spec.pattern == Pattern::StreamSyncOther   ? "StreamSyncOther"
                        : spec.pattern == Pattern::DeviceSyncOther ? "DeviceSyncOther"
                                                                   : "LegacyMemcpy";
  const char* variant = spec.pattern != Pattern::LegacyMemcpy ? ""
                        : spec.blocking_stream                ? "blocking_stream"
                                                              : "non_blocking_stream";
  register_family_benchmark(
      bench_name({"MultiStream", pattern, variant}, {{"spin_us", spec.spin_us}}),
      [spec](benchmark::State& state) { run(state, spec); });
}

}  // namespace

void register_multi_stream() {
  add(Spec{Pattern::StreamSyncOther});
  add(Spec{Pattern::DeviceSyncOther});
  add(Spec{Pattern::LegacyMemcpy, true});
  add(Spec{Pattern::LegacyMemcpy, false});
}

}  // namespace sync_bench
