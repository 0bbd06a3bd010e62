// The graph-group families end to end on the GPU: every benchmark runs and validates what it
// measures, and the numbers have the shape the physics demands. One run per family, shared by
// that family's tests.

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include "command.hpp"
#include "gpu_guard.hpp"

namespace sync_bench::test {
namespace {

using Rows = std::map<std::string, nlohmann::json>;  // iteration rows by name, no /manual_time

// string_view: see tests/summary/test_benchmarks.cpp's bench().
const Rows& family_rows(std::string_view family_name) {
  static std::map<std::string, Rows> runs;
  const std::string family(family_name);
  if (const auto it = runs.find(family); it != runs.end()) return it->second;
  Rows& rows = runs[family];
  const nlohmann::json run =
      run_sync_bench_json("--benchmark_filter='^" + family + "/' --benchmark_min_time=0.02");
  if (!run.contains("benchmarks")) return rows;
  for (const auto& b : run["benchmarks"]) {
    if (b.value("run_type", "iteration") != "iteration") continue;
    std::string name = b.at("name");
    rows[name.substr(0, name.rfind("/manual_time"))] = b;
  }
  return rows;
}

double time_us(const Rows& rows, const std::string& name) {
  const auto it = rows.find(name);
  if (it == rows.end()) {
    ADD_FAILURE() << "no result for " << name;
    return 0.0;
  }
  EXPECT_EQ(it->second.at("time_unit"), "us") << name;
  return it->second.at("real_time").get<double>();
}

double counter(const Rows& rows, const std::string& name, const std::string& key) {
  const auto it = rows.find(name);
  if (it == rows.end() || !it->second.contains(key)) {
    ADD_FAILURE() << "no counter " << key << " for " << name;
    return 0.0;
  }
  return it->second.at(key).get<double>();
}

// A paired row's figures, for a failure message: what its overhead was made of.
std::string paired_figures(const Rows& rows, const std::string& name) {
  const auto it = rows.find(name);
  if (it == rows.end()) return name + ": no result";
  std::ostringstream out;
  out << name << ": overhead " << it->second.value("overhead_us", 0.0) << " us (p25 "
      << it->second.value("overhead_p25_us", 0.0) << ", p75 "
      << it->second.value("overhead_p75_us", 0.0) << "), baseline "
      << it->second.value("baseline_us", 0.0) << " us, host "
      << it->second.value("baseline_host_us", 0.0) << " us a baseline step, "
      << it->second.value("batches", 0.0) << " rounds of " << it->second.value("batch", 0.0)
      << " steps";
  return out.str();
}

std::size_t listed_count(const std::string& family) {
  const CommandResult r = run_command(
      sync_bench_exe() + " --benchmark_list_tests --benchmark_filter='^" + family + "/'");
  std::size_t lines = 0;
  for (char c : r.output) lines += c == '\n';
  return lines;
}

// Every benchmark of the family ran to the end, without an error, with positive numbers.
void expect_all_ran(const std::string& family) {
  const Rows& rows = family_rows(family);
  EXPECT_EQ(rows.size(), listed_count(family)) << family;
  for (const auto& [name, b] : rows) {
    EXPECT_FALSE(b.value("error_occurred", false)) << name << ": " << b.value("error_message", "");
    EXPECT_FALSE(b.value("skipped", false)) << name << ": " << b.value("skip_message", "");
    EXPECT_GT(b.value("real_time", 0.0), 0.0) << name;
    EXPECT_GT(b.value("host_us", 0.0), 0.0) << name;
    EXPECT_GE(b.value("batch", 0.0), 1.0) << name;
  }
}

TEST(GpuGraphs, GraphReplayRunsAndReplayBeatsEagerLaunches) {
  SKIP_WITHOUT_GPU();
  expect_all_ran("GraphReplay");
  const Rows& rows = family_rows("GraphReplay");
  for (const auto& [name, b] : rows) {
    EXPECT_GT(counter(rows, name, "us_per_op"), 0.0) << name;
    if (name.find("/Eager/") == std::string::npos) {
      EXPECT_GE(counter(rows, name, "graph_nodes"), 1.0) << name;
    }
    // Capture's break-even rests on the eager and replayed step times it measures in setup: they
    // must be the steps the Eager and Replay rows time. Within 3x: a step mistaken for an op is off
    // by k (10 or 100), one mistaken for a batch by the batch (4 steps or more), while the host has
    // run 3.5x slower for longer than 15 of setup's rounds (results/h100/acceptance6/call4).
    const std::string capture = "/Capture/";
    if (const std::size_t at = name.find(capture); at != std::string::npos) {
      for (const auto& [pattern, key] : {std::pair<const char*, const char*>{"/Eager/", "eager_us"},
                                         {"/Replay/", "replay_us"}}) {
        const std::string timed = std::string(name).replace(at, capture.size(), pattern);
        const double setup = counter(rows, name, key);
        const auto timed_row = rows.find(timed);  // missing: time_us below fails the test
        const std::string rows_compared =
            name + " " + key + " vs " + timed + "\n" + b.dump() + "\n" +
            (timed_row == rows.end() ? "no result" : timed_row->second.dump());
        EXPECT_GT(setup, time_us(rows, timed) / 3.0) << rows_compared;
        EXPECT_LT(setup, 3.0 * time_us(rows, timed)) << rows_compared;
      }
    }
  }
  EXPECT_EQ(counter(rows, "GraphReplay/Replay/null_kernel/k:100", "graph_nodes"), 100.0);
  // 100 launches from the host against one: per op, the replay must win.
  const double eager = counter(rows, "GraphReplay/Eager/null_kernel/k:100", "us_per_op");
  const double replay = counter(rows, "GraphReplay/Replay/null_kernel/k:100", "us_per_op");
  EXPECT_LT(replay, eager);
  EXPECT_GT(counter(rows, "GraphReplay/Capture/null_kernel/k:100", "break_even_replays"), 0.0);
}

TEST(GpuGraphs, SyncEveryFitsAPositiveSyncCost) {
  SKIP_WITHOUT_GPU();
  expect_all_ran("SyncEvery");
  const Rows& rows = family_rows("SyncEvery");
  const std::string fit = "SyncEvery/Fit/fp16/cublas/n:512";
  EXPECT_GT(counter(rows, fit, "t_sync_us"), 0.0);
  EXPECT_GT(counter(rows, fit, "t_op_us"), 0.0);
  EXPECT_GT(counter(rows, fit, "r2"), 0.5) << "T(K) = t_op + t_sync / K should explain the times";
  const std::string base = "SyncEvery/StreamSync/fp16/cublas/n:512/k:";
  // The sync's cost spreads over its period. Overheads, each paired with the GEMM alone in its own
  // rounds: the step times of two rows measured seconds apart differ by the host's speed too (an
  // H100 run had k:256 at 16.8 us a step and k:1 at 15.8), their overheads do not.
  const double every_step = counter(rows, base + "1", "overhead_us");
  EXPECT_GT(every_step, 1.0) << "a sync every step waits for every GEMM\n"
                             << paired_figures(rows, base + "1");
  EXPECT_LT(counter(rows, base + "256", "overhead_us"), 0.5 * every_step)
      << paired_figures(rows, base + "256") << "\n"
      << paired_figures(rows, base + "1");
  // The accounting pass runs whole periods: one blocking sync every k steps, for every k (it
  // ran 16 steps and counted none for k >= 32).
  for (int k : {1, 2, 4, 8, 16, 32, 64, 128, 256})
    EXPECT_DOUBLE_EQ(counter(rows, base + std::to_string(k), "syncs_per_step"), 1.0 / k) << k;
}

TEST(GpuGraphs, DataDependentHostSizingCostsASync) {
  SKIP_WITHOUT_GPU();
  expect_all_ran("DataDependent");
  const Rows& rows = family_rows("DataDependent");
  for (const auto& [name, b] : rows) {
    const double elements = std::stod(name.substr(name.rfind(':') + 1));
    const double selected = counter(rows, name, "selected");  // the GPU's count, last step
    EXPECT_GT(selected, 0.2 * elements) << name << ": a threshold of 0.5 keeps about a quarter";
    EXPECT_LT(selected, 0.3 * elements) << name;
    EXPECT_GT(b.value("items_per_second", 0.0), 0.0) << name;
  }
  EXPECT_GT(time_us(rows, "DataDependent/HostSized/elements:1048576"),
            time_us(rows, "DataDependent/DeviceSized/elements:1048576"));
}

TEST(GpuGraphs, TrainLoopPaysForEveryItem) {
  SKIP_WITHOUT_GPU();
  expect_all_ran("TrainLoop");
  const Rows& rows = family_rows("TrainLoop");
  for (const auto& [name, b] : rows) EXPECT_GT(b.value("TFLOPS", 0.0), 0.0) << name;
  int inverted = 0;  // sizes whose ItemEveryStep overhead is not over ReadEveryN's
  std::string figures;
  for (const std::string n : {"512", "1024"}) {
    const std::string config = "/bf16/cublas/n:" + n;
    const std::string item = "TrainLoop/ItemEveryStep" + config;
    const std::string every_n = "TrainLoop/ReadEveryN" + config + "/n_read:100";
    // Overheads, each paired with the unread steps in its own rounds: the step times of two
    // benchmarks run at different clocks (an H100 run had ItemEveryStep 64 us, ReadEveryN 70 us
    // at n=1024), their overheads do not.
    EXPECT_DOUBLE_EQ(counter(rows, item, "syncs_per_step"), 1.0) << n;
    // A read every 100 steps, eager or replayed from a graph.
    EXPECT_DOUBLE_EQ(counter(rows, every_n, "syncs_per_step"), 0.01) << n;
    EXPECT_DOUBLE_EQ(
        counter(rows, "TrainLoop/GraphReadEveryN" + config + "/n_read:100", "syncs_per_step"), 0.01)
        << n;
    const double item_overhead = counter(rows, item, "overhead_us");
    EXPECT_GT(item_overhead, 1.0) << n << ": a read every step waits for every step";
    if (item_overhead <= counter(rows, every_n, "overhead_us")) ++inverted;
    figures += paired_figures(rows, item) + "\n" + paired_figures(rows, every_n) + "\n";
    const double graph = time_us(rows, "TrainLoop/GraphReadEveryN" + config + "/n_read:100");
    EXPECT_LE(graph, 1.1 * time_us(rows, every_n))
        << n << ": a replayed step should not be slower than eager";
  }
  // Usually about 16 us against 0.1. A read that stopped waiting for its step, or a pairing gone
  // wrong, inverts the two at both sizes; once a slow stretch of the host inverted them at one
  // (10.1 against 11.8 us, results/h100/acceptance/call3), which this does not call a failure.
  EXPECT_LT(inverted, 2) << "a read every step should cost more than one every 100 steps\n"
                         << figures;
}

}  // namespace
}  // namespace sync_bench::test
