#pragma once
// What every benchmark of a run measures by: the stopping rule, and the cost a test may inject on
// purpose. Set once from the command line (bench/cli.cpp) before any benchmark runs.

#include <cstdint>
#include <optional>
#include <regex>
#include <string>

namespace sync_bench {

// When a benchmark has measured enough, in the spirit of nvbench's stopping criterion: at least
// min_rounds rounds and min_seconds of timed GPU time, then stop as soon as the median is known to
// within max_noise_pct (95% confidence interval, half-width), or once max_seconds of timed GPU time
// are spent (at least 3 rounds), whichever comes first. Timed GPU time counts both batches of a
// paired round, the pattern's and its Async baseline's.
struct StoppingRule {
  int min_rounds = 8;
  // 10 ms: with the 2% target below, a host-bound benchmark's rounds are set by its noise, not by
  // this floor; a GPU-bound one reaches it in its 8 rounds.
  double min_seconds = 0.01;
  double max_seconds = 0.1;
  // 2%: between processes a host-bound step moves 10-40% and a GPU-bound one about 1%, so a
  // tighter target within one process buys little; 1% took SmallGemm's 396 benchmarks 30-38 s.
  double max_noise_pct = 2.0;
};

// The rule as the run's JSON context records it ("min_rounds=8 min_time=0.01s max_time=0.1s
// max_noise=2%"): a row measured for 2 s and one measured by the default rule differ in how far a
// single process can be trusted, and the JSON must say which it is.
std::string describe(const StoppingRule& rule);

// A known cost added to the timed steps of chosen benchmarks, so that the regression gate and the
// fidelity test can show what they catch. Off unless asked for.
//   host: the host busy-waits that long in every step, before the step's work (a slower host
//         path: it shows where the host sets the pace, and vanishes where the GPU does).
//   gpu:  a spin kernel of that length is enqueued in every step (a slower op: it shows where the
//         GPU sets the pace). Its launch costs the host ~2-3 us too.
//   fail: the benchmark fails before it measures anything, as one whose CUDA call errs would (what
//         a run, its JSON and the scripts around it do with a failure, shown on a healthy GPU).
// The amount is microseconds, or a percentage of the step's own time measured before timing.
struct Injection {
  enum class Kind { none, host, gpu, fail };
  Kind kind = Kind::none;
  double amount = 0.0;  // us, or % when percent
  bool percent = false;
  std::string filter;  // ECMAScript regex searched in the benchmark's name; empty: every one

  // Whether the benchmark is one the injection applies to.
  bool chosen(const std::string& benchmark) const;
  // The cost per step for this benchmark, given its un-injected step time; 0 when not chosen.
  double seconds_for(const std::string& benchmark, double step_seconds) const;
  // Whether the benchmark must fail (kind fail, chosen).
  bool fails(const std::string& benchmark) const { return kind == Kind::fail && chosen(benchmark); }
  std::string describe() const;  // "host +1 us", "gpu +10%", "fail"
};

// Parses "host:1us", "host:2.5", "gpu:10%", "fail"; nullopt on anything else, with *error saying
// what it expects (to follow "--sync_inject expects ").
std::optional<Injection> parse_injection(const std::string& text, std::string* error);

StoppingRule& stopping_rule();
Injection& injection();

// The name of the benchmark running now (set by register_family_benchmark around its body).
std::string& current_benchmark_name();

}  // namespace sync_bench
