#pragma once
// Registration shared by every benchmark family (one file per family in bench/).

#include <benchmark/benchmark.h>

#include <functional>
#include <string>
#include <vector>

namespace sync_bench {

// Registers `body` under `name` with manual (GPU-timeline) time in microseconds. An exception
// from the body becomes SkipWithError with its message: the run goes on and the JSON is written.
// Unsupported (unsupported.hpp) is a skip with the reason, not a failure.
void register_family_benchmark(const std::string& name,
                               std::function<void(benchmark::State&)> body);

// Every name registered so far, as Google Benchmark shows it (".../manual_time").
const std::vector<std::string>& registered_benchmark_names();

// How many benchmarks ended in SkipWithError so far: main's exit status says so.
int failed_benchmarks();

// One per family file, in the order they run; none touches the GPU.
void register_sync_patterns();
void register_host_copy();
void register_overlap();
void register_graph_replay();
void register_data_dependent();
void register_alloc();
void register_sync_every();
void register_multi_stream();
void register_train_loop();
void register_multi_gpu();
void register_data_parallel();  // MultiGpu/DataParallel (data_parallel.hpp)

// The GPUs MultiGpu runs on, from --device and --devices (cli.hpp): set by main before the
// benchmarks run; resolved against the visible devices only when a MultiGpu benchmark runs.
struct MultiGpuSelection {
  int device = 0;            // --device
  bool all = false;          // --devices=all
  std::vector<int> devices;  // --devices=i,j,...; empty: --device and the next one
};
MultiGpuSelection& multi_gpu_selection();

// All of the above: called by main before Google Benchmark runs.
void register_all_families();

}  // namespace sync_bench
