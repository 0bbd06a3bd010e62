#pragma once
// Where the parts of a Google Benchmark JSON file lie, as byte ranges of its text: the "context"
// object and each element of "benchmarks". Found by following brackets and strings alone, without
// reading values, so that merge and salvage copy rows without building them in memory; it reads
// a text cut short up to where it ends. It checks nothing: read the text with parse_run first.

#include <cstddef>
#include <string_view>
#include <vector>

namespace sync_summary {

// [begin, end) in the text.
struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string_view of(std::string_view text) const { return text.substr(begin, end - begin); }
};

struct Layout {
  bool top_is_object = false;  // the text starts (after blanks) with '{'
  bool top_closed = false;     // and that object ends
  bool has_context = false;    // a complete "context" object (the last one, as a parser keeps)
  Span context;
  bool has_benchmarks = false;     // a "benchmarks" array was opened (the last one)
  bool benchmarks_closed = false;  // and it ends
  std::vector<Span> entries;       // its complete elements
  bool partial_entry = false;      // an element began and the text ended inside it
  // One past the last top-level member that ends (0: none).
  std::size_t members_end = 0;
  // The deepest value, as nlohmann's parser callback counts it: the containers open around it
  // (the top object is 0 deep, its members 1, a row's fields 3).
  std::size_t depth = 0;
};

Layout scan_layout(std::string_view text);

}  // namespace sync_summary
