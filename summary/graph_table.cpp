#include "graph_table.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "format_number.hpp"
#include "report.hpp"
#include "run_info.hpp"

namespace sync_summary {
namespace {

// "Replay/null_kernel" -> pattern "Replay", variants "null_kernel".
std::string pattern_of(const std::string& column) {
  return column.substr(0, column.find('/'));
}
std::string variants_of(const std::string& column) {
  const auto slash = column.find('/');
  return slash == std::string::npos ? "" : column.substr(slash + 1);
}

// The columns of one variant set: Eager, the patterns compared with it, and Capture if any.
struct GraphSet {
  std::string variants;
  std::size_t eager = 0;
  std::vector<std::size_t> others;
  std::size_t capture = 0;
  bool has_capture = false;
  std::vector<std::size_t> rows;  // the rows where the set has a benchmark, ascending
};

std::vector<GraphSet> graph_sets(const Group& g) {
  std::vector<GraphSet> sets;
  for (std::size_t c = 0; c < g.columns.size(); ++c) {
    if (pattern_of(g.columns[c]) != kEagerPattern) continue;
    GraphSet s;
    s.variants = variants_of(g.columns[c]);
    s.eager = c;
    for (std::size_t o = 0; o < g.columns.size(); ++o) {
      if (o == c || variants_of(g.columns[o]) != s.variants) continue;
      if (pattern_of(g.columns[o]) == kCapturePattern) {
        s.capture = o;
        s.has_capture = true;
      } else if (pattern_of(g.columns[o]) != kEagerPattern) {
        s.others.push_back(o);
      }
    }
    sets.push_back(std::move(s));
  }
  // Rows per set in one pass over the benchmarks (cells are sorted by row).
  std::vector<std::size_t> set_of(g.columns.size(), sets.size());
  for (std::size_t i = 0; i < sets.size(); ++i) {
    set_of[sets[i].eager] = i;
    for (std::size_t c : sets[i].others) set_of[c] = i;
    if (sets[i].has_capture) set_of[sets[i].capture] = i;
  }
  for (const auto& cell : g.cells) {
    const std::size_t i = set_of[cell.col];
    if (i < sets.size() && (sets[i].rows.empty() || sets[i].rows.back() != cell.row))
      sets[i].rows.push_back(cell.row);
  }
  return sets;
}

double center(const Bench* b, const std::string& metric) {
  return b ? b->summary(metric).center : kNaN;
}

std::string time_cell(const Bench* b, const std::string& metric) {
  static const Summary kNone;
  return cell_text(b, b ? b->summary(metric) : kNone);
}

// Replays after which making the graph has paid off: Capture / (Eager - time).
std::string break_even_cell(double capture, double eager, double t) {
  if (std::isnan(capture) || std::isnan(eager) || std::isnan(t)) return "";
  return eager > t ? fmt_value(capture / (eager - t)) : "never";
}

// The arg the sizes vary along: the first key with two values or more among the rows.
std::string x_key(const Group& g, const std::vector<std::size_t>& rows) {
  for (const auto& k : g.arg_keys) {
    for (std::size_t r : rows)
      if (g.arg(r, k) != g.arg(rows.front(), k)) return k;
  }
  return "";
}

// Where the column's speed-up against Eager crosses 1 along the x arg, per value of the others.
void crossing_notes(const Group& g, const GraphSet& s, std::size_t col, std::size_t run,
                    const std::string& metric, const std::string& who, Table& t) {
  if (s.rows.empty()) return;
  const std::string key = x_key(g, s.rows);
  if (key.empty()) return;
  // Rows split by the values of the other args ("n=512"), in first-seen order.
  std::vector<std::pair<std::string, std::vector<std::size_t>>> series;
  std::unordered_map<std::string, std::size_t> series_index;
  for (std::size_t r : s.rows) {
    std::string rest;
    for (const auto& [k, v] : g.rows[r])
      if (k != key) rest += (rest.empty() ? "" : " ") + k + "=" + v;
    auto [it, inserted] = series_index.try_emplace(rest, series.size());
    if (inserted) series.emplace_back(rest, std::vector<std::size_t>{});
    series[it->second].second.push_back(r);
  }
  const std::string name = pattern_of(g.columns[col]);
  for (const auto& [rest, rows] : series) {
    std::vector<double> xs, ds;  // x, eager - time (> 0: faster than Eager)
    for (std::size_t r : rows) {
      const double x = arg_number(g.arg(r, key));
      const double d = center(g.at(r, s.eager, run), metric) - center(g.at(r, col, run), metric);
      if (std::isnan(x) || std::isnan(d)) continue;
      xs.push_back(x);
      ds.push_back(d);
    }
    if (xs.size() < 2) continue;
    const std::string head = who + name + (rest.empty() ? "" : " (" + rest + ")");
    std::string line;
    for (std::size_t i = 1; i < xs.size() && line.empty(); ++i) {
      if ((ds[i - 1] > 0) == (ds[i] > 0)) continue;
      const double xb = xs[i - 1] + (xs[i] - xs[i - 1]) * ds[i - 1] / (ds[i - 1] - ds[i]);
      line = head + (ds[i] > 0 ? " overtakes Eager at " : " falls behind Eager at ") + key + " = " +
             fmt_value(xb) + " (between " + fmt_axis(xs[i - 1]) + " and " + fmt_axis(xs[i]) + ")";
    }
    if (line.empty()) {
      line = head +
             (ds[0] > 0 ? " is faster than Eager at every " : " is never faster than Eager, ") +
             key + " from " + fmt_axis(xs.front()) + " to " + fmt_axis(xs.back());
    }
    t.notes.push_back(line);
  }
}

Table one_table(const Group& g, const GraphSet& s, const std::vector<RunData>& runs,
                const std::string& metric) {
  Table t;
  t.title = g.title() + (s.variants.empty() ? "" : " (" + s.variants + ")") + ": " +
            metric_title(metric) + ", speed-up against Eager" +
            (s.has_capture ? ", replays to pay for Capture" : "");
  t.header = g.arg_keys;
  t.align.assign(g.arg_keys.size(), Align::right);
  const auto speedup = [&](std::size_t r, std::size_t c, std::size_t run) {
    const Bench* b = g.at(r, c, run);
    return b ? fmt_speedup(center(g.at(r, s.eager, run), metric) / center(b, metric)) : "";
  };
  const auto break_even = [&](std::size_t r, std::size_t c, std::size_t run) {
    return break_even_cell(center(g.at(r, s.capture, run), metric),
                           center(g.at(r, s.eager, run), metric), center(g.at(r, c, run), metric));
  };
  const std::size_t n_runs = runs.size();
  if (n_runs == 1) {
    t.header.push_back(std::string(kEagerPattern));
    for (std::size_t c : s.others) {
      t.header.push_back(pattern_of(g.columns[c]));
      t.header.push_back("speed-up");
    }
    if (s.has_capture) {
      t.header.push_back(std::string(kCapturePattern));
      for (std::size_t c : s.others)
        t.header.push_back(s.others.size() == 1 ? "break-even"
                                                : pattern_of(g.columns[c]) + " break-even");
    }
    for (std::size_t r : s.rows) {
      std::vector<std::string> row;
      for (const auto& k : g.arg_keys) row.push_back(g.arg(r, k));
      row.push_back(time_cell(g.at(r, s.eager, 0), metric));
      for (std::size_t c : s.others) {
        row.push_back(time_cell(g.at(r, c, 0), metric));
        row.push_back(speedup(r, c, 0));
      }
      if (s.has_capture) {
        row.push_back(time_cell(g.at(r, s.capture, 0), metric));
        for (std::size_t c : s.others) row.push_back(break_even(r, c, 0));
      }
      t.rows.push_back(std::move(row));
    }
  } else {
    t.header.push_back("pattern");
    t.align.push_back(Align::left);
    for (const auto& d : runs) {
      t.header.push_back(d.label);
      t.header.push_back(d.label + " speed-up");
      if (s.has_capture) t.header.push_back(d.label + " break-even");
    }
    std::vector<std::size_t> cols = {s.eager};
    cols.insert(cols.end(), s.others.begin(), s.others.end());
    if (s.has_capture) cols.push_back(s.capture);
    for (std::size_t r : s.rows) {
      for (std::size_t c : cols) {
        std::vector<std::string> row;
        for (const auto& k : g.arg_keys) row.push_back(g.arg(r, k));
        row.push_back(pattern_of(g.columns[c]));
        const bool other = c != s.eager && !(s.has_capture && c == s.capture);
        for (std::size_t run = 0; run < n_runs; ++run) {
          row.push_back(time_cell(g.at(r, c, run), metric));
          row.push_back(other ? speedup(r, c, run) : "");
          if (s.has_capture) row.push_back(other ? break_even(r, c, run) : "");
        }
        t.rows.push_back(std::move(row));
      }
    }
  }
  for (std::size_t run = 0; run < n_runs; ++run)
    for (std::size_t c : s.others)
      crossing_notes(g, s, c, run, metric, n_runs > 1 ? runs[run].label + ": " : "", t);
  return t;
}

}  // namespace

std::vector<Table> graph_tables(const Group& g, const std::vector<RunData>& runs,
                                const std::string& metric) {
  std::vector<Table> tables;
  for (const GraphSet& s : graph_sets(g)) tables.push_back(one_table(g, s, runs, metric));
  return tables;
}

bool all_graph_columns(const Group& g) {
  const auto sets = graph_sets(g);
  if (sets.empty()) return false;
  std::size_t covered = 0;
  for (const auto& s : sets) covered += 1 + s.others.size() + (s.has_capture ? 1 : 0);
  return covered == g.columns.size();
}

}  // namespace sync_summary
