#include "dtypes.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "format_number.hpp"
#include "layout.hpp"
#include "run_info.hpp"

namespace sync_summary {
namespace {

// The groups of one family and backend that differ only in dtype, in dtype order.
struct DtypeSet {
  std::string family, backend;
  std::vector<const Group*> groups;
};

std::vector<DtypeSet> dtype_sets(const std::vector<Group>& groups) {
  std::vector<DtypeSet> sets;
  for (const Group& g : groups) {
    if (g.dtype.empty()) continue;
    auto it = std::find_if(sets.begin(), sets.end(), [&](const DtypeSet& s) {
      return s.family == g.family && s.backend == g.backend;
    });
    if (it == sets.end()) it = sets.insert(sets.end(), DtypeSet{g.family, g.backend, {}});
    it->groups.push_back(&g);
  }
  for (auto& s : sets) {
    std::stable_sort(s.groups.begin(), s.groups.end(), [](const Group* a, const Group* b) {
      return dtype_rank(a->dtype) < dtype_rank(b->dtype);
    });
  }
  return sets;
}

// Row index of each args text, per group.
using RowIndex = std::unordered_map<std::string, std::size_t>;

RowIndex index_rows(const Group& g) {
  RowIndex index;
  for (std::size_t r = 0; r < g.rows.size(); ++r) index.emplace(args_text(g.rows[r]), r);
  return index;
}

// The sizes a column has in some dtype of the set, and the arg keys they use.
struct ColumnRows {
  std::vector<Args> rows;
  std::set<std::string> seen;
  std::vector<std::string> keys;
};

// One pass over the set's benchmarks: every non-baseline column with its rows, in first-seen
// order (a table never lists a size that none of its dtypes has).
std::vector<std::pair<std::string, ColumnRows>> column_rows(const DtypeSet& set) {
  std::vector<std::pair<std::string, ColumnRows>> out;
  std::unordered_map<std::string, std::size_t> index;
  for (const Group* g : set.groups) {
    for (const auto& cell : g->cells) {
      if (g->has_baseline && cell.col == 0) continue;
      const std::string& column = g->columns[cell.col];
      auto [it, inserted] = index.try_emplace(column, out.size());
      if (inserted) out.emplace_back(column, ColumnRows{});
      ColumnRows& cr = out[it->second].second;
      const Args& a = g->rows[cell.row];
      if (!cr.seen.insert(args_text(a)).second) continue;
      cr.rows.push_back(a);
      for (const auto& kv : a)
        if (std::find(cr.keys.begin(), cr.keys.end(), kv.first) == cr.keys.end())
          cr.keys.push_back(kv.first);
    }
  }
  return out;
}

// One table: a row per size, two columns (time, +%) per dtype.
void add_column_table(const DtypeSet& set, const std::vector<RowIndex>& index,
                      const std::string& column, ColumnRows cr, const std::string& metric,
                      const std::string& label, Document& doc) {
  std::vector<Args> rows = std::move(cr.rows);
  const std::vector<std::string>& keys = cr.keys;
  std::stable_sort(rows.begin(), rows.end(), args_less);

  Table t;
  t.title = set.family + (set.backend.empty() ? "" : " " + set.backend) + ": " + column + ", " +
            metric_title(metric) + " and overhead against Async, by dtype";
  t.header = keys;
  for (const Group* g : set.groups) {
    t.header.push_back(g->dtype);
    t.header.push_back(g->dtype + " +%");
  }
  for (const Args& a : rows) {
    const std::string text = args_text(a);
    std::vector<std::string> row;
    for (const auto& k : keys) {
      const auto it =
          std::find_if(a.begin(), a.end(), [&](const auto& kv) { return kv.first == k; });
      row.push_back(it == a.end() ? "" : it->second);
    }
    for (std::size_t i = 0; i < set.groups.size(); ++i) {
      const Group* g = set.groups[i];
      const auto found = index[i].find(text);
      const std::size_t r = found == index[i].end() ? g->rows.size() : found->second;
      const std::size_t c = g->column_index(column);
      const Bench* b = (r < g->rows.size() && c < g->columns.size()) ? g->at(r, c, 0) : nullptr;
      const Summary s = b ? b->summary(metric) : Summary{};
      const Bench* base = r < g->rows.size() ? g->baseline(r, 0) : nullptr;
      const double bv = base ? base->summary(metric).center : kNaN;
      const Overhead o = overhead_of(b, s, bv, metric);
      row.push_back(cell_text(b, s));
      row.push_back(s.valid() ? fmt_percent(o.fraction) : "");
      if (b)
        doc.tidy.rows.push_back({label, set.family, set.backend, column, text, g->dtype,
                                 fmt_exact(s.center), fmt_exact(bv),
                                 s.valid() ? fmt_exact(o.fraction * 100.0) : ""});
    }
    t.rows.push_back(std::move(row));
  }
  doc.table(std::move(t));
}

}  // namespace

Document build_dtypes(const std::vector<RunData>& runs, const ReportOptions& options) {
  Document doc;
  doc.tidy.header = {"run",   "family", "backend",      "pattern",     "args",
                     "dtype", "median", "async_median", "overhead_pct"};
  doc.heading("sync_summary dtypes");
  doc.bullets({"values: " + metric_title(options.metric) +
               "; +%: the paired overhead where sync_bench measured one (% of the pattern's "
               "baseline in the same process), else against the Async row of the same family, "
               "dtype, backend and args"});
  std::size_t tables = 0;
  for (const RunData& d : runs) {
    if (runs.size() > 1) doc.heading("run " + d.label + " (" + d.run.source + ")", 2);
    const std::vector<Group> groups = build_groups(std::vector<const RunData*>{&d});
    for (const DtypeSet& set : dtype_sets(groups)) {
      std::vector<RowIndex> index;  // per dtype: row of each size
      for (const Group* g : set.groups) index.push_back(index_rows(*g));
      for (auto& [column, rows] : column_rows(set)) {
        add_column_table(set, index, column, std::move(rows), options.metric, d.label, doc);
        ++tables;
      }
    }
  }
  if (tables == 0) doc.text({"No benchmark name has a dtype word: nothing to put side by side."});
  return doc;
}

}  // namespace sync_summary
