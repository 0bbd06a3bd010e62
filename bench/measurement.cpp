#include "measurement.hpp"

#include "sample_stats.hpp"

namespace sync_bench {
namespace {

double per_step(double seconds, std::int64_t steps) {
  return steps > 0 ? seconds / static_cast<double>(steps) : 0.0;
}

}  // namespace

void Measurement::add_round(const BatchTime& pattern, const BatchTime& baseline) {
  const double step = per_step(pattern.gpu_seconds, pattern.steps);
  pattern_.push_back(step);
  host_.push_back(per_step(pattern.host_seconds, pattern.steps));
  cpu_.push_back(per_step(pattern.cpu_seconds, pattern.steps));
  steps_ += pattern.steps;
  gpu_total_ += pattern.gpu_seconds;
  timed_seconds_ += pattern.gpu_seconds;
  if (paired_) {
    const double base = per_step(baseline.gpu_seconds, baseline.steps);
    baseline_.push_back(base);
    baseline_host_.push_back(per_step(baseline.host_seconds, baseline.steps));
    difference_.push_back(step - base);
    timed_seconds_ += baseline.gpu_seconds;
  }
}

bool Measurement::enough() const {
  // A median of fewer than 3 rounds is one batch's luck; past the budget, 3 rounds will do.
  if (rounds() >= 3 && timed_seconds_ >= rule_.max_seconds) return true;
  if (rounds() < rule_.min_rounds || timed_seconds_ < rule_.min_seconds) return false;
  const MeasuredSteps r = result();
  const double target = rule_.max_noise_pct / 100.0;
  return r.noise <= target && (!paired_ || r.overhead_noise <= target);
}

MeasuredSteps Measurement::result() const {
  MeasuredSteps r;
  r.steps = steps_;
  r.batches = rounds();
  r.gpu_total = gpu_total_;
  if (pattern_.empty()) return r;
  r.step = median(pattern_);
  r.min_step = minimum(pattern_);
  r.noise = median_ci_half_width(pattern_) / r.step;
  r.host = median(host_);
  r.host_cpu = median(cpu_);
  r.paired = paired_;
  if (paired_) {
    r.baseline = median(baseline_);
    r.baseline_host = median(baseline_host_);
    r.overhead = median(difference_);
    r.overhead_p25 = quantile(difference_, 0.25);
    r.overhead_p75 = quantile(difference_, 0.75);
    r.overhead_noise = median_ci_half_width(difference_) / r.step;
  }
  return r;
}

}  // namespace sync_bench
