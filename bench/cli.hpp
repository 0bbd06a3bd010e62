#pragma once
// sync_bench's own flags, parsed before Google Benchmark sees the rest of argv.

#include <string>

#include "device_info.hpp"

namespace sync_bench {

struct Options {
  int device = 0;
  WaitMode wait_mode = WaitMode::automatic;
  bool sync_accounting = true;
  bool sync_map = false;        // run the implicit-sync map instead of the benchmarks
  std::string sync_map_prefix;  // where it writes PREFIX.md and PREFIX.json (optional)
  // Google Benchmark flags sync_bench needs to know about; they stay in argv.
  bool list_only = false;  // --benchmark_list_tests: no GPU is touched
  std::string out_path;    // --benchmark_out
  std::string out_format = "json";
};

// Removes sync_bench's own flags from argv. Returns false with a one-line *error for a
// malformed value.
bool parse_options(int* argc, char** argv, Options* options, std::string* error);

// Appends --benchmark_min_time=<seconds> when the user gave none: Google Benchmark's 0.5 s default
// would make the default sweep take far longer than its few minutes. Returns the new argv.
char** with_default_min_time(int* argc, char** argv);

// Printed by --help before Google Benchmark's own flags.
void print_usage();

}  // namespace sync_bench
