#pragma once
// `sync_summary salvage IN.json --output=OUT.json`: a run cut short (sync_bench killed mid-sweep:
// a timeout, SIGKILL) leaves Google Benchmark JSON with its context and the rows written so far,
// the last one often cut in the middle, and no closing brackets. Every other command refuses it.
// salvage keeps the context and every complete row, byte for byte as Google Benchmark wrote them,
// drops the partial row, and closes the brackets as Google Benchmark would have.

#include <cstddef>
#include <string>
#include <string_view>

#include "errors.hpp"

namespace sync_summary {

// salvage_text's refusal of a text that is a complete run: nothing to mend. Its own type (an
// InputError) so that the CLI gives it its own exit status, 3, and a script that calls salvage
// whenever a run failed tells "complete" from "cannot be salvaged" without reading the message.
struct CompleteRun : InputError {
  using InputError::InputError;
};

struct Salvaged {
  std::string text;              // Google Benchmark JSON that every command reads
  std::size_t kept = 0;          // rows ("benchmarks" elements) kept
  std::string last_name;         // the last kept row's name
  bool dropped_partial = false;  // a row was cut in the middle (else the text ended between rows)
};

// Throws CompleteRun (exit 3) when the text is a complete run, and InputError (exit 2) when there
// is otherwise nothing to salvage: the text is not a Google Benchmark run cut short (empty,
// malformed before its end, not Google Benchmark's shape, no complete context), has no complete
// row, or its complete rows are refused as report refuses them.
Salvaged salvage_text(std::string_view text, const std::string& source);

// salvage_text of the file IN, written to OUT (which may be IN itself).
Salvaged salvage_file(const std::string& in, const std::string& out);

}  // namespace sync_summary
