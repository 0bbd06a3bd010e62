#include "report.hpp"

#include <algorithm>
#include <cmath>

#include "anatomy_table.hpp"
#include "format_number.hpp"
#include "graph_table.hpp"
#include "run_info.hpp"
#include "wall_time.hpp"

namespace sync_summary {
namespace {

// Above this many cells a group is shown long (one row per benchmark) instead of wide.
constexpr std::size_t kMaxWideCells = 20000;
const Summary kNoSummary;

bool wide(const Group& g) {
  return g.runs == 1 && g.rows.size() * g.columns.size() <= kMaxWideCells;
}

std::vector<std::string> arg_cells(const Group& g, std::size_t row) {
  std::vector<std::string> cells;
  for (const auto& k : g.arg_keys) cells.push_back(g.arg(row, k));
  return cells;
}

Table start_table(const Group& g, std::string title, bool with_pattern) {
  Table t;
  t.title = std::move(title);
  t.header = g.arg_keys;
  t.align.assign(g.arg_keys.size(), Align::right);
  if (with_pattern) {
    t.header.push_back("pattern");
    t.align.push_back(Align::left);
  }
  return t;
}

// Calls f(row, col) once per (row, col) that some run has, in table order.
template <class F>
void for_each_present(const Group& g, F f) {
  for (std::size_t i = 0; i < g.cells.size();) {
    f(g.cells[i].row, g.cells[i].col);
    std::size_t j = i;
    while (j < g.cells.size() && g.cells[j].row == g.cells[i].row &&
           g.cells[j].col == g.cells[i].col)
      ++j;
    i = j;
  }
}

Summary scaled(Summary s, double factor) {
  s.center *= factor;
  s.min *= factor;
  s.max *= factor;
  return s;
}

double center(const Bench* b, const std::string& metric) {
  return b ? b->summary(metric).center : kNaN;
}

bool paired(const Bench& b) {
  return b.has_metric("overhead_us") && b.has_metric("baseline_us");
}

// The columns that get +us and +%: every one but the baseline in a group with Async; else (no
// Async row: CrossDevice) those whose benchmarks carry a paired overhead, for the time metric.
std::vector<bool> overhead_columns(const Group& g, const std::string& metric) {
  std::vector<bool> shown(g.columns.size(), g.has_baseline);
  if (g.has_baseline) {
    shown[0] = false;
  } else if (metric == kRealTime) {
    for (const auto& cell : g.cells) shown[cell.col] = shown[cell.col] || paired(*cell.bench);
  }
  return shown;
}

bool any_of(const std::vector<bool>& v) {
  return std::find(v.begin(), v.end(), true) != v.end();
}

// Columns with a bandwidth: those are in the bandwidth table.
std::vector<bool> copy_columns(const Group& g) {
  std::vector<bool> copy(g.columns.size(), false);
  for (const auto& cell : g.cells)
    copy[cell.col] = copy[cell.col] || cell.bench->has_metric(kBytesPerSecond);
  return copy;
}

}  // namespace

std::string cell_text(const Bench* b, const Summary& s) {
  if (!b) return "";
  if (s.valid()) return fmt_summary(s);
  if (b->status == Status::error) return "error";
  if (b->status == Status::skipped) return "skipped";
  return "-";
}

Overhead overhead_of(const Bench* b, const Summary& s, double async_center,
                     const std::string& metric) {
  if (!b || !s.valid()) return {};
  if (metric == kRealTime && b->has_metric("overhead_us") && b->has_metric("baseline_us")) {
    const double us = b->summary("overhead_us").center;
    return {us, us / b->summary("baseline_us").center};
  }
  return {s.center - async_center, (s.center - async_center) / async_center};
}

Table overhead_table(const Group& g, const std::vector<RunData>& runs, const std::string& metric) {
  const std::vector<bool> shown = overhead_columns(g, metric);
  const bool overhead = any_of(shown);
  const std::string title =
      g.title() + ": " + metric_title(metric) +
      (g.has_baseline ? ", overhead against Async"
                      : (overhead ? ", paired overhead against each pattern's baseline" : ""));
  if (wide(g)) {
    Table t = start_table(g, title, false);
    for (std::size_t c = 0; c < g.columns.size(); ++c) {
      t.header.push_back(g.label(c));
      if (shown[c]) {
        t.header.push_back("+us");
        t.header.push_back("+%");
      }
    }
    for (std::size_t r = 0; r < g.rows.size(); ++r) {
      std::vector<std::string> row = arg_cells(g, r);
      const double base = center(g.baseline(r, 0), metric);
      for (std::size_t c = 0; c < g.columns.size(); ++c) {
        const Bench* b = g.at(r, c, 0);
        const Summary& s = b ? b->summary(metric) : kNoSummary;
        row.push_back(cell_text(b, s));
        if (shown[c]) {
          const Overhead o = overhead_of(b, s, base, metric);
          row.push_back(s.valid() ? fmt_signed(o.us) : "");
          row.push_back(s.valid() ? fmt_percent(o.fraction) : "");
        }
      }
      t.rows.push_back(std::move(row));
    }
    return t;
  }
  Table t = start_table(g, title, true);
  for (const auto& d : runs) {
    t.header.push_back(d.label);
    if (overhead) t.header.push_back(d.label + " +%");
  }
  for_each_present(g, [&](std::size_t r, std::size_t c) {
    std::vector<std::string> row = arg_cells(g, r);
    row.push_back(g.label(c));
    for (std::size_t run = 0; run < g.runs; ++run) {
      const Bench* b = g.at(r, c, run);
      const Summary& s = b ? b->summary(metric) : kNoSummary;
      row.push_back(cell_text(b, s));
      if (overhead) {
        const double base = center(g.baseline(r, run), metric);
        row.push_back(s.valid() && shown[c] ? fmt_percent(overhead_of(b, s, base, metric).fraction)
                                            : "");
      }
    }
    t.rows.push_back(std::move(row));
  });
  return t;
}

Table bandwidth_table(const Group& g, const std::vector<RunData>& runs) {
  const std::string title = g.title() + ": bandwidth (GB/s)";
  const auto gbps = [](const Bench* b) {
    return b ? scaled(b->summary(kBytesPerSecond), 1e-9) : Summary{};
  };
  const std::vector<bool> copy_col = copy_columns(g);
  if (wide(g)) {
    Table t = start_table(g, title, false);
    for (std::size_t c = 0; c < g.columns.size(); ++c)
      if (copy_col[c]) t.header.push_back(g.label(c));
    for (std::size_t r = 0; r < g.rows.size(); ++r) {
      std::vector<std::string> row = arg_cells(g, r);
      for (std::size_t c = 0; c < g.columns.size(); ++c) {
        if (copy_col[c]) row.push_back(cell_text(g.at(r, c, 0), gbps(g.at(r, c, 0))));
      }
      t.rows.push_back(std::move(row));
    }
    return t;
  }
  Table t = start_table(g, title, true);
  for (const auto& d : runs) t.header.push_back(d.label);
  for_each_present(g, [&](std::size_t r, std::size_t c) {
    if (!copy_col[c]) return;
    std::vector<std::string> row = arg_cells(g, r);
    row.push_back(g.label(c));
    for (std::size_t run = 0; run < g.runs; ++run)
      row.push_back(cell_text(g.at(r, c, run), gbps(g.at(r, c, run))));
    t.rows.push_back(std::move(row));
  });
  return t;
}

Table problems_table(const std::vector<RunData>& runs) {
  Table t;
  t.title = "Errored or skipped benchmarks";
  if (runs.size() > 1) t.header.push_back("run");
  for (const char* h : {"benchmark", "status", "reason"}) t.header.push_back(h);
  t.align.assign(t.header.size(), Align::left);
  for (const auto& d : runs) {
    for (const Bench& b : d.benches) {
      if (b.status == Status::ok) continue;
      std::string status = b.status == Status::error ? "error" : "skipped";
      if (b.failed < b.repetitions && b.repetitions > 1)
        status += " (" + std::to_string(b.failed) + " of " + std::to_string(b.repetitions) +
                  " repetitions)";
      std::vector<std::string> row;
      if (runs.size() > 1) row.push_back(d.label);
      row.push_back(b.name.identity);
      row.push_back(status);
      row.push_back(b.reason.empty() ? "(no message)" : b.reason);
      t.rows.push_back(std::move(row));
    }
  }
  return t;
}

Document build_report(const std::vector<RunData>& runs, const ReportOptions& options) {
  Document doc;
  const std::string& metric = options.metric;
  std::size_t max_reps = 1;
  for (const auto& d : runs)
    for (const auto& b : d.benches) max_reps = std::max(max_reps, b.summary(metric).n);

  if (runs.size() == 1) {
    doc.heading("sync_summary report: " + runs[0].label);
    doc.bullets(run_header_lines(runs[0]));
  } else {
    std::string names;
    for (const auto& d : runs) names += (names.empty() ? "" : " vs ") + d.label;
    doc.heading("sync_summary report: " + names);
    doc.table(runs_table(runs));
  }
  std::vector<std::string> how = {
      "values: " + metric_title(metric) +
      (metric == kRealTime ? ", the median GPU time per step (manual timing)" : "")};
  how.push_back(
      "+us and +%: the paired overhead where sync_bench measured one (overhead_us: the median "
      "of per-round differences against the pattern's baseline in the same process: Async, or the "
      "family's step without the sync; % of that baseline), "
      "else against the Async row of the same family, dtype, backend and args; "
      "speed-up: Eager time / time");
  // Anatomy tables for one run only: side by side, runs are compared on their timed steps.
  bool anatomy = false;
  if (runs.size() == 1)
    for (const auto& b : runs[0].benches) anatomy = anatomy || b.has_metric(kAnatomyMarker);
  if (anatomy) how.push_back(kAnatomyHowTo);
  if (max_reps > 1)
    how.push_back(
        "repetitions: median of each benchmark's repetitions; ± is their coefficient of "
        "variation (min and max in --format=csv)");
  doc.bullets(how);

  if (options.tidy) doc.tidy = report_tidy(runs, metric);
  if (!options.tables) return doc;
  for (const Group& g : build_groups(runs)) {
    std::vector<Table> graphs = graph_tables(g, runs, metric);
    // The plain time table, unless the bandwidth or graph tables already show every column and
    // there is no overhead to show.
    const std::vector<bool> copy = copy_columns(g);
    const bool all_copy = std::find(copy.begin(), copy.end(), false) == copy.end();
    if (g.has_baseline || any_of(overhead_columns(g, metric)) ||
        (!all_copy && !all_graph_columns(g))) {
      doc.table(overhead_table(g, runs, metric));
    }
    if (g.copy) doc.table(bandwidth_table(g, runs));
    for (auto& t : graphs) doc.table(std::move(t));
    if (anatomy) {
      Table t = anatomy_table(g, 0);
      if (!t.rows.empty()) doc.table(std::move(t));
    }
  }
  Table run_time = run_time_table(runs);
  if (!run_time.rows.empty() || !run_time.notes.empty()) doc.table(std::move(run_time));
  Table problems = problems_table(runs);
  if (!problems.rows.empty()) doc.table(std::move(problems));
  return doc;
}

}  // namespace sync_summary
