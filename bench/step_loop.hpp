#pragma once
// How every sync_bench benchmark is timed.
//
// A step is one op plus the host interaction under test. Steps run in batches; CUDA events on the
// stream bracket each batch, so a batch's time is GPU-timeline time and includes the idle gaps a
// host sync leaves on the GPU. Every batch follows an untimed lead-in of one period of its own
// steps, so that it starts in the state its steps keep the GPU in (busy for the Async baseline,
// idle after the wait of a pattern that waits), and ends with a wait for its stop event. A
// benchmark is measured in rounds, inside a single Google Benchmark iteration:
//   - unpaired: a round is one batch of the benchmark's steps;
//   - paired: a round is one batch of its steps and one batch of its Async baseline (the same op
//     without the pattern's host interaction), in an order flipped every round. The overhead is
//     the median of the per-round differences: both batches of a round ran with the same clocks
//     and host state, so a power-cap drift or a slow process cancels out of it.
// Rounds go on until the StoppingRule is met. The reported time per step is the median over the
// benchmark's batches. Warm-up steps (first-launch costs, page faults), the batch sizing, the sync
// accounting pass and the GPU-busy probe run outside the timed rounds; nothing is created in them.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "activity_trace.hpp"
#include "anatomy.hpp"
#include "busy_probe.hpp"
#include "cuda_check.hpp"
#include "cuda_resources.hpp"
#include "device_kernels.cuh"
#include "injected_cost.hpp"
#include "measure_config.hpp"
#include "measurement.hpp"
#include "sample_stats.hpp"
#include "sync_accounting.hpp"

namespace sync_bench {

struct StepStats : MeasuredSteps {
  std::int64_t last_step = -1;  // index of the last step run (pattern, baseline or probe)
  std::int64_t batch = 0;       // steps per timed batch
  // The GPU time of the step's work alone, queued behind a spin so that the host never starves
  // the GPU; NaN where the benchmark has no way to enqueue its work without waiting.
  double gpu_busy = std::numeric_limits<double>::quiet_NaN();
  double injected = 0.0;  // seconds of cost injected per step (--sync_inject)
  // From the untimed accounting pass, when sync accounting is on.
  std::int64_t accounted_steps = 0;
  double accounted_host_seconds = 0.0;
  SyncCounts syncs;
  std::string accounting_error;  // why the pass could not start (then no sync counters)
  // From the untimed anatomy pass, when the anatomy is on (or why it could not be taken).
  AnatomyTrace anatomy_trace;
  std::optional<StepAnatomy> anatomy;
  std::string anatomy_error;
};

// Which steps run_timed_steps is running now: measurements taken inside a step (TimedSum) count
// only in the timed ones, not in warm-up, batch sizing, the accounting pass or the probe.
enum class StepPhase { untimed, timed };
inline StepPhase& step_phase() {
  thread_local StepPhase phase = StepPhase::untimed;
  return phase;
}

// `phase` for as long as it lives, then the phase it found. The timed rounds run in one (a step
// that throws leaves them untimed again, so that the next benchmark's warm-up does not count in its
// TimedSums), and each batch's lead-in in an untimed one inside them.
class PhaseScope {
 public:
  explicit PhaseScope(StepPhase phase) : saved_(step_phase()) { step_phase() = phase; }
  ~PhaseScope() { step_phase() = saved_; }
  PhaseScope(const PhaseScope&) = delete;
  PhaseScope& operator=(const PhaseScope&) = delete;

