#pragma once
// The two ways sync_summary refuses to go on; the CLI turns both into one message and exit 2.

#include <stdexcept>

namespace sync_summary {

// The input cannot be read as a Google Benchmark run of sync_bench: unreadable file, malformed
// JSON, JSON of another shape, an empty run, a benchmark name outside the grammar.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The command line asks for something that does not exist: unknown command, flag or value.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace sync_summary
