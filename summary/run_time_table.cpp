#include "run_time_table.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "format_number.hpp"

namespace sync_summary {
namespace {

struct FamilyTime {
  std::string family;
  std::size_t benchmarks = 0;
  double seconds = 0.0;
  std::string slowest;
  double slowest_seconds = -1.0;
};

void add_row(Table& t, const std::vector<RunData>& runs, const RunData& run, const FamilyTime& f,
             double total) {
  std::vector<std::string> row;
  if (runs.size() > 1) row.push_back(run.label);
  row.push_back(f.family);
  row.push_back(std::to_string(f.benchmarks));
  row.push_back(fmt_fixed(f.seconds, 1));
  row.push_back(total > 0.0 ? fmt_fixed(100.0 * f.seconds / total, 1) : "-");
  row.push_back(f.slowest);
  row.push_back(fmt_fixed(f.slowest_seconds, 2));
  t.rows.push_back(std::move(row));
}

}  // namespace

Table run_time_table(const std::vector<RunData>& runs) {
  Table t;
  t.title =
      "Where the run's time went (wall_s: each benchmark's wall time, untimed passes included)";
  const std::pair<const char*, Align> columns[] = {
      {"run", Align::left},          {"family", Align::left},     {"benchmarks", Align::right},
      {"wall (s)", Align::right},    {"share (%)", Align::right}, {"slowest", Align::left},
      {"its wall (s)", Align::right}};
  for (const auto& [header, align] : columns) {
    if (runs.size() == 1 && header == columns[0].first) continue;  // one run: no run column
    t.header.push_back(header);
    t.align.push_back(align);
  }
  std::size_t without = 0, bad = 0;
  bool repeated = false;
  for (const RunData& run : runs) {
    std::map<std::string, FamilyTime> families;
    for (const Bench& b : run.benches) {
      const Summary& wall = b.summary(kWallCounter);
      if (!wall.valid()) {
        without += b.status == Status::ok;
        continue;
      }
      if (!std::isfinite(wall.center) || wall.center < 0.0) {
        ++bad;
        continue;
      }
      repeated = repeated || wall.n > 1;
      FamilyTime& f = families[b.name.family];
      f.family = b.name.family;
      ++f.benchmarks;
      f.seconds += wall.center;
      if (wall.center > f.slowest_seconds) {
        f.slowest_seconds = wall.center;
        f.slowest = b.name.identity;
      }
    }
    if (families.empty()) continue;
    std::vector<FamilyTime> rows;
    FamilyTime all;
    all.family = "all";
    for (auto& [name, f] : families) {
      all.benchmarks += f.benchmarks;
      all.seconds += f.seconds;
      if (f.slowest_seconds > all.slowest_seconds) {
        all.slowest_seconds = f.slowest_seconds;
        all.slowest = f.slowest;
      }
      rows.push_back(std::move(f));
    }
    // The most expensive first; a tie in the order of the names.
    std::stable_sort(rows.begin(), rows.end(), [](const FamilyTime& x, const FamilyTime& y) {
      return x.seconds > y.seconds;
    });
    for (const FamilyTime& f : rows) add_row(t, runs, run, f, all.seconds);
    add_row(t, runs, run, all, all.seconds);
  }
  if (repeated)
    t.notes.push_back("a benchmark with repetitions counts the median of its repetitions' walls");
  if (without > 0 && !t.rows.empty())
    t.notes.push_back(std::to_string(without) +
                      " measured benchmarks carry no wall_s (a JSON from an older sync_bench) and "
                      "are not counted");
  if (bad > 0)
    t.notes.push_back(std::to_string(bad) +
                      " benchmarks have a wall_s that is not a finite time of 0 or more and are "
                      "not counted");
  return t;
}

}  // namespace sync_summary
