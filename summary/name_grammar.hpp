#pragma once
// The benchmark-name grammar of sync_bench (STYLE.md, "Names that parse"):
//
//   name := Family "/" Pattern { "/" Word } { "/" Key ":" Value } [ GB-suffixes ]
//
// Words are variants, then at most one dtype word, then at most one backend word. Google
// Benchmark's suffixes (manual_time, real_time, process_time, repeats:N, min_time:X,
// min_warmup_time:X, iterations:N, threads:N) trail the name and are not part of its identity,
// except threads:N, which is kept as the arg threads:N (each thread count is its own benchmark).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sync_summary {

struct BenchName {
  std::string family;
  std::string pattern;
  std::vector<std::string> variants;
  std::string dtype;    // "" when the name has none
  std::string backend;  // "" when the name has none
  std::vector<std::pair<std::string, std::string>> args;
  std::vector<std::string> gb_suffixes;
  std::string identity;  // canonical name without GB suffixes: what runs are matched on
  std::string written;   // the name as the JSON has it, GB suffixes and all (not an aggregate's)

  // The table column: pattern, then its variants ("ScalarRead/pinned").
  std::string column() const;
  // Args as "n:512/k:10" ("" without args).
  std::string args_text() const;
  // The Async pattern without variants: the baseline every other pattern is measured against.
  bool is_baseline() const { return pattern == kBaselinePattern && variants.empty(); }
  // The identity of the Async benchmark with this name's family, dtype, backend and args.
  std::string baseline_identity() const;

  static constexpr std::string_view kBaselinePattern = "Async";
};

// The word sets that give a word its role; every other word is a variant.
bool is_dtype_word(std::string_view word);
bool is_backend_word(std::string_view word);
// The order dtypes are shown in (the word set's order), for sorting: unknown words last.
int dtype_rank(std::string_view dtype);

// Parses a name (without the "_mean"-style aggregate suffix). Throws InputError naming the
// offending part when the name does not follow the grammar.
BenchName parse_name(std::string_view name);

// The name without the aggregate suffix ("X/manual_time_mean" -> "X/manual_time").
std::string_view strip_aggregate_suffix(std::string_view name, std::string_view aggregate_name);

}  // namespace sync_summary
