#pragma once
// What a benchmark's timed rounds add up to: the samples of every round, when to stop taking
// them, and the robust figures reported from them. No CUDA here: step_loop.hpp times the batches,
// this file only does the arithmetic, so that CPU tests can check it.

#include <cstdint>
#include <limits>
#include <vector>

#include "measure_config.hpp"

namespace sync_bench {

// One timed batch: GPU-timeline time (between CUDA events), host wall time and process CPU time
// of its submission, for `steps` steps.
struct BatchTime {
  double gpu_seconds = 0.0;
  double host_seconds = 0.0;
  double cpu_seconds = 0.0;
  std::int64_t steps = 0;
};

// The per-step figures of a finished measurement (seconds per step unless said otherwise).
struct MeasuredSteps {
  std::int64_t steps = 0;    // timed steps of the benchmark's own pattern
  std::int64_t batches = 0;  // its timed batches (= rounds)
  double step = 0.0;         // median over batches
  double min_step = 0.0;     // fastest batch
  double noise = std::numeric_limits<double>::infinity();  // 95% CI half-width / median
  double host = 0.0;                                       // median over batches
  double host_cpu = 0.0;                                   // median over batches
  double gpu_total = 0.0;  // GPU time of all its timed batches (not per step)
  // Paired: the Async baseline's batches and the per-round differences (pattern - baseline).
  bool paired = false;
  double baseline = 0.0;  // median over baseline batches
  // The host's wall time per step in the baseline's batches (median): how fast this process's
  // host submitted while the overhead was measured. A sync's cost is largely the host's work
  // after it wakes, so it moves with this from one process to the next.
  double baseline_host = 0.0;
  double overhead = 0.0;      // median of per-round differences
  double overhead_p25 = 0.0;  // their quartiles: the spread of the overhead
  double overhead_p75 = 0.0;
  double overhead_noise = std::numeric_limits<double>::infinity();  // CI half-width / step
};

// Collects rounds (a batch of the pattern, and in paired mode a batch of its baseline) and decides
// when there are enough, by the StoppingRule.
class Measurement {
 public:
  Measurement(const StoppingRule& rule, bool paired) : rule_(rule), paired_(paired) {}

  // `baseline` is ignored unless paired.
  void add_round(const BatchTime& pattern, const BatchTime& baseline = {});
  bool enough() const;
  int rounds() const { return static_cast<int>(pattern_.size()); }
  MeasuredSteps result() const;

  // The order of a round's two batches: flipped every round, so that a drift in clocks or host
  // state between the first and second batch of a round cancels over pairs of rounds.
  static bool baseline_first(int round) { return round % 2 == 1; }

 private:
  StoppingRule rule_;
  bool paired_;
  std::vector<double> pattern_, host_, cpu_, baseline_, baseline_host_, difference_;
  std::int64_t steps_ = 0;
  double gpu_total_ = 0.0;
  double timed_seconds_ = 0.0;  // pattern and baseline batches together
};

}  // namespace sync_bench
