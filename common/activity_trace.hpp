#pragma once
// The recorder behind the step anatomy (anatomy.hpp): CUPTI's activity API records host API calls
// (runtime and driver) and GPU activities (kernels, copies, memsets) on one clock. Recording is on
// only between begin() and end(), around an untimed pass of a few steps after a benchmark's timed
// rounds (bench/step_loop.hpp), so the timed numbers never carry its cost.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "anatomy.hpp"

namespace sync_bench {

class ActivityTrace {
 public:
  // Registers CUPTI's buffer callbacks. Returns nullptr and sets *why when CUPTI cannot record
  // activities (no driver, or another tool such as compute-sanitizer or Nsight holds it).
  static std::unique_ptr<ActivityTrace> create(std::string* why);
  ~ActivityTrace() = default;  // end() leaves CUPTI detached
  ActivityTrace(const ActivityTrace&) = delete;
  ActivityTrace& operator=(const ActivityTrace&) = delete;

  // CUPTI's clock, the one its records use (ns).
  static std::uint64_t now_ns();

  // Clears what was recorded and enables the activity kinds. The host lane keeps the calls of the
  // thread that calls begin() (the benchmark's); the GPU lane keeps every device's work.
  void begin();
  // Disables them, flushes CUPTI's buffers and turns what was recorded into a trace of the steps
  // that began at step_starts_ns (host_end_ns: the host returned from the last). The caller has
  // waited for the GPU. Throws std::runtime_error when a CUPTI call fails or records were dropped.
  AnatomyTrace end(const std::vector<std::uint64_t>& step_starts_ns, std::uint64_t host_end_ns);
  // Stops recording and detaches, dropping what was recorded: for a pass cut short by an error.
  void abandon() noexcept;

 private:
  ActivityTrace() = default;
  std::uint32_t owner_thread_ = 0;  // begin()'s caller, by its system thread id
};

// The process-wide recorder main() set up; nullptr when the anatomy is off or unavailable.
ActivityTrace* activity_trace();
void set_activity_trace(std::unique_ptr<ActivityTrace> trace);

}  // namespace sync_bench
