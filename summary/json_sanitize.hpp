#pragma once
// Google Benchmark writes non-finite doubles as the bare words NaN, Infinity and -Infinity, which
// JSON does not allow. Before strict parsing they are rewritten, outside strings only, as the
// strings "NaN", "Infinity" and "-Infinity"; the reader turns those back into doubles.

#include <optional>
#include <string>
#include <string_view>

namespace sync_summary {

// Whether the text may hold one of the words (a quick check: most runs have none).
bool has_non_finite_word(std::string_view text);
// The text with the bare words quoted.
std::string quote_non_finite(std::string_view text);

// "NaN", "Infinity", "-Infinity" as the double they stand for; nullopt for any other string.
std::optional<double> non_finite_value(std::string_view text);

}  // namespace sync_summary
