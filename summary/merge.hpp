#pragma once
// `sync_summary merge --output=MERGED.json RUN1.json RUN2.json ...`: runs of the same benchmarks,
// one per sync_bench process, as one Google Benchmark JSON whose repetitions are the processes
// (per-repetition rows, then mean/median/stddev/cv aggregates, as Google Benchmark writes them
// for --benchmark_repetitions), so that compare, and Google Benchmark's tools/compare.py, see the
// spread between processes and not only the spread within one.
//
// Memory: the inputs are mapped, not read into memory, and only the byte ranges of their rows are
// kept; each row is built as a JSON value when it is written, one at a time, and the output is
// streamed. (Two 89 MB runs took 2.3 GB as whole JSON documents, about 0.2 GB so.)

#include <ostream>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace sync_summary {

struct MergeSummary {
  std::size_t repetitions = 0;  // per benchmark
  std::size_t gpus = 0;         // distinct GPUs the repetitions name (0: none named)
};

class InputText;

// One run's text and the name that messages give it; file: the text's file, when it is one.
struct MergeInput {
  std::string source;
  std::string_view text;
  const InputText* file = nullptr;
};

// Checks the runs (each read as every command reads a run; the same machine and settings; the
// same benchmarks) and then writes the merged run to out; throws InputError, having written
// nothing, when they do not merge (among the benchmarks whose name the filter finds, when one is
// given).
MergeSummary merge_texts(const std::vector<MergeInput>& inputs, std::ostream& out,
                         const std::regex* filter = nullptr);

// merge_texts of the files, written to output (which may be one of them). Throws InputError for
// an unreadable file too; output is written only when the runs merge.
MergeSummary merge_runs(const std::vector<std::string>& inputs, const std::string& output,
                        const std::regex* filter = nullptr);

}  // namespace sync_summary
