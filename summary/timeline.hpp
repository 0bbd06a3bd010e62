#pragma once
// The timeline file sync_bench writes with --anatomy_timeline=FILE: per benchmark, the host API
// calls and GPU activities of a few steps of its anatomy pass, in microseconds from the first
// step's start:
//   {"sync_bench_timeline": 1, "context": {...}, "benchmarks": [{"name", "steps",
//    "step_starts_us": [...], "host_end_us", "window_us", "events": [{"lane": "host"|"gpu",
//    "name", "kind", "start_us", "end_us", "blocking"}]}]}

#include <string>
#include <vector>

namespace sync_summary {

struct TimelineEvent {
  bool gpu = false;  // lane "gpu", else "host"
  std::string name;
  std::string kind;  // gpu: kernel, memcpy, memset; host: runtime or driver (may be empty)
  double start_us = 0.0;
  double end_us = 0.0;
  bool blocking = false;  // host calls only
};

struct TimelineBench {
  std::string name;
  std::vector<double> step_starts_us;  // one per step, non-decreasing
  double window_us = 0.0;              // end of the traced window
  std::vector<TimelineEvent> events;
};

struct Timeline {
  std::string gpu_name;  // from the context, "" when absent
  std::vector<TimelineBench> benches;
};

// Parses text; source names the input in messages. Throws InputError on malformed JSON, JSON
// that is not a timeline file, or a value that cannot be drawn (a missing or non-finite number,
// an event that ends before it starts, a step count that does not match its starts).
Timeline parse_timeline(const std::string& text, const std::string& source);
Timeline load_timeline(const std::string& path);

}  // namespace sync_summary
