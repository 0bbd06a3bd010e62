#pragma once
// `sync_summary compare BASE NEW`: benchmarks matched by identity and time unit; change =
// (new - old) / |old| of the medians (old == 0 guarded as report.py does); with at least two
// repetitions on each side, a two-sided Mann-Whitney U test on the repetitions. A regression is a
// change beyond the threshold that is also significant at alpha (threshold alone without
// repetitions).

#include <string>
#include <utility>
#include <vector>

#include "benchmarks.hpp"
#include "document.hpp"
#include "mann_whitney.hpp"

namespace sync_summary {

struct CompareOptions {
  std::string metric = std::string(kRealTime);
  double threshold_pct = 5.0;
  double alpha = 0.05;
};

enum class Verdict { regression, improvement, unchanged, not_significant };

struct Comparison {
  std::string identity;
  TimeUnit unit = TimeUnit::ns;
  Summary base, next;
  double change = 0.0;  // (new - old) / |old|, a fraction
  bool has_utest = false;
  UTest utest;
  Verdict verdict = Verdict::unchanged;
};

struct CompareResult {
  std::vector<Comparison> rows;
  std::vector<std::string> only_base, only_new;
  std::vector<std::pair<std::string, std::string>> not_compared;  // identity, why
  std::vector<std::string> context_warnings;
  std::size_t regressions = 0;
  std::size_t improvements = 0;
  bool few_repetitions = false;  // some U test ran on fewer than 9 repetitions a side
};

// Minimum repetitions a side for the U test, and report.py's advice for reliable results.
inline constexpr std::size_t kUTestMinRepetitions = 2;
inline constexpr std::size_t kUTestOptimalRepetitions = 9;

// Metrics where a larger value is better (rates): a drop is the regression there.
bool higher_is_better(const std::string& metric);

CompareResult compare_runs(const RunData& base, const RunData& next, const CompareOptions& options);
Document compare_document(const CompareResult& result, const RunData& base, const RunData& next,
                          const CompareOptions& options);

}  // namespace sync_summary