 private:
  StepPhase saved_;
};

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

using StepFunction = std::function<void(std::int64_t)>;

inline constexpr int kAnatomyWarmupSteps = 2;
inline constexpr int kAnatomyPasses = 3;  // odd: the kept pass is the median

// Detaches CUPTI when a step of an untimed CUPTI pass (the anatomy's ActivityTrace, the sync
// accounting's SyncAccounting) throws, so that no later benchmark is timed with it attached (and,
// CUPTI taking one subscriber, a later accounting pass can subscribe); disarmed (pass = nullptr)
// once the steps are done.
template <class Pass>
struct AbandonOnThrow {
  Pass* pass;
  ~AbandonOnThrow() {
    if (pass) pass->abandon();
  }
};

struct LoopConfig {
  int warmup_steps = 3;
  // The batch is sized by the fastest of sizing_probes probes of sizing_steps steps each: a host
  // hiccup only slows a probe. One slowed probe sized an H100 process's SmallGemm/DeviceSync
  // batches at 8 steps where the others had about 55, and its paired overhead read 5.6% under the
  // others' median, a pattern's cost showing in (batch - 1) of a batch's steps
  // (results/h100/longer/call3; acceptance4/call2 had one at 10 steps, 5.2% under).
  int sizing_steps = 3;
  int sizing_probes = 3;
  // A batch long enough that event resolution (~0.5 us) vanishes in it, and at least min_batch
  // steps.
  double target_batch_seconds = 1e-3;
  std::int64_t min_batch = 4;
  std::int64_t max_batch = 4096;
  std::int64_t accounting_steps = 16;  // at most; at least 2, and no more than one batch
  std::int64_t anatomy_steps = 16;     // likewise, for the anatomy pass
  // The pattern repeats every `period` steps (one sync every k): the untimed passes run whole
  // periods, rounded up, so that they see its syncs as often as the timed steps do (16 steps of
  // a sync every 32 would count none).
  std::int64_t period = 1;
  // Paired measurement: the benchmark's Async baseline (its op, nothing else). Each baseline step
  // takes the next step index, as a pattern step does, so that the op's output stays predictable.
  StepFunction baseline;
  // The step's GPU work, enqueued without any wait, for the GPU-busy probe; step_is_async: the
  // step itself is such work. Without either, the benchmark reports no gpu_busy_us/gpu_bound.
  StepFunction gpu_work;
  bool step_is_async = false;
  // For a step that other threads run parts of (DataParallel's ranks): returns once they have
  // returned from every CUDA call of the steps so far. Called before CUPTI attaches or detaches
  // for the untimed passes, which must not happen while another thread is inside a CUDA call.
  std::function<void()> settle;
};

using StepClock = std::chrono::steady_clock;

// One event-bracketed batch of `steps` steps, to the wait for its stop event, after `lead_in`
// untimed steps of the same kind (run_timed_steps gives one period of the pattern). Why a lead-in:
// a batch that starts on an idle GPU charges its first step's launch from idle to the batch. A
// pattern that waits pays that launch after every wait, so its batch holds one per step; the Async
// baseline pays it only there, so it read launch / batch too slow, and the overhead that much too
// low: a quarter of the launch at BigGemm's 4 steps a batch, and a whole one for a sync every
// period where the batch is one period (SyncEvery k:256, DataParallel every:10 at n=4096, which
// read about half the per-read cost of a read every step). After the lead-in the baseline's batch
// starts behind its own queued work, and a waiting pattern's right after its own wait, as in a
// loop of either.
template <class Step>
BatchTime time_batch(cudaStream_t stream, Step& step, std::int64_t& i, std::int64_t steps,
                     BatchTimer& timer, std::int64_t lead_in) {
  {
    const PhaseScope untimed(StepPhase::untimed);
    for (std::int64_t s = 0; s < lead_in; ++s) step(i++);
  }
  BatchTime t;
  t.steps = steps;
  const double cpu0 = process_cpu_seconds();
  const auto host0 = StepClock::now();
  timer.start(stream);
  for (std::int64_t s = 0; s < steps; ++s) step(i++);
  timer.stop(stream);
  const auto host1 = StepClock::now();
  t.cpu_seconds = process_cpu_seconds() - cpu0;
  t.host_seconds = std::chrono::duration<double>(host1 - host0).count();
  t.gpu_seconds = timer.seconds();
  return t;
}

// Warm-up (first-launch costs, page faults), then short timed probes of the step. Advances the
// step index i past the steps it ran; returns the GPU time of one step in the fastest probe.
template <class Step>
double warm_up(cudaStream_t stream, Step& step, std::int64_t& i, const LoopConfig& config) {
  for (int w = 0; w < config.warmup_steps; ++w) step(i++);
  CUDA_CHECK(cudaDeviceSynchronize());
  BatchTimer timer;
  double fastest = std::numeric_limits<double>::infinity();
  for (int p = 0; p < config.sizing_probes; ++p) {
    // No lead-in: the probes end where first_timed_step says, and a probe slowed by its first
    // launch only sizes the batches a little shorter.
    const BatchTime probe = time_batch(stream, step, i, config.sizing_steps, timer, 0);
    fastest = std::min(fastest, probe.gpu_seconds / config.sizing_steps);
  }
  return std::max(fastest, 1e-9);
}

// The paired baseline's own warm-up: its op may launch what the pattern's step never does (a
// kernel on another GPU, whose module CUDA loads lazily at its first launch), and that first-use
// cost must not land in the first timed round.
inline void warm_up_baseline(const StepFunction& baseline, std::int64_t& i,
                             const LoopConfig& config) {
  for (int w = 0; w < config.warmup_steps; ++w) baseline(i++);
  CUDA_CHECK(cudaDeviceSynchronize());
}

// The index of the first timed step (run_timed_steps, measure_paired), after the warm-up, the
// sizing probes and, when paired, the baseline's warm-up. A pattern that acts every `period` steps
// counts its periods from here, so that every batch (a whole number of periods) ends on one.
inline std::int64_t first_timed_step(const LoopConfig& config) {
  return config.warmup_steps + config.sizing_probes * config.sizing_steps +
         (config.baseline ? config.warmup_steps : 0);
}

// Where a pattern that acts every config.period steps (a sync, a read) acts: on the steps that
// close a period counted from first_timed_step(config). Made from the config the steps run under,
// so that the count starts where the timed batches do.
struct PeriodEnds {
  std::int64_t first = 0;
  std::int64_t period = 1;
  explicit PeriodEnds(const LoopConfig& config)
      : first(first_timed_step(config)), period(config.period) {}
  bool operator()(std::int64_t step) const { return (step - first + 1) % period == 0; }
};

// `steps` rounded up to whole periods of the pattern.
inline std::int64_t whole_periods(std::int64_t steps, std::int64_t period) {
  return (steps + period - 1) / period * period;
}

// Steps of an untimed pass (accounting, anatomy): up to `most`, at least 2, no more than a batch,
// then rounded up to whole periods of the pattern.
inline std::int64_t untimed_pass_steps(std::int64_t batch, std::int64_t most, std::int64_t period) {
  return whole_periods(std::clamp<std::int64_t>(batch, 2, most), period);
}

// Steps per timed batch: about target_batch_seconds, within [min_batch, max_batch], then rounded
// up to whole periods of the pattern, so that every batch holds as many of its syncs as the next
// and ends on one (periods counted from first_timed_step).
inline std::int64_t batch_steps(double step_seconds, const LoopConfig& config) {
  return whole_periods(
      std::clamp<std::int64_t>(std::llround(config.target_batch_seconds / step_seconds),
                               std::min(config.min_batch, config.max_batch), config.max_batch),
      config.period);
}

// The GPU time per step of `work`, with its steps queued behind a spin kernel so that they run
// back to back however slowly the host submits them: the best of the tries that count, planned by
// ProbeTries (busy_probe.hpp) from step_seconds (the work's time per step in the timed batches, or
// an upper bound) and queue_seconds_per_step (what the host is expected to take to queue one step
// of `work`; 0 where unknown). NaN when no try counts.
template <class Work>
double probe_gpu_busy(cudaStream_t stream, Work& work, std::int64_t& i, double step_seconds,
                      double queue_seconds_per_step) {
  ProbeTries tries(probe_steps(step_seconds), queue_seconds_per_step);
  BatchTimer timer;
  while (tries.more()) {
    launch_spin_kernel(static_cast<std::uint64_t>(tries.hold() * 1e9), stream);
    const auto host0 = StepClock::now();
    timer.start(stream);
    for (std::int64_t s = 0; s < tries.steps(); ++s) work(i++);
    timer.stop(stream);
    const double queued = std::chrono::duration<double>(StepClock::now() - host0).count();
    tries.record(queued, timer.seconds());
  }
  return tries.per_step();
}

// Runs step(i) for increasing i in timed rounds (see the top of this file) inside one Google
// Benchmark iteration, whose manual time is the median time per step. Step must enqueue its work
// on `stream` (or sync it itself).
template <class Step>
StepStats run_timed_steps(benchmark::State& state, cudaStream_t stream, Step&& step,
                          const LoopConfig& config = {}) {
  // After a CUPTI pass that could not detach, every step would carry CUPTI's hooks.
  if (!cupti_left_attached().empty()) throw std::runtime_error(cupti_left_attached());
  StepStats stats;
  std::int64_t i = 0;
  const double sized_step = warm_up(stream, step, i, config);
  stats.batch = batch_steps(sized_step, config);
  stats.injected = injection().seconds_for(current_benchmark_name(), sized_step);
  const InjectedCost cost(injection().kind, stats.injected, stream);
  auto timed_step = [&](std::int64_t s) {
    cost.pay();
    step(s);
  };
  StepFunction baseline = config.baseline;
  const bool paired = static_cast<bool>(baseline);
  if (paired) warm_up_baseline(baseline, i, config);
  assert(i == first_timed_step(config));

  BatchTimer timer;
  for (auto _ : state) {
    Measurement measurement(stopping_rule(), paired);
    {
      const PhaseScope timed(StepPhase::timed);
      while (!measurement.enough()) {
        BatchTime base;
        const bool base_first = paired && Measurement::baseline_first(measurement.rounds());
        if (base_first) base = time_batch(stream, baseline, i, stats.batch, timer, config.period);
        const BatchTime own = time_batch(stream, timed_step, i, stats.batch, timer, config.period);
        if (paired && !base_first)
          base = time_batch(stream, baseline, i, stats.batch, timer, config.period);
        measurement.add_round(own, base);
      }
    }
    static_cast<MeasuredSteps&>(stats) = measurement.result();
    state.SetIterationTime(stats.step);
  }

  auto settle = [&config] {
    if (config.settle) config.settle();
  };
  // Sync accounting: a few more steps, untimed, with CUPTI callbacks on. The untimed passes run
  // the timed step, injected cost included, so that what they report beside the timing (host time
  // with the callbacks, the anatomy's step, the GPU's busy time) is of the same step.
  if (SyncAccounting* accounting = sync_accounting(); accounting && stats.steps > 0) {
    const std::int64_t steps =
        untimed_pass_steps(stats.batch, config.accounting_steps, config.period);
    settle();
    if (accounting->begin(&stats.accounting_error)) {
      AbandonOnThrow<SyncAccounting> guard{accounting};
      const auto host0 = StepClock::now();
      for (std::int64_t a = 0; a < steps; ++a) timed_step(i++);
      stats.accounted_host_seconds =
          std::chrono::duration<double>(StepClock::now() - host0).count();
      settle();
      guard.pass = nullptr;
      stats.syncs = accounting->end();
      stats.accounted_steps = steps;
    }
  }

  // Step anatomy: a few more steps, untimed, from an idle GPU (as a waiting pattern's batch
  // starts; an async step's starts behind its lead-in: see anatomy.hpp), recorded by
  // CUPTI's activity API. A CUPTI failure costs the benchmark its anatomy counters, not its
  // numbers; a step that fails its own check fails the benchmark, as in the timed rounds. A pass
  // is short (16 null-kernel steps take ~0.1 ms), so one preemption of the host can lengthen it
  // several times over (an H100 host: a traced 23.6 us step against a timed 4.5 us): the row keeps
  // the pass whose step is the median of kAnatomyPasses.
  if (ActivityTrace* trace = activity_trace(); trace && stats.steps > 0) {
    const std::int64_t steps = untimed_pass_steps(stats.batch, config.anatomy_steps, config.period);
    std::vector<std::pair<AnatomyTrace, StepAnatomy>> passes;
    for (int p = 0; p < kAnatomyPasses && stats.anatomy_error.empty(); ++p) {
      CUDA_CHECK(cudaDeviceSynchronize());
      settle();
      try {
        trace->begin();
      } catch (const std::exception& e) {
        trace->abandon();
        stats.anatomy_error = e.what();
        break;
      }
      AbandonOnThrow<ActivityTrace> guard{trace};
      // CUPTI instruments a call path the first time it is traced (milliseconds on the H100):
      // two steps absorb that before the recorded ones, which start on an idle GPU again.
      for (int w = 0; w < kAnatomyWarmupSteps; ++w) timed_step(i++);
      CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<std::uint64_t> starts;
      starts.reserve(static_cast<std::size_t>(steps));
      for (std::int64_t a = 0; a < steps; ++a) {
        starts.push_back(ActivityTrace::now_ns());
        timed_step(i++);
      }
      const std::uint64_t host_end = ActivityTrace::now_ns();
      CUDA_CHECK(cudaDeviceSynchronize());
      settle();
      guard.pass = nullptr;
      try {
        AnatomyTrace recorded = trace->end(starts, host_end);
        const StepAnatomy anatomy = analyze(recorded);
        passes.emplace_back(std::move(recorded), anatomy);
      } catch (const std::exception& e) {
        trace->abandon();
        stats.anatomy_error = e.what();
      }
    }
    if (stats.anatomy_error.empty() && !passes.empty()) {
      const auto median = passes.begin() + static_cast<std::ptrdiff_t>(passes.size() / 2);
      std::nth_element(passes.begin(), median, passes.end(), [](const auto& a, const auto& b) {
        return a.second.step_us < b.second.step_us;
      });
      stats.anatomy_trace = std::move(median->first);
      stats.anatomy = median->second;
    }
  }

  // Last, so that the steps before it keep the step indices an aligned benchmark counts on.
  StepFunction gpu_work = paired ? baseline : config.gpu_work;
  if (gpu_work) {
    auto injected_work = [&](std::int64_t s) {
      cost.pay();
      gpu_work(s);
    };
    // The spin must outlast the host's queueing of the probed work. A paired benchmark's is its
    // baseline's op, queued in the baseline's host time, and the injected cost, which a probed
    // step pays and a baseline step does not. The pattern's host time includes its waits (21.6 ms
    // a step for an fp32 n=8192 GEMM and a sync, whose GEMM is queued in 18 us on an H200): a
    // spin sized by it held the GPU idle for half a second in every such row. An unpaired
    // benchmark's work has no host time of its own measured: the probe sizes its spin by what
    // the host takes in its first try.
    // The work's own time per step is the baseline's; the unpaired pattern's step bounds it.
    const double queue_seconds = stats.injected + (paired ? stats.baseline_host : 0.0);
    const double work_seconds = paired ? stats.baseline : stats.step;
    stats.gpu_busy = probe_gpu_busy(stream, injected_work, i, work_seconds, queue_seconds);
  } else if (config.step_is_async) {
    stats.gpu_busy = probe_gpu_busy(stream, timed_step, i, stats.step, stats.host);
  }
  stats.last_step = i - 1;
  return stats;
}

// GPU-timeline seconds per step, measured as run_timed_steps measures a benchmark (same warm-up,
// same sizing rule, event-bracketed batches, the median over them), but outside Google
// Benchmark's loop: for the numbers a benchmark derives from other step functions than its own
// (a fit, a break-even point).
template <class Step>
double measure_step_seconds(cudaStream_t stream, Step&& step, int batches,
                            const LoopConfig& config = {}) {
  std::int64_t i = 0;
  const std::int64_t batch = batch_steps(warm_up(stream, step, i, config), config);
  BatchTimer timer;
  std::vector<double> per_step;
  for (int b = 0; b < batches; ++b)
    per_step.push_back(time_batch(stream, step, i, batch, timer, config.period).gpu_seconds /
                       batch);
  return median(per_step);
}

// What a paired benchmark measures (baseline and median per-round overhead, seconds per step),
// outside Google Benchmark's loop and without a stopping rule: `rounds` rounds of the step and
// config.baseline (which must be set), the order flipped every round, both taking the next step
// indices. For derived numbers (a fit).
template <class Step>
MeasuredSteps measure_paired(cudaStream_t stream, Step&& step, int rounds,
                             const LoopConfig& config) {
  if (!config.baseline) throw std::logic_error("measure_paired: the config names no baseline");
  std::int64_t i = 0;
  const std::int64_t batch = batch_steps(warm_up(stream, step, i, config), config);
  warm_up_baseline(config.baseline, i, config);
  assert(i == first_timed_step(config));
  BatchTimer timer;
  Measurement measurement(stopping_rule(), /*paired=*/true);
  for (int r = 0; r < rounds; ++r) {
    BatchTime base;
    const bool base_first = Measurement::baseline_first(r);
    if (base_first) base = time_batch(stream, config.baseline, i, batch, timer, config.period);
    const BatchTime own = time_batch(stream, step, i, batch, timer, config.period);
    if (!base_first) base = time_batch(stream, config.baseline, i, batch, timer, config.period);
    measurement.add_round(own, base);
  }
  return measurement.result();
}

// The counters every benchmark reports beside its time per step (see the README for each), and
// the GPU's state just after it: a benchmark that ran while the clock was held down says so in
// its counters and label, one that had a cost injected says so in its label.
void report_step_counters(benchmark::State& state, const StepStats& stats,
                          double flops_per_step = 0.0);

}  // namespace sync_bench
