#include "busy_probe.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sync_bench {

std::int64_t probe_steps(double step_seconds) {
  constexpr double kTryWorkSeconds = 1e-3;
  constexpr std::int64_t kMostSteps = 64;
  if (!(step_seconds > 0.0)) return kMostSteps;  // NaN too
  return std::clamp<std::int64_t>(std::llround(kTryWorkSeconds / step_seconds), 1, kMostSteps);
}

double probe_hold(double queue_seconds) {
  return std::clamp(3.0 * queue_seconds, ProbeTries::kMinHold, ProbeTries::kMaxHold);
}

ProbeTries::ProbeTries(std::int64_t steps, double queue_seconds_per_step)
    : steps_(std::max<std::int64_t>(steps, 1)),
      hold_(probe_hold(std::max(queue_seconds_per_step, 0.0) * static_cast<double>(steps_))),
      best_(std::numeric_limits<double>::infinity()) {}

void ProbeTries::record(double queued_seconds, double gpu_seconds) {
  ++tries_;
  if (queued_seconds < 0.5 * hold_) {
    ++counted_;
    best_ = std::min(best_, gpu_seconds / static_cast<double>(steps_));
  } else {
    hold_ = probe_hold(queued_seconds);  // at least 1.5 times this try's
  }
}

double ProbeTries::per_step() const {
  return counted_ > 0 ? best_ : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace sync_bench
