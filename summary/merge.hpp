#pragma once
// `sync_summary merge --output=MERGED.json RUN1.json RUN2.json ...`: runs of the same benchmarks,
// one per sync_bench process, as one Google Benchmark JSON whose repetitions are the processes
// (per-repetition rows, then mean/median/stddev/cv aggregates, as Google Benchmark writes them
// for --benchmark_repetitions), so that compare, and Google Benchmark's tools/compare.py, see the
// spread between processes and not only the spread within one.

#include <regex>
#include <string>
#include <vector>

namespace sync_summary {

struct MergeSummary {
  std::size_t repetitions = 0;  // per benchmark
  std::size_t gpus = 0;         // distinct GPUs the repetitions name (0: none named)
};

// Throws InputError for an unreadable file, runs from different machines or settings, or
// different sets of benchmarks (among those whose name the filter finds, when one is given).
MergeSummary merge_runs(const std::vector<std::string>& inputs, const std::string& output,
                        const std::regex* filter = nullptr);

}  // namespace sync_summary
