#pragma once
// The two ways sync_summary refuses to go on; the CLI turns both into one message and exit 2
// (salvage's CompleteRun, an InputError, into exit 3).

#include <stdexcept>

namespace sync_summary {

// The input cannot be read as a Google Benchmark run of sync_bench: unreadable file, malformed
// JSON, JSON of another shape, an empty run, a benchmark name outside the grammar.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Input that ends before its JSON does: a run cut short (sync_bench killed mid-sweep). Its
// message says so, and that `sync_summary salvage` keeps the complete benchmarks.
struct TruncatedInput : InputError {
  using InputError::InputError;
};

// The command line asks for something that does not exist: unknown command, flag or value.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace sync_summary
