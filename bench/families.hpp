#pragma once
// Registration shared by every benchmark family (one file per family in bench/).

#include <benchmark/benchmark.h>

#include <functional>
#include <string>

namespace sync_bench {

// Registers `body` under `name` with manual (GPU-timeline) time in microseconds. An exception
// from the body becomes SkipWithError with its message: the run goes on and the JSON is written.
void register_family_benchmark(const std::string& name,
                               std::function<void(benchmark::State&)> body);

// One per family file; called by main before Google Benchmark runs. They touch no GPU.
void register_sync_patterns();

}  // namespace sync_bench
