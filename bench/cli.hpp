#pragma once
// sync_bench's own flags, parsed before Google Benchmark sees the rest of argv.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "device_info.hpp"
#include "measure_config.hpp"

namespace sync_bench {

struct Options {
  int device = 0;
  // --devices: the GPUs MultiGpu uses. Empty: --device and the next one; all_devices: devices 0
  // and 1 for pairwise benchmarks, every visible one for per-device ones; else the listed ones
  // (at least two; one GPU may be named twice): the first two for pairwise benchmarks.
  std::vector<int> devices;
  bool all_devices = false;
  WaitMode wait_mode = WaitMode::automatic;
  bool sync_accounting = true;
  // --anatomy; off unless asked for (or implied by --anatomy_timeline): with its CUPTI attach and
  // detach around every benchmark, the blocking-sync event rows of later benchmarks measured
  // 50-72 us in about half of the processes instead of 18-30 (README, Step anatomy).
  bool anatomy = false;
  std::string anatomy_timeline;  // --anatomy_timeline: where the recorded steps go (optional)
  bool sync_map = false;         // run the implicit-sync map instead of the benchmarks
  std::string sync_map_prefix;   // where it writes PREFIX.md and PREFIX.json (optional)
  StoppingRule stopping;         // --sync_min_rounds, --sync_max_time, --sync_max_noise, min_time
  Injection inject;              // --sync_inject, --sync_inject_filter
  // Google Benchmark flags sync_bench needs to know about; they stay in argv.
  bool list_only = false;  // --benchmark_list_tests: no GPU is touched
  std::string out_path;    // --benchmark_out
  std::string out_format = "json";
};

// Removes sync_bench's own flags from argv. Returns false with a one-line *error for a
// malformed value.
bool parse_options(int* argc, char** argv, Options* options, std::string* error);

// Appends the --benchmark_min_time that makes Google Benchmark accept a benchmark after one
// iteration: sync_bench measures a whole benchmark inside that iteration, by its own stopping rule
// (step_loop.hpp). A user's --benchmark_min_time was taken by parse_options as the rule's minimum
// time. Returns the new argv.
char** with_single_iteration(int* argc, char** argv);

// How many of `names` Google Benchmark's --benchmark_filter selects, with its rules (empty or
// "all": every one; a leading '-': those not matching; POSIX extended regex, searched); nullopt
// with *error when the filter is not a regular expression.
std::optional<std::size_t> count_filtered(std::string filter, const std::vector<std::string>& names,
                                          std::string* error);

// True when `path` can be written (an existing writable file that is not a folder, or a new one
// in a writable folder); false with *error naming the reason.
bool output_writable(const std::string& path, std::string* error);

// Printed by --help before Google Benchmark's own flags.
void print_usage();

}  // namespace sync_bench
