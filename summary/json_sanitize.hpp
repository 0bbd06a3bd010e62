#pragma once
// Google Benchmark writes non-finite doubles as the bare words NaN, Infinity and -Infinity, which
// JSON does not allow. Before strict parsing they are rewritten, outside strings only, as the
// strings "NaN", "Infinity" and "-Infinity"; the reader turns those back into doubles.

#include <optional>
#include <string>
#include <string_view>

namespace sync_summary {

// Returns the text with the bare words quoted, or the text unchanged when it has none.
std::string quote_non_finite(std::string text);

// "NaN", "Infinity", "-Infinity" as the double they stand for; nullopt for any other string.
std::optional<double> non_finite_value(std::string_view text);

}  // namespace sync_summary
