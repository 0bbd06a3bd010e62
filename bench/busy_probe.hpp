#pragma once
// The plan of the GPU-busy probe (probe_gpu_busy in step_loop.hpp), apart from the GPU: how many
// steps it queues behind a spin kernel, how long each try's spin holds the GPU, and which tries
// count. The probe's cost is a benchmark's untimed time, so it holds the GPU no longer than the
// host needs to queue the steps, with a margin.

#include <cstdint>

namespace sync_bench {

// Steps per try: about a millisecond of the probed work (step_seconds: its time per step in the
// timed batches), 1 to 64; 64 without an estimate. A try costs a few microseconds beyond its steps:
// at 16 steps a try where it had 64, gpu_busy_us read 11% higher for a null kernel and 5% for
// SmallGemm on an H200 (results/h200/probe_steps/), so short steps keep 64. A step of a
// millisecond or more takes one, where a batch's minimum of 4 had each try run four (four 21.6 ms
// fp32 n=8192 GEMMs).
std::int64_t probe_steps(double step_seconds);

// A try's spin: three times the seconds the host is expected to take to queue its steps, within
// [kMinHold, kMaxHold].
double probe_hold(double queue_seconds);

class ProbeTries {
 public:
  static constexpr int kCounted = 2;    // the probe keeps the best of two tries that count
  static constexpr int kMostTries = 4;  // two that did not count resize the spin twice
  static constexpr double kMinHold = 0.25e-3;
  static constexpr double kMaxHold = 0.5;

  // `queue_seconds_per_step`: what the host is expected to take to queue one step of the work
  // (0 where unknown: the first try then holds kMinHold, and one that does not count sizes the
  // next).
  ProbeTries(std::int64_t steps, double queue_seconds_per_step);

  bool more() const { return tries_ < kMostTries && counted_ < kCounted; }
  std::int64_t steps() const { return steps_; }
  double hold() const { return hold_; }  // this try's spin, seconds
  // A try's outcome: the host's seconds to queue its steps, and their GPU time. It counts when
  // the host queued them in under half the spin (else the GPU may have waited for the host);
  // when it does not, the next try's spin is sized by what the host took.
  void record(double queued_seconds, double gpu_seconds);
  // The GPU seconds per step of the fastest try that counted; NaN when none did.
  double per_step() const;
  int tries() const { return tries_; }
  int counted() const { return counted_; }

 private:
  std::int64_t steps_;
  double hold_;
  double best_;
  int tries_ = 0;
  int counted_ = 0;
};

}  // namespace sync_bench
