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
  double timed_seconds = 0.0;       // in the timed batches, of the rows that say (timed_seconds())
  double timed_rows_seconds = 0.0;  // those rows' wall
};

// Seconds a benchmark spent in its timed batches: its steps at its median step, and as many at its
// paired baseline's (a round is one batch of each); NaN where it has no steps counter.
double timed_seconds(const Bench& b) {
  const Summary &steps = b.summary("steps"), &step = b.summary(kRealTime),
                &baseline = b.summary("baseline_us");
  if (!steps.valid() || !step.valid()) return kNaN;
  const double us = step.center + (baseline.valid() ? baseline.center : 0.0);
  return steps.center * us * 1e-6;
}

void add(FamilyTime& f, const Bench& b, double wall) {
  ++f.benchmarks;
  f.seconds += wall;
  if (wall > f.slowest_seconds) {
    f.slowest_seconds = wall;
    f.slowest = b.name.identity;
  }
  const double timed = timed_seconds(b);
  if (std::isfinite(timed) && timed >= 0.0) {
    f.timed_seconds += timed;
    f.timed_rows_seconds += wall;
  }
}

void add_row(Table& t, const std::vector<RunData>& runs, const RunData& run, const FamilyTime& f,
             double total) {
  std::vector<std::string> row;
  if (runs.size() > 1) row.push_back(run.label);
  row.push_back(f.family);
  row.push_back(std::to_string(f.benchmarks));
  row.push_back(fmt_fixed(f.seconds, 1));
  row.push_back(total > 0.0 ? fmt_fixed(100.0 * f.seconds / total, 1) : "-");
  row.push_back(f.timed_rows_seconds > 0.0
                    ? fmt_fixed(100.0 * f.timed_seconds / f.timed_rows_seconds, 0)
                    : "-");
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
      {"run", Align::left},       {"family", Align::left},       {"benchmarks", Align::right},
      {"wall (s)", Align::right}, {"share (%)", Align::right},   {"timed (%)", Align::right},
      {"slowest", Align::left},   {"its wall (s)", Align::right}};
  for (const auto& [header, align] : columns) {
    if (runs.size() == 1 && header == columns[0].first) continue;  // one run: no run column
    t.header.push_back(header);
    t.align.push_back(align);
  }
  std::size_t without = 0, bad = 0;
  bool repeated = false;
  for (const RunData& run : runs) {
    std::map<std::string, FamilyTime> families;
    FamilyTime all;
    all.family = "all";
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
      add(f, b, wall.center);
      add(all, b, wall.center);
    }
    if (families.empty()) continue;
    std::vector<FamilyTime> rows;
    for (auto& [name, f] : families) rows.push_back(std::move(f));
    // The most expensive first; a tie in the order of the names.
    std::stable_sort(rows.begin(), rows.end(), [](const FamilyTime& x, const FamilyTime& y) {
      return x.seconds > y.seconds;
    });
    for (const FamilyTime& f : rows) add_row(t, runs, run, f, all.seconds);
    add_row(t, runs, run, all, all.seconds);
  }
  if (!t.rows.empty())
    t.notes.push_back(
        "timed: the share of the wall spent in timed batches, estimated as steps x the median step "
        "(plus as many of the paired baseline's); the rest is set-up, warm-up, batch sizing, each "
        "batch's lead-in and the untimed passes");
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

std::string wall_comparison(const RunData& base, const RunData& next) {
  double base_s = 0.0, next_s = 0.0;
  std::size_t both = 0;
  for (const Bench& b : base.benches) {
    const Bench* n = next.find(b.name.identity);
    if (!n) continue;
    const Summary &wb = b.summary(kWallCounter), &wn = n->summary(kWallCounter);
    if (!wb.valid() || !wn.valid() || !std::isfinite(wb.center) || !std::isfinite(wn.center) ||
        wb.center < 0.0 || wn.center < 0.0)
      continue;
    base_s += wb.center;
    next_s += wn.center;
    ++both;
  }
  if (both == 0) return "";
  return "wall time (wall_s; shown, not gated): BASE " + fmt_fixed(base_s, 1) + " s, NEW " +
         fmt_fixed(next_s, 1) + " s" +
         (base_s > 0.0 ? " (" + fmt_percent(next_s / base_s - 1.0) + ")" : std::string()) +
         " over the " + std::to_string(both) + " benchmarks both ran";
}

}  // namespace sync_summary
