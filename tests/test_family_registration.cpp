// register_family_benchmark (bench/families.hpp) on the CPU: what it adds to every benchmark's row
// (wall_s, the body's whole wall time) and what it does with a body that throws.

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "families.hpp"

namespace sync_bench {
namespace {

using namespace std::chrono_literals;

// The counters of each run Google Benchmark reports, by run name; prints nothing.
struct CounterReporter : benchmark::BenchmarkReporter {
  std::map<std::string, std::map<std::string, double>> counters;
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs)
      for (const auto& [name, counter] : r.counters) counters[r.benchmark_name()][name] = counter;
  }
};

// A body that spends `setup` before its one iteration and `step` inside it, reporting a manual
// time of 1 s: above Google Benchmark's default minimum, so the body runs once.
auto sleeping_body(std::chrono::milliseconds setup, std::chrono::milliseconds step) {
  return [setup, step](benchmark::State& state) {
    std::this_thread::sleep_for(setup);
    for (auto _ : state) {
      std::this_thread::sleep_for(step);
      state.SetIterationTime(1.0);
    }
    state.counters["own"] = 7.0;
  };
}

TEST(FamilyRegistration, WallSIsTheBodysWholeWallTimeSetUpIncluded) {
  register_family_benchmark("TestFamily/Wall", sleeping_body(30ms, 20ms));
  CounterReporter reporter;
  ASSERT_EQ(benchmark::RunSpecifiedBenchmarks(&reporter, "^TestFamily/Wall/"), 1u);
  const auto& c = reporter.counters.at("TestFamily/Wall/manual_time");
  EXPECT_EQ(c.at("own"), 7.0) << "the body's own counters are kept";
  ASSERT_TRUE(c.count("wall_s"));
  // The set-up and the step (50 ms) at least; well under a second (a sleep can overrun a little).
  EXPECT_GE(c.at("wall_s"), 0.050);
  EXPECT_LT(c.at("wall_s"), 1.0) << "wall_s is the body's wall, not its manual time (1 s)";
}

// A body that throws is counted failed (main's exit status says so) and the run goes on: the next
// benchmark is measured and keeps its wall.
TEST(FamilyRegistration, ABodyThatThrowsIsCountedFailedAndTheNextOneIsMeasured) {
  const int failed = failed_benchmarks();
  register_family_benchmark("TestFamily/Then/a_throws", [](benchmark::State& state) {
    for (auto _ : state) throw std::runtime_error("a step failed");
  });
  register_family_benchmark("TestFamily/Then/b_runs", sleeping_body(0ms, 1ms));
  CounterReporter reporter;
  ASSERT_EQ(benchmark::RunSpecifiedBenchmarks(&reporter, "^TestFamily/Then/"), 2u);
  EXPECT_EQ(failed_benchmarks(), failed + 1);
  ASSERT_TRUE(reporter.counters.count("TestFamily/Then/b_runs/manual_time"));
  EXPECT_GT(reporter.counters.at("TestFamily/Then/b_runs/manual_time").at("wall_s"), 0.0);
}

}  // namespace
}  // namespace sync_bench
