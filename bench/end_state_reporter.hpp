#pragma once
// Google Benchmark's JSON reporter, plus a "context_end" object after the benchmarks: the GPU's
// clocks and throttle reasons when the run ended, beside the "context" taken when it began.

#include <benchmark/benchmark.h>

#include <functional>

#include "device_info.hpp"

namespace sync_bench {

class EndStateJsonReporter : public benchmark::JSONReporter {
 public:
  explicit EndStateJsonReporter(std::function<ContextFields()> end_state)
      : end_state_(std::move(end_state)) {}
  void Finalize() override;
  // Whether the whole JSON reached its file: Google Benchmark writes it without checking (a full
  // disk would go unnoticed), so Finalize flushes and looks.
  bool complete() const { return complete_; }

 private:
  std::function<ContextFields()> end_state_;
  bool complete_ = false;
};

// The GPU's state now, as context fields with the suffix "_end".
ContextFields gpu_end_state();

}  // namespace sync_bench
