#pragma once
// Runs the sync_bench binary from a test, as a user would, and reads what it wrote.

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sync_bench::test {

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

CommandResult run_command(const std::string& command);

// WORD as one word of a shell command line, whatever it holds (spaces, quotes, $): in single
// quotes, each single quote in it written '\''.
std::string shell_quote(const std::string& word);

// The sync_bench executable under test (set by CMake), quoted for the shell: what a command line
// for run_command starts with (the checkout's path may hold a space).
std::string sync_bench_exe();

// The names `sync_bench --benchmark_list_tests EXTRA_ARGS` prints (no GPU needed).
std::vector<std::string> list_benchmarks(const std::string& extra_args = "");

// Runs sync_bench with `args` and --benchmark_out to a temporary file; returns the JSON it wrote.
// Fails the calling test (and returns null) when the run fails.
nlohmann::json run_sync_bench_json(const std::string& args, CommandResult* result = nullptr);

// sync_bench's arguments for the benchmarks FILTER (a regular expression) matches, each measured
// for MIN_TIME seconds of timed steps: short, as the GPU tests run them.
std::string filter_args(const std::string& filter, const std::string& min_time = "0.02");

using Rows = std::map<std::string, nlohmann::json>;  // a run's rows by name, no /manual_time

// A run's iteration rows (its aggregates left out).
Rows iteration_rows(const nlohmann::json& run);

// For a claim that compares two rows timed one after the other: a slow stretch of the host that
// covers one of them can break it in one process, while the bug the claim is there to catch breaks
// it in every process. `broken` returns "" where the claim holds in a run's rows, else what it saw.
// Tries `first`, then up to `reruns` fresh runs of sync_bench `args`; returns "" at the first run
// where the claim holds (printing a NOTE line when a rerun was needed), else what `broken` said of
// each run, one a line.
std::string broken_in_every_run(const Rows& first, const std::string& args, int reruns,
                                const std::function<std::string(const Rows&)>& broken);

}  // namespace sync_bench::test
