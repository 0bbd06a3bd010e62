#pragma once
// How every sync_bench benchmark is timed.
//
// A step is one op plus the host interaction under test. Steps run in batches; CUDA events on the
// stream bracket each batch, so the reported (manual) time is GPU-timeline time per step and
// includes the idle gaps a host sync leaves on the GPU. Host wall time and process CPU time per
// step go beside it as counters. Warm-up steps (first-launch costs, page faults) and the batch
// sizing run before the timed loop; nothing is created inside it.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <string>

#include "bench_context.hpp"
#include "cuda_check.hpp"
#include "cuda_resources.hpp"
#include "sync_accounting.hpp"

namespace sync_bench {

struct StepStats {
  std::int64_t steps = 0;         // timed steps
  std::int64_t last_step = -1;    // index of the last step run
  std::int64_t batch = 0;         // steps per timed batch
  double gpu_seconds = 0.0;       // GPU timeline, summed over batches
  double host_seconds = 0.0;      // host wall time in the step loop
  double host_cpu_seconds = 0.0;  // process CPU time in the step loop
  // From the untimed accounting pass, when sync accounting is on.
  std::int64_t accounted_steps = 0;
  double accounted_host_seconds = 0.0;
  SyncCounts syncs;
};

// Which steps run_timed_steps is running now: measurements taken inside a step (TimedSum) count
// only in the timed ones, not in warm-up, batch sizing or the accounting pass.
enum class StepPhase { untimed, timed };
inline StepPhase& step_phase() {
  thread_local StepPhase phase = StepPhase::untimed;
  return phase;
}

// A host measurement summed over the timed steps only (time inside one call, a stale read).
class TimedSum {
 public:
  void add(double value) {
    if (step_phase() == StepPhase::timed) sum_ += value;
  }
  double sum() const { return sum_; }

 private:
  double sum_ = 0.0;
};

class BatchTimer {
 public:
  void start(cudaStream_t stream) { CUDA_CHECK(cudaEventRecord(start_.get(), stream)); }
  void stop(cudaStream_t stream) { CUDA_CHECK(cudaEventRecord(stop_.get(), stream)); }
  // Waits for the stop event: called only after the host part of a batch is over.
  double seconds() const {
    CUDA_CHECK(cudaEventSynchronize(stop_.get()));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
    return ms * 1e-3;
  }

