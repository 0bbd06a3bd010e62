#include "json_layout.hpp"

#include <string>

#include <nlohmann/json.hpp>

namespace sync_summary {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// One past the closing quote of the string whose opening quote is at text[i], or npos when the
// text ends first.
std::size_t string_end(std::string_view text, std::size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

// The key a quoted string stands for: its bytes, or, with escapes, what they decode to.
std::string key_text(std::string_view quoted) {
  if (quoted.find('\\') == std::string_view::npos)
    return std::string(quoted.substr(1, quoted.size() - 2));
  const auto decoded = nlohmann::json::parse(quoted, nullptr, /*allow_exceptions=*/false);
  return decoded.is_string() ? decoded.get<std::string>() : std::string();
}

}  // namespace

Layout scan_layout(std::string_view text) {
  Layout layout;
  std::string open;             // the containers open at i: '{' or '['
  std::string member;           // the key of the top object's member being read
  bool in_benchmarks = false;   // open[1] is the array of "benchmarks"
  std::size_t value_begin = 0;  // where the top-level member's value or the row began
  const std::size_t n = text.size();

  // A value (scalar, or a container's opening bracket) begins at i.
  const auto begin_value = [&](std::size_t i, bool is_array) {
    if (open.size() > layout.depth) layout.depth = open.size();
    if (open.size() == 1) {
      value_begin = i;
      if (member == "benchmarks" && is_array) {
        layout.has_benchmarks = true;
        layout.benchmarks_closed = false;
        layout.entries.clear();
        in_benchmarks = true;
      }
    } else if (open.size() == 2 && in_benchmarks) {
      value_begin = i;
      layout.partial_entry = true;
    }
  };
  // A value ends at end (one past it); is_object: it was an object. `open` no longer holds it.
  const auto end_value = [&](std::size_t end, bool is_object) {
    if (open.empty()) {
      layout.top_closed = true;
    } else if (open.size() == 1) {
      layout.members_end = end;
      if (member == "context" && is_object) {
        layout.has_context = true;
        layout.context = Span{value_begin, end};
      }
      if (member == "benchmarks" && in_benchmarks) {
        layout.benchmarks_closed = true;
        in_benchmarks = false;
      }
    } else if (open.size() == 2 && in_benchmarks) {
      layout.entries.push_back(Span{value_begin, end});
      layout.partial_entry = false;
    }
  };

  std::size_t i = 0;
  while (i < n && is_blank(text[i])) ++i;
  if (i < n && text[i] == '{') layout.top_is_object = true;
  for (; i < n; ++i) {
    const char c = text[i];
    if (is_blank(c) || c == ',' || c == ':') continue;
    if (c == '"') {
      const std::size_t end = string_end(text, i);
      if (end == std::string_view::npos) break;  // cut short in a string
      // A key when a ':' follows; the top object's keys name its members.
      std::size_t next = end;
      while (next < n && is_blank(text[next])) ++next;
      if (next < n && text[next] == ':' && !open.empty() && open.back() == '{') {
        if (open.size() == 1) member = key_text(text.substr(i, end - i));
      } else if (next < n || open.empty() || open.back() == '[') {
        begin_value(i, false);
        end_value(end, false);
      } else {
        break;  // cut short after a string that may be a key
      }
      i = end - 1;
      continue;
    }
    if (c == '{' || c == '[') {
      begin_value(i, c == '[');
      open += c;
      continue;
    }
    if (c == '}' || c == ']') {
      if (open.empty()) break;  // not JSON: stop
      open.pop_back();
      end_value(i + 1, c == '}');
      if (open.empty()) break;  // the top value ends
      continue;
    }
    // A number or a word (true, false, null, a bare NaN or Infinity): up to a delimiter.
    std::size_t end = i;
    while (end < n && !is_blank(text[end]) && text[end] != ',' && text[end] != '}' &&
           text[end] != ']' && text[end] != ':')
      ++end;
    if (end == n) break;  // cut short in it, or right after it: it may go on
    begin_value(i, false);
    end_value(end, false);
    i = end - 1;
  }
  return layout;
}

}  // namespace sync_summary
