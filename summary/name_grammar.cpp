#include "name_grammar.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "errors.hpp"

namespace sync_summary {
namespace {

// The one place the word sets live.
constexpr std::array<std::string_view, 5> kDtypes = {"fp16", "bf16", "fp32", "tf32", "fp8"};
constexpr std::array<std::string_view, 2> kBackends = {"cublas", "cublaslt"};

// Google Benchmark's own name parts (benchmark_register.cc), always after the args.
constexpr std::array<std::string_view, 3> kGbWords = {"manual_time", "real_time", "process_time"};
constexpr std::array<std::string_view, 5> kGbKeys = {"repeats", "min_time", "min_warmup_time",
                                                     "iterations", "threads"};

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& set, std::string_view word) {
  return std::find(set.begin(), set.end(), word) != set.end();
}

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
         c == '+';
}
bool is_word(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), word_char);
}
bool is_identifier(std::string_view s) {
  return !s.empty() && std::isalpha(static_cast<unsigned char>(s[0])) &&
         std::all_of(s.begin(), s.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

bool is_gb_suffix(std::string_view part) {
  if (contains(kGbWords, part)) return true;
  const auto colon = part.find(':');
  return colon != std::string_view::npos && contains(kGbKeys, part.substr(0, colon)) &&
         is_word(part.substr(colon + 1));
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const auto pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return parts;
}

[[noreturn]] void reject(std::string_view name, const std::string& why) {
  throw InputError("benchmark name '" + std::string(name) +
                   "' does not follow the grammar Family/Pattern[/words][/key:value]: " + why);
}

std::string make_identity(const BenchName& b, const std::string& column) {
  std::string id = b.family + "/" + column;
  if (!b.dtype.empty()) id += "/" + b.dtype;
  if (!b.backend.empty()) id += "/" + b.backend;
  if (!b.args.empty()) id += "/" + b.args_text();
  return id;
}

}  // namespace

bool is_dtype_word(std::string_view word) {
  return contains(kDtypes, word);
}
bool is_backend_word(std::string_view word) {
  return contains(kBackends, word);
}

int dtype_rank(std::string_view dtype) {
  const auto it = std::find(kDtypes.begin(), kDtypes.end(), dtype);
  return static_cast<int>(it - kDtypes.begin());
}

std::string BenchName::column() const {
  std::string c = pattern;
  for (const auto& v : variants) c += "/" + v;
  return c;
}

std::string BenchName::baseline_identity() const {
  return make_identity(*this, std::string(kBaselinePattern));
}

std::string BenchName::args_text() const {
  std::string t;
  for (const auto& [k, v] : args) {
    if (!t.empty()) t += '/';
    t += k + ":" + v;
  }
  return t;
}

BenchName parse_name(std::string_view name) {
  std::vector<std::string_view> parts = split(name, '/');
  if (parts.size() < 2) reject(name, "expected at least Family/Pattern");

  BenchName b;
  b.written = std::string(name);
  while (parts.size() > 2 && is_gb_suffix(parts.back())) {
    b.gb_suffixes.insert(b.gb_suffixes.begin(), std::string(parts.back()));
    parts.pop_back();
  }
  if (!is_identifier(parts[0])) reject(name, "bad family '" + std::string(parts[0]) + "'");
  if (!is_identifier(parts[1])) reject(name, "bad pattern '" + std::string(parts[1]) + "'");
  b.family = parts[0];
  b.pattern = parts[1];

  enum class Stage { variants, dtype, backend, args } stage = Stage::variants;
  for (std::size_t i = 2; i < parts.size(); ++i) {
    const std::string_view p = parts[i];
    const std::string part(p);
    const auto colon = p.find(':');
    if (colon != std::string_view::npos) {
      const auto key = p.substr(0, colon);
      const auto value = p.substr(colon + 1);
      if (!is_identifier(key) || !is_word(value)) reject(name, "bad argument '" + part + "'");
      b.args.emplace_back(std::string(key), std::string(value));
      stage = Stage::args;
      continue;
    }
    if (!is_word(p)) reject(name, "bad part '" + part + "'");
    if (stage == Stage::args) reject(name, "word '" + part + "' after the key:value arguments");
    if (is_dtype_word(p)) {
      if (stage != Stage::variants) reject(name, "dtype '" + part + "' after a dtype or backend");
      b.dtype = part;
      stage = Stage::dtype;
    } else if (is_backend_word(p)) {
      if (stage == Stage::backend) reject(name, "second backend '" + part + "'");
      b.backend = part;
      stage = Stage::backend;
    } else {
      if (stage != Stage::variants) reject(name, "variant '" + part + "' after dtype or backend");
      b.variants.push_back(part);
    }
  }

  // threads:N is Google Benchmark's suffix but a different measurement per N: an identity arg.
  for (const auto& suffix : b.gb_suffixes) {
    if (suffix.rfind("threads:", 0) == 0) b.args.emplace_back("threads", suffix.substr(8));
  }
  b.identity = make_identity(b, b.column());
  return b;
}

std::string_view strip_aggregate_suffix(std::string_view name, std::string_view aggregate_name) {
  if (aggregate_name.empty() || name.size() <= aggregate_name.size() + 1) return name;
  const auto tail = name.substr(name.size() - aggregate_name.size() - 1);
  if (tail[0] == '_' && tail.substr(1) == aggregate_name)
    return name.substr(0, name.size() - tail.size());
  return name;
}

}  // namespace sync_summary