 private:
  Event start_, stop_;
};

inline double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct LoopConfig {
  int warmup_steps = 3;
  int sizing_steps = 3;
  // A batch long enough that event resolution (~0.5 us) and the batch boundary vanish in it.
  double target_batch_seconds = 1e-3;
  std::int64_t max_batch = 4096;
  std::int64_t accounting_steps = 16;  // at most; at least 2, and no more than one batch
};

// Warm-up (first-launch costs, page faults), then a short timed probe that sizes the batch.
// Advances the step index i past the steps it ran; returns the steps per batch.
template <class Step>
std::int64_t warm_up_and_size_batch(cudaStream_t stream, Step& step, std::int64_t& i,
                                    const LoopConfig& config) {
  for (int w = 0; w < config.warmup_steps; ++w) step(i++);
  CUDA_CHECK(cudaDeviceSynchronize());
  BatchTimer timer;
  timer.start(stream);
  for (int w = 0; w < config.sizing_steps; ++w) step(i++);
  timer.stop(stream);
  const double per_step = std::max(timer.seconds() / config.sizing_steps, 1e-9);
  return std::clamp<std::int64_t>(std::llround(config.target_batch_seconds / per_step), 1,
                                  config.max_batch);
}

// Runs step(i) for increasing i, one step per Google Benchmark iteration, so that min_time and
// the iteration count mean GPU time and steps. Steps are timed in batches: each finished batch
// reports its whole GPU time through SetIterationTime (which accumulates), so the reported time is
// the batch time divided by its steps. Step must enqueue its work on `stream` (or sync it itself).
template <class Step>
StepStats run_timed_steps(benchmark::State& state, cudaStream_t stream, Step&& step,
                          const LoopConfig& config = {}) {
  using Clock = std::chrono::steady_clock;
  StepStats stats;
  std::int64_t i = 0;
  stats.batch = warm_up_and_size_batch(stream, step, i, config);
  BatchTimer timer;

  std::int64_t in_batch = 0;
  double cpu0 = 0.0;
  Clock::time_point host0;
  auto close_batch = [&] {
    timer.stop(stream);
    const auto host1 = Clock::now();
    const double cpu1 = process_cpu_seconds();
    const double gpu = timer.seconds();
    state.SetIterationTime(gpu);
    stats.gpu_seconds += gpu;
    stats.host_seconds += std::chrono::duration<double>(host1 - host0).count();
    stats.host_cpu_seconds += cpu1 - cpu0;
    stats.steps += in_batch;
    in_batch = 0;
  };
  step_phase() = StepPhase::timed;
  for (auto _ : state) {
    if (in_batch == 0) {
      cpu0 = process_cpu_seconds();
      host0 = Clock::now();
      timer.start(stream);
    }
    step(i++);
    if (++in_batch == stats.batch) close_batch();
  }
  if (in_batch > 0) close_batch();  // Google Benchmark's count need not be a multiple of batch
  step_phase() = StepPhase::untimed;

  // Sync accounting: a few more steps, untimed, with CUPTI callbacks on.
  if (SyncAccounting* accounting = sync_accounting(); accounting && stats.steps > 0) {
    stats.accounted_steps = std::clamp<std::int64_t>(stats.batch, 2, config.accounting_steps);
    accounting->begin();
    const auto host0 = Clock::now();
    for (std::int64_t a = 0; a < stats.accounted_steps; ++a) step(i++);
    stats.accounted_host_seconds = std::chrono::duration<double>(Clock::now() - host0).count();
    stats.syncs = accounting->end();
  }
  stats.last_step = i - 1;
  return stats;
}

// GPU-timeline seconds per step, measured as run_timed_steps measures a benchmark (same warm-up,
// same sizing rule, event-bracketed batches, same step indices: the first timed step is
// warmup_steps + sizing_steps), but outside Google Benchmark's loop: for the numbers a benchmark
// derives from other step functions than its own (a fit, a break-even point).
template <class Step>
double measure_step_seconds(cudaStream_t stream, Step&& step, int batches,
                            const LoopConfig& config = {}) {
  std::int64_t i = 0;
  const std::int64_t batch = warm_up_and_size_batch(stream, step, i, config);
  BatchTimer timer;
  double seconds = 0.0;
  for (int b = 0; b < batches; ++b) {
    timer.start(stream);
    for (std::int64_t s = 0; s < batch; ++s) step(i++);
    timer.stop(stream);
    seconds += timer.seconds();
  }
  return seconds / (static_cast<double>(batch) * batches);
}

// The counters every benchmark reports beside its GPU time, and the GPU's state just after it:
// a benchmark that ran while the clock was held down says so in its counters and label.
inline void report_step_counters(benchmark::State& state, const StepStats& stats,
                                 double flops_per_step = 0.0) {
  if (stats.steps == 0) return;
  std::string label;
  if (const NvmlDevice* nvml = bench_context().nvml()) {
    if (const auto mhz = nvml->sm_clock_mhz()) state.counters["sm_clock_mhz"] = *mhz;
    if (const auto reasons = nvml->throttle_reasons()) {
      state.counters["throttled"] = is_throttled(*reasons) ? 1.0 : 0.0;
      if (is_throttled(*reasons))
        label = "THROTTLED (" + describe_throttle_reasons(*reasons) + ") ";
    }
  }
  state.counters["host_us"] = stats.host_seconds / stats.steps * 1e6;
  state.counters["host_cpu_us"] = stats.host_cpu_seconds / stats.steps * 1e6;
  state.counters["batch"] = static_cast<double>(stats.batch);
  if (flops_per_step > 0.0)
    state.counters["TFLOPS"] = flops_per_step * stats.steps / stats.gpu_seconds * 1e-12;
  if (stats.accounted_steps > 0) {
    const double n = static_cast<double>(stats.accounted_steps);
    state.counters["syncs_per_step"] = stats.syncs.blocking_calls / n;
    state.counters["blocked_us_per_step"] = stats.syncs.blocked_seconds / n * 1e6;
    // What the callbacks cost the host: host time per step with them on, minus without.
    state.counters["accounting_overhead_us"] =
        (stats.accounted_host_seconds / n - stats.host_seconds / stats.steps) * 1e6;
    label += "blocks: " + SyncAccounting::describe_per_step(stats.syncs, stats.accounted_steps);
  }
  if (!label.empty()) state.SetLabel(label);
}

}  // namespace sync_bench
