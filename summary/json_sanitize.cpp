#include "json_sanitize.hpp"

#include <cctype>
#include <limits>

namespace sync_summary {
namespace {

constexpr std::string_view kWords[] = {"-Infinity", "Infinity", "NaN"};

// Length of the bare non-finite word starting at text[i], or 0 when there is none.
std::size_t bare_word_at(std::string_view text, std::size_t i) {
  for (std::string_view w : kWords) {
    if (text.compare(i, w.size(), w) != 0) continue;
    const std::size_t end = i + w.size();
    const bool ends_token =
        end == text.size() || !std::isalnum(static_cast<unsigned char>(text[end]));
    if (ends_token) return w.size();
  }
  return 0;
}

}  // namespace

bool has_non_finite_word(std::string_view text) {
  return text.find("NaN") != std::string_view::npos ||
         text.find("Infinity") != std::string_view::npos;
}

std::string quote_non_finite(std::string_view text) {
  std::string out;
  bool changed = false;
  bool in_string = false;
  std::size_t copied = 0;  // text[0, copied) is already in out
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (c != 'N' && c != 'I' && c != '-') continue;
    const std::size_t len = bare_word_at(text, i);
    if (len == 0) continue;
    if (!changed) {
      out.reserve(text.size() + 64);
      changed = true;
    }
    out.append(text, copied, i - copied);
    out += '"';
    out.append(text, i, len);
    out += '"';
    i += len - 1;
    copied = i + 1;
  }
  if (!changed) return std::string(text);
  out.append(text, copied, std::string::npos);
  return out;
}

std::optional<double> non_finite_value(std::string_view text) {
  if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (text == "Infinity") return std::numeric_limits<double>::infinity();
  if (text == "-Infinity") return -std::numeric_limits<double>::infinity();
  return std::nullopt;
}

}  // namespace sync_summary
