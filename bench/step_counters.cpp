// The counters of report_step_counters (step_loop.hpp). Times are microseconds per step.

#include <cmath>
#include <cstdio>
#include <string>

#include "anatomy_timeline.hpp"
#include "bench_context.hpp"
#include "measure_config.hpp"
#include "step_loop.hpp"

namespace sync_bench {
namespace {

// gpu_bound (from the probe) uses the anatomy's kGpuBoundShare: a step is GPU-bound when the GPU
// is busy with its work for at least that share of it; then a faster or slower host moves its
// time little, and its time reproduces from host to host.
//
// How far the anatomy pass's step may be from the timed step before the label says so.
constexpr double kAnatomyTolerance = 0.10;

void report_anatomy(benchmark::State& state, const StepAnatomy& a, double step_seconds,
                    std::string* label) {
  state.counters["anatomy_step_us"] = a.step_us;
  state.counters["gpu_active_us"] = a.gpu_active_us;
  state.counters["gpu_idle_us"] = a.gpu_idle_us;
  if (std::isfinite(a.launch_latency_us)) state.counters["launch_latency_us"] = a.launch_latency_us;
  state.counters["host_api_us"] = a.host_api_us;
  state.counters["host_blocked_us"] = a.host_blocked_us;
  state.counters["host_other_us"] = a.host_other_us;
  state.counters["bound"] = static_cast<double>(a.bound);
  state.counters["anatomy_gpu_ops"] = a.gpu_activities;
  state.counters["anatomy_blocking_calls"] = a.blocking_calls;
  state.counters["anatomy_api_calls"] = a.api_calls;
  *label += std::string(label->empty() ? "" : " ") + "bound: " + std::string(name(a.bound));
  if (step_seconds <= 0.0) return;
  // The anatomy pass is a separate, shorter run of the steps: say where it is far from the timing.
  const double gap = (a.step_us - step_seconds * 1e6) / (step_seconds * 1e6);
  state.counters["anatomy_gap_pct"] = gap * 100;
  if (std::abs(gap) > kAnatomyTolerance) {
    char text[64];
    std::snprintf(text, sizeof(text), " (anatomy step %+.0f%% off the timed step)", gap * 100);
    *label += text;
  }
}

}  // namespace

void report_step_counters(benchmark::State& state, const StepStats& stats, double flops_per_step) {
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
  if (stats.injected > 0.0) {
    state.counters["injected_us"] = stats.injected * 1e6;
    label += "INJECTED (" + injection().describe() + ") ";
  }
  state.counters["steps"] = static_cast<double>(stats.steps);
  state.counters["batches"] = static_cast<double>(stats.batches);
  state.counters["batch"] = static_cast<double>(stats.batch);
  state.counters["min_us"] = stats.min_step * 1e6;
  if (std::isfinite(stats.noise)) state.counters["noise_pct"] = stats.noise * 100.0;
  state.counters["host_us"] = stats.host * 1e6;
  state.counters["host_cpu_us"] = stats.host_cpu * 1e6;
  if (std::isfinite(stats.gpu_busy)) {
    state.counters["gpu_busy_us"] = stats.gpu_busy * 1e6;
    state.counters["gpu_bound"] = stats.gpu_busy >= kGpuBoundShare * stats.step ? 1.0 : 0.0;
  }
  if (stats.paired) {
    state.counters["baseline_us"] = stats.baseline * 1e6;
    state.counters["baseline_host_us"] = stats.baseline_host * 1e6;
    state.counters["overhead_us"] = stats.overhead * 1e6;
    state.counters["overhead_p25_us"] = stats.overhead_p25 * 1e6;
    state.counters["overhead_p75_us"] = stats.overhead_p75 * 1e6;
  }
  if (flops_per_step > 0.0 && stats.step > 0.0)
    state.counters["TFLOPS"] = flops_per_step / stats.step * 1e-12;
  if (stats.accounted_steps > 0) {
    const double n = static_cast<double>(stats.accounted_steps);
    state.counters["syncs_per_step"] = stats.syncs.blocking_calls / n;
    state.counters["blocked_us_per_step"] = stats.syncs.blocked_seconds / n * 1e6;
    // What the callbacks cost the host: host time per step with them on, minus without.
    state.counters["accounting_overhead_us"] =
        (stats.accounted_host_seconds / n - stats.host) * 1e6;
    label += "blocks: " + SyncAccounting::describe_per_step(stats.syncs, stats.accounted_steps);
  }
  if (!stats.accounting_error.empty())
    label += (label.empty() ? "" : " ") + ("sync accounting failed: " + stats.accounting_error);
  if (stats.anatomy) report_anatomy(state, *stats.anatomy, stats.step, &label);
  if (!stats.anatomy_error.empty()) label += " anatomy failed: " + stats.anatomy_error;
  if (stats.anatomy && anatomy_timeline())
    anatomy_timeline()->add(current_benchmark_name(), stats.anatomy_trace);
  if (!label.empty()) state.SetLabel(label);
}

}  // namespace sync_bench
