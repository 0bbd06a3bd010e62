#pragma once
// Reads the JSON that Google Benchmark (1.7.1 and 1.8.3) writes with --benchmark_out_format=json
// into a Run. Streaming (SAX) parse: a 100,000-benchmark file is read without building a DOM.

#include <string>
#include <string_view>

#include "run.hpp"

namespace sync_summary {

// Parses text; source names the input in messages. Throws InputError on malformed JSON, JSON
// that is not Google Benchmark's, or a run with no benchmarks.
Run parse_run(std::string_view text, const std::string& source);

// Reads the file ("-" reads standard input; regular files are memory-mapped) and parses it.
Run load_run(const std::string& path);

}  // namespace sync_summary
