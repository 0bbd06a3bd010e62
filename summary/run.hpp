#pragma once
// One Google Benchmark JSON file as written, before any interpretation: the context fields and
// one Entry per element of "benchmarks". Field names follow json_reporter.cc of 1.7.1 and 1.8.3.

#include <cstddef>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "time_unit.hpp"

namespace sync_summary {

// A user counter of one row; its name is Run::counter_names[name_id] (names repeat on every
// row, so each is stored once per run).
struct Counter {
  std::size_t name_id = 0;
  double value = 0.0;
};

struct Entry {
  std::string name;            // "name": with GB suffixes and, for aggregates, "_mean" etc.
  std::string run_name;        // "run_name" when it differs from name (aggregates): "" else
  bool aggregate = false;      // "run_type": "aggregate" (else "iteration")
  std::string aggregate_name;  // mean, median, stddev, cv, or a user statistic
  bool percentage = false;     // "aggregate_unit": "percentage" (the cv row: a fraction)
  long long repetitions = 0;
  long long repetition_index = -1;
  long long threads = 1;
  double iterations = 0.0;
  bool has_times = false;  // real_time and cpu_time present (BigO/RMS rows have neither)
  double real_time = std::numeric_limits<double>::quiet_NaN();
  double cpu_time = std::numeric_limits<double>::quiet_NaN();
  TimeUnit unit = TimeUnit::ns;
  bool error = false;    // "error_occurred": SkipWithError, times meaningless
  bool skipped = false;  // "skipped" (1.8): SkipWithMessage
  std::string message;   // error_message or skip_message
  std::string label;
  std::string gpu_uuid;  // "gpu_uuid": the GPU this repetition ran on (sync_summary merge's rows)
  std::vector<Counter> counters;  // every other numeric field: user counters
};

struct Run {
  std::string source;                                       // file name as given ("-": stdin)
  std::map<std::string, std::string, std::less<>> context;  // scalar context fields as text
  std::vector<Entry> entries;
  std::vector<std::string> counter_names;
  // Fields of the rows that are neither known nor numbers (a counter some tool wrote as a string,
  // an unknown key with a string, true/false, null or nested value): not counters, so not read.
  // How many values, and the first one's key. Google Benchmark 1.7.1 and 1.8.3 write none.
  std::size_t ignored_fields = 0;
  std::string ignored_example;

  const std::string& counter_name(const Counter& c) const { return counter_names[c.name_id]; }

  // The context field, or "" when the run does not have it.
  std::string_view context_value(std::string_view key) const {
    auto it = context.find(key);
    return it == context.end() ? std::string_view() : std::string_view(it->second);
  }
};

}  // namespace sync_summary
