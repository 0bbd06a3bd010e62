// The graph-group families end to end on the GPU: every benchmark runs and validates what it
// measures, and the numbers have the shape the physics demands. One run per family, shared by
// that family's tests.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "command.hpp"
#include "gpu_guard.hpp"

namespace sync_bench::test {
namespace {

// string_view: see tests/summary/test_benchmarks.cpp's bench().
const Rows& family_rows(std::string_view family_name) {
  static std::map<std::string, Rows> runs;
  const std::string family(family_name);
  if (const auto it = runs.find(family); it != runs.end()) return it->second;
  return runs[family] = iteration_rows(run_sync_bench_json(filter_args("^" + family + "/")));
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
  std::vector<double> setup_ratios;  // Capture's eager_us and replay_us over the timed rows
  std::string setup_figures;
  for (const auto& [name, b] : rows) {
    EXPECT_GT(counter(rows, name, "us_per_op"), 0.0) << name;
    if (name.find("/Eager/") == std::string::npos) {
      EXPECT_GE(counter(rows, name, "graph_nodes"), 1.0) << name;
    }
    // Capture's break-even rests on the eager and replayed step times it measures in setup: they
    // must be the steps the Eager and Replay rows time (compared below).
    const std::string capture = "/Capture/";
    if (const std::size_t at = name.find(capture); at != std::string::npos) {
      for (const auto& [pattern, key] : {std::pair<const char*, const char*>{"/Eager/", "eager_us"},
                                         {"/Replay/", "replay_us"}}) {
        const std::string timed = std::string(name).replace(at, capture.size(), pattern);
        const double ratio = counter(rows, name, key) / time_us(rows, timed);
        setup_ratios.push_back(ratio);
        const auto timed_row = rows.find(timed);
        setup_figures += name + " " + key + " / " + timed + " = " + std::to_string(ratio) + "\n" +
                         b.dump() + "\n" +
                         (timed_row == rows.end() ? "no result" : timed_row->second.dump()) + "\n";
      }
    }
  }
  // A step mistaken for an op is off by k (10 or 100), one mistaken for a batch by the batch (4
  // steps or more), and either shifts every ratio together; setup and the timed rows run apart, so
  // a slow stretch of the host shifts one or two (3.51 once, results/h100/acceptance6/call4).
  ASSERT_FALSE(setup_ratios.empty()) << "no Capture rows";
  for (const double ratio : setup_ratios) {
    EXPECT_GT(ratio, 0.1) << setup_figures;
    EXPECT_LT(ratio, 10.0) << setup_figures;
  }
  // Both middle values: a mistake in one key (replay_us alone) shifts half of the ratios, which
  // moves the lower middle while the upper one stays. In the 13 committed sweeps they read
  // 0.99-1.02.
  std::sort(setup_ratios.begin(), setup_ratios.end());
  const std::size_t n = setup_ratios.size();
  for (const double middle : {setup_ratios[(n - 1) / 2], setup_ratios[n / 2]}) {
    EXPECT_GT(middle, 0.5) << setup_figures;
    EXPECT_LT(middle, 2.0) << setup_figures;
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
  for (const auto& [name, b] : rows) {  // sized on the host: one sync a step; on the GPU: none
    EXPECT_DOUBLE_EQ(counter(rows, name, "syncs_per_step"),
                     name.find("/HostSized/") != std::string::npos ? 1.0 : 0.0)
        << name;
  }
  // The sync costs time: at 1M elements the host-sized step took 1.9-2.4x the device-sized one in
  // the committed H100 runs. The device-sized step is the host's there (it submits for longer than
  // the GPU works), and the two rows run apart, so a 2x slow stretch over it alone inverts them:
  // the claim fails only when it fails in three processes. (A step that stopped waiting fails the
  // syncs_per_step check above.)
  const auto sizing_on_host_not_dearer = [](const Rows& run) -> std::string {
    const std::string host = "DataDependent/HostSized/elements:1048576";
    const std::string device = "DataDependent/DeviceSized/elements:1048576";
    if (time_us(run, host) > time_us(run, device)) return "";
    return host + " " + std::to_string(time_us(run, host)) + " us, " + device + " " +
           std::to_string(time_us(run, device)) + " us";
  };
  EXPECT_EQ(broken_in_every_run(rows, filter_args("^DataDependent/.*/elements:1048576/"), 2,
                                sizing_on_host_not_dearer),
            "");
}

TEST(GpuGraphs, TrainLoopPaysForEveryItem) {
  SKIP_WITHOUT_GPU();
  expect_all_ran("TrainLoop");
  const Rows& rows = family_rows("TrainLoop");
  for (const auto& [name, b] : rows) EXPECT_GT(b.value("TFLOPS", 0.0), 0.0) << name;
  int inverted = 0;  // sizes whose ItemEveryStep overhead is not over ReadEveryN's
  // LaggedItem's two hand-overs: a copy and its event's wait, or a kernel into mapped host memory
  // and a spin on it, which makes no blocking CUDA call (as ScalarRead/mapped, test_gpu_patterns).
  struct Handover {
    std::string suffix;
    double syncs_per_step;
    int not_hidden = 0;  // sizes whose overhead is not under 3/4 of ItemEveryStep's
  };
  Handover handovers[] = {{"", 1.0}, {"/mapped", 0.0}};
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
    // The previous step's loss: one wait a step too, for a copy the GPU has mostly done by then.
    // Each read is checked against its step in the benchmark, an error row if it is not.
    for (Handover& h : handovers) {
      const std::string lagged = "TrainLoop/LaggedItem" + h.suffix + config;
      EXPECT_NEAR(counter(rows, lagged, "syncs_per_step"), h.syncs_per_step, 0.01) << lagged;
      if (counter(rows, lagged, "overhead_us") >= 0.75 * item_overhead) ++h.not_hidden;
      figures += paired_figures(rows, lagged) + "\n";
    }
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
  // The host waits and checks while the GPU runs the step it just queued. Over 22 processes on
  // three H200s (results/h200/lagged_item/) LaggedItem cost 0.25-0.77 of ItemEveryStep's overhead
  // at n=512 (over 3/4 in one) and 0.21-0.50 at n=1024: the host-bound step keeps the copy's three
  // calls. A mutant whose read waited for the step just queued read 11.1 and 18.1 us against 9.9
  // and 16.8, over 3/4 at both sizes; so one size is let off, as above. Handed over by a kernel,
  // over 12 processes on two H200s (results/h200/mapped_gate/): 0.25-0.81 at n=512 (over 3/4 in
  // one) and 0.18-0.38 at n=1024.
  for (const Handover& h : handovers)
    EXPECT_LT(h.not_hidden, 2)
        << "TrainLoop/LaggedItem" << h.suffix
        << ": a read one step late should cost under 3/4 of a read of the step just queued\n"
        << figures;
}

}  // namespace
}  // namespace sync_bench::test
