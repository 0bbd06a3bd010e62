#pragma once
// sync_bench's own flags, parsed before Google Benchmark sees the rest of argv.

#include <string>

#include "device_info.hpp"

namespace sync_bench {

struct Options {
  int device = 0;
  WaitMode wait_mode = WaitMode::automatic;
  bool wait_mode_given = false;
  bool list_only = false;  // --benchmark_list_tests: no GPU is touched
};

// Removes --device=N and --sync_mode=MODE from argv. Returns false with a one-line *error for a
// malformed value. Also notes --benchmark_list_tests (left in argv for Google Benchmark).
bool parse_options(int* argc, char** argv, Options* options, std::string* error);

// Appends --benchmark_min_time=<seconds> when the user gave none: Google Benchmark's 0.5 s default
// would make the default sweep take far longer than its few minutes. Returns the new argv.
char** with_default_min_time(int* argc, char** argv);

// Printed by --help before Google Benchmark's own flags.
void print_usage();

}  // namespace sync_bench
