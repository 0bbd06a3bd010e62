#include "wall_time.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "format_number.hpp"

namespace sync_summary {
namespace {

struct Wall {
  double total = 0.0;   // seconds, over every repetition
  double median = 0.0;  // seconds, of one repetition
  std::size_t repetitions = 0;
};

bool is_wall(double v) {
  return std::isfinite(v) && v >= 0.0;
}

// The benchmark's wall_s; nullopt when it has none, and when a value is not a time of 0 or more
// (then *bad, where given, is set).
std::optional<Wall> wall_of(const Bench& b, bool* bad = nullptr) {
  const Metric* m = b.metric(kWallCounter);
  const Summary& s = b.summary(kWallCounter);
  if (!m || !s.valid()) return std::nullopt;
  Wall w;
  w.median = s.center;
  w.repetitions = s.n;
  bool every_rep_a_wall = true;
  if (!m->reps.empty()) {
    for (double v : m->reps) {
      every_rep_a_wall = every_rep_a_wall && is_wall(v);
      w.total += v;
    }
  } else {  // aggregates only: their mean, as many times as the run repeated
    w.total = (std::isnan(m->agg_mean) ? s.center : m->agg_mean) * static_cast<double>(s.n);
  }
  if (!every_rep_a_wall || !is_wall(w.median) || !is_wall(w.total)) {
    if (bad) *bad = true;
    return std::nullopt;
  }
  return w;
}

// Seconds one repetition of a benchmark spent in its timed batches: its steps at its median step,
// and as many at its paired baseline's (a round is one batch of each); NaN without a steps counter.
double timed_seconds_per_repetition(const Bench& b) {
  const Summary &steps = b.summary("steps"), &step = b.summary(kRealTime),
                &baseline = b.summary("baseline_us");
  if (!steps.valid() || !step.valid()) return kNaN;
  const double us = step.center + (baseline.valid() ? baseline.center : 0.0);
  return steps.center * us * 1e-6;
}

struct FamilyTime {
  std::string family;
  std::size_t benchmarks = 0;
  double seconds = 0.0;
  std::string slowest;
  double slowest_seconds = -1.0;
  double timed = 0.0;               // seconds in timed batches, of the benchmarks that report steps
  double with_steps_seconds = 0.0;  // those benchmarks' wall

  void add(const Bench& b, const Wall& w) {
    ++benchmarks;
    seconds += w.total;
    if (w.total > slowest_seconds) {
      slowest_seconds = w.total;
      slowest = b.name.identity;
    }
    const double t = timed_seconds_per_repetition(b) * static_cast<double>(w.repetitions);
    if (is_wall(t)) {
      timed += t;
      with_steps_seconds += w.total;
    }
  }
};

void add_row(Table& t, bool run_column, const RunData& run, const FamilyTime& f, double total) {
  std::vector<std::string> row;
  if (run_column) row.push_back(run.label);
  row.push_back(f.family);
  row.push_back(std::to_string(f.benchmarks));
  row.push_back(fmt_fixed(f.seconds, 1));
  row.push_back(total > 0.0 ? fmt_fixed(100.0 * f.seconds / total, 1) : "-");
  row.push_back(f.with_steps_seconds > 0.0 ? fmt_fixed(100.0 * f.timed / f.with_steps_seconds, 0)
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
  const bool run_column = runs.size() > 1;
  const std::pair<const char*, Align> columns[] = {
      {"run", Align::left},       {"family", Align::left},       {"benchmarks", Align::right},
      {"wall (s)", Align::right}, {"share (%)", Align::right},   {"timed (%)", Align::right},
      {"slowest", Align::left},   {"its wall (s)", Align::right}};
  for (std::size_t c = run_column ? 0 : 1; c < std::size(columns); ++c) {
    t.header.push_back(columns[c].first);
    t.align.push_back(columns[c].second);
  }
  bool repeated = false;
  std::vector<std::string> problems, no_counter;  // no_counter: runs none of whose rows carry it
  for (const RunData& run : runs) {
    std::map<std::string, FamilyTime> families;
    FamilyTime all;
    all.family = "all";
    std::size_t without = 0, bad_walls = 0;
    for (const Bench& b : run.benches) {
      bool bad = false;
      const std::optional<Wall> w = wall_of(b, &bad);
      if (!w) {
        bad_walls += bad;
        without += !bad && b.status == Status::ok;
        continue;
      }
      repeated = repeated || w->repetitions > 1;
      FamilyTime& f = families[b.name.family];
      f.family = b.name.family;
      f.add(b, *w);
      all.add(b, *w);
    }
    const std::string in = run_column ? run.label + ": " : "";
    if (without > 0 && families.empty())
      no_counter.push_back(run.label);
    else if (without > 0)
      problems.push_back(in + std::to_string(without) +
                         " measured benchmarks carry no wall_s (from an older sync_bench) and are "
                         "not counted");
    if (bad_walls > 0)
      problems.push_back(in + std::to_string(bad_walls) +
                         " benchmarks have a wall_s that is not a finite time of 0 or more and are "
                         "not counted");
    if (families.empty()) continue;
    std::vector<FamilyTime> rows;
    for (auto& [name, f] : families) rows.push_back(std::move(f));
    // The most expensive first; a tie in the order of the names.
    std::stable_sort(rows.begin(), rows.end(), [](const FamilyTime& x, const FamilyTime& y) {
      return x.seconds > y.seconds;
    });
    for (const FamilyTime& f : rows) add_row(t, run_column, run, f, all.seconds);
    add_row(t, run_column, run, all, all.seconds);
  }
  if (!t.rows.empty())
    t.notes.push_back(
        "timed: the share of the wall spent in timed batches, over the benchmarks that report "
        "steps: steps x the median step (plus as many of the paired baseline's); the rest is "
        "set-up, warm-up, batch sizing, each batch's lead-in and the untimed passes");
  if (repeated)
    t.notes.push_back(
        "every repetition counts: a run merged from K processes spent K walls on a benchmark");
  t.notes.insert(t.notes.end(), problems.begin(), problems.end());
  if (!t.rows.empty())
    for (const std::string& label : no_counter)
      t.notes.push_back(label + ": no benchmark carries wall_s (from an older sync_bench)");
  return t;
}

std::string wall_comparison(const RunData& base, const RunData& next) {
  double base_s = 0.0, next_s = 0.0;
  std::size_t both_carry = 0, both_ran = 0;
  for (const Bench& b : base.benches) {
    const Bench* n = next.find(b.name.identity);
    if (!n) continue;
    ++both_ran;
    const std::optional<Wall> wb = wall_of(b), wn = wall_of(*n);
    if (!wb || !wn) continue;
    base_s += wb->median;
    next_s += wn->median;
    ++both_carry;
  }
  if (both_carry == 0) return "";
  return "wall time (wall_s, the median of each benchmark's repetitions; shown, not gated): BASE " +
         fmt_fixed(base_s, 1) + " s, NEW " + fmt_fixed(next_s, 1) + " s" +
         (base_s > 0.0 ? " (" + fmt_percent(next_s / base_s - 1.0) + ")" : std::string()) +
         " over the " + std::to_string(both_carry) + " benchmarks both carry it for (of " +
         std::to_string(both_ran) + " in both)";
}

}  // namespace sync_summary
