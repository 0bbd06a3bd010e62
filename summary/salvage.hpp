#pragma once
// `sync_summary salvage IN.json --output=OUT.json`: a run cut short (sync_bench killed mid-sweep:
// a timeout, SIGKILL) leaves Google Benchmark JSON with its context and the rows written so far,
// the last one often cut in the middle, and no closing brackets. Every other command refuses it.
// salvage keeps the context and every complete row, byte for byte as Google Benchmark wrote them,
// drops the partial row, and closes the brackets as Google Benchmark would have.

#include <cstddef>
#include <string>
#include <string_view>

namespace sync_summary {

struct Salvaged {
  std::string text;              // Google Benchmark JSON that every command reads
  std::size_t kept = 0;          // rows ("benchmarks" elements) kept
  std::string last_name;         // the last kept row's name
  bool dropped_partial = false;  // a row was cut in the middle (else the text ended between rows)
};

// Throws InputError (exit 2) when there is nothing to salvage: the text is a complete run, is not
// a Google Benchmark run cut short (malformed before its end, not Google Benchmark's shape, no
// complete context), has no complete row, or its complete rows are refused as report refuses them.
Salvaged salvage_text(std::string_view text, const std::string& source);

// salvage_text of the file IN, written to OUT (which may be IN itself).
Salvaged salvage_file(const std::string& in, const std::string& out);

}  // namespace sync_summary
