#pragma once
// From a Run's rows to one Bench per benchmark identity: its parsed name, its repetitions per
// metric (times in us, counters as written), its aggregates, and whether it failed or was skipped.

#include <cstddef>
#include <regex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "name_grammar.hpp"
#include "run.hpp"
#include "statistics.hpp"

namespace sync_summary {

// The metric names besides counters: Google Benchmark's times, converted to us.
inline constexpr std::string_view kRealTime = "real_time";
inline constexpr std::string_view kCpuTime = "cpu_time";
inline constexpr std::string_view kBytesPerSecond = "bytes_per_second";

// What a report shows of a metric: from the repetitions when there are any (median, min-max,
// CV computed here), else from the aggregates (median, else mean; CV).
struct Summary {
  std::size_t n = 0;  // repetitions behind the value
  double center = kNaN;
  double min = kNaN;
  double max = kNaN;
  double cv = kNaN;
  bool from_aggregates = false;
  bool valid() const { return n > 0; }
};

// One metric of one benchmark: a value per repetition (iteration rows), and the aggregate rows.
struct Metric {
  std::string name;
  std::vector<double> reps;
  double agg_mean = kNaN;
  double agg_median = kNaN;
  double agg_stddev = kNaN;
  double agg_cv = kNaN;  // a fraction
  Summary summary;       // computed once all rows are in (digest)
};

enum class Status { ok, error, skipped };

struct Bench {
  BenchName name;
  TimeUnit unit = TimeUnit::ns;  // as the JSON wrote it
  Status status = Status::ok;
  std::string reason;      // error or skip message
  std::size_t failed = 0;  // repetitions that errored or were skipped
  std::size_t repetitions = 0;
  std::vector<Metric> metrics;  // real_time, cpu_time, then counters in first-seen order
  // The GPU of each repetition, in real_time's order: the row's own gpu_uuid (a run merged from
  // several machines), else the run's; "" when neither says.
  std::vector<std::string> rep_gpus;

  const Metric* metric(std::string_view name) const;
  const Summary& summary(std::string_view metric_name) const;  // empty Summary when absent
  bool has_metric(std::string_view name) const { return metric(name) != nullptr; }
};

// One run, digested.
struct RunData {
  Run run;                     // its context and source; the rows (entries) are freed once digested
  std::string label;           // short name for columns (file stem, or context when stems collide)
  std::vector<Bench> benches;  // in the order the JSON first names them
  std::unordered_map<std::string, std::size_t> by_identity;

  const Bench* find(const std::string& identity) const;
};

// A time Google Benchmark measured: finite, positive and below 1e15 (a 1e308 "time" is garbage).
inline bool is_measured_time(double t) {
  return t > 0.0 && t < 1e15;
}

// Groups the rows; throws InputError for a name outside the grammar, and for an iteration row whose
// real_time is not is_measured_time.
RunData digest(Run run);

// What digest refuses, refused the same way, without building the benchmarks (a fraction of the
// memory: merge checks its runs so).
void check_run(const Run& run);

// Whether --filter finds a benchmark: in its identity, or in its name as written (with Google
// Benchmark's suffixes: "/manual_time"), as --benchmark_filter sees it. So a filter written either
// way ("n:512$", or scripts/ci_regress.sh's "n:512/") picks the same rows in every command.
bool filter_finds(const std::regex& filter, const BenchName& name);

// Keeps only the benchmarks filter_finds.
void apply_filter(RunData& data, const std::regex& filter);

Summary summarize(const Metric& m, std::size_t repetitions);

}  // namespace sync_summary
