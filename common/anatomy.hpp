#pragma once
// Step anatomy: where the time of a step goes, from a trace of a few consecutive steps (host API
// calls and GPU activities on one clock, as CUPTI's activity API records them; see
// activity_trace.hpp). Plain C++, no CUDA: the arithmetic is tested on recorded traces anywhere.
//
// The window of a trace runs from the host starting its first step to the later of the host
// returning from its last step and the GPU finishing the steps' last activity: the analogue of an
// event-bracketed batch of a pattern that waits, which starts on an idle GPU and ends when the GPU
// is done (an async step's timed batch starts behind queued work instead, so a trace charges it
// one launch from idle more). Per step:
//   GPU:  gpu_active + gpu_idle                = window / steps  (exactly)
//   host: host_api + host_blocked + host_other = host span / steps (exactly)
// where host_blocked is the union of the blocking calls (syncs, synchronous and pageable copies,
// frees), host_api the rest of the union of all calls (nested driver calls count once), and
// host_other what the host did outside any call (the benchmark's own code).

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sync_bench {

enum class Lane { host, gpu };

struct TraceEvent {
  Lane lane = Lane::host;
  std::string name;       // API function, kernel, "memcpy HtoD" ...
  std::string kind;       // host: "runtime" or "driver"; gpu: "kernel", "memcpy" or "memset"
  double start_us = 0.0;  // relative to the first step's start
  double end_us = 0.0;
  bool blocking = false;          // host calls only
  std::uint32_t correlation = 0;  // joins a GPU activity to the call that enqueued it
};

struct AnatomyTrace {
  std::int64_t steps = 0;
  std::vector<double> step_starts_us;  // host time each step began; the first is 0
  double host_end_us = 0.0;            // host returned from the last step
  std::vector<TraceEvent> events;
};

enum class Bound { host = 0, gpu = 1, sync = 2 };
std::string_view name(Bound bound);

// The verdict's rule: `gpu` when the GPU is active for at least kGpuBoundShare of the step (a
// faster host would not shorten it); otherwise `sync` when the host waits in blocking calls for at
// least kSyncBoundShare of the step (removing the waits would shorten it by that much at least),
// else `host`: the step is the host submitting work. The sync share is of the step, not compared
// with the host's time in calls, because CUPTI's tracing lengthens every call it records (by 1-3
// us on the H100) and would tip a launch-plus-sync step towards `host`.
inline constexpr double kGpuBoundShare = 0.8;
inline constexpr double kSyncBoundShare = 0.2;

struct StepAnatomy {     // microseconds per step, but launch_latency_us (per GPU activity)
  double step_us = 0.0;  // window / steps
  double gpu_active_us = 0.0;
  double gpu_idle_us = 0.0;
  double launch_latency_us = std::numeric_limits<double>::quiet_NaN();  // NaN: no GPU activity
  double host_api_us = 0.0;
  double host_blocked_us = 0.0;
  double host_other_us = 0.0;
  double gpu_activities = 0.0;  // per step
  double api_calls = 0.0;       // top-level host calls per step
  double blocking_calls = 0.0;  // per step
  Bound bound = Bound::host;
};

// Microseconds from t0_ns to t_ns, negative for a time before t0_ns. CUPTI's clock is the wall
// clock in nanoseconds (about 1.8e18), where a double holds only multiples of 256 ns: subtract in
// integers first, or every time in a trace lands on a 0.256 us grid.
inline double microseconds_since(std::uint64_t t0_ns, std::uint64_t t_ns) {
  return static_cast<double>(static_cast<std::int64_t>(t_ns - t0_ns)) * 1e-3;
}

// The length of the union of [start, end) intervals clipped to [lo, hi).
double union_length(std::vector<std::pair<double, double>> intervals, double lo, double hi);

// Whether a CUDA runtime or driver API function waits for the device by its nature (syncs,
// synchronous copies, frees). An async copy from or to pageable memory also blocks, but that is
// known only from its copy record; the trace builder marks those.
bool is_blocking_call(std::string_view api_name);

// Throws std::invalid_argument on a trace that cannot be analysed (no steps, a step count that
// does not match its starts, an event that ends before it starts or is not finite).
StepAnatomy analyze(const AnatomyTrace& trace);

// One benchmark's entry of the timeline file sync_bench writes (--anatomy_timeline): a JSON object
// {"name", "steps", "step_starts_us", "host_end_us", "window_us", "events": [...]}.
std::string timeline_json(const std::string& benchmark, const AnatomyTrace& trace);

}  // namespace sync_bench
