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

// One table: rows the union of sizes, two columns (time, +%) per dtype.
void add_column_table(const DtypeSet& set, const std::string& column, const std::string& metric,
                      const std::string& label, Document& doc) {
  std::vector<Args> rows;
  std::vector<std::string> keys;
  std::vector<RowIndex> index;
  std::set<std::string> seen;
  for (const Group* g : set.groups) {
    index.push_back(index_rows(*g));
    for (const auto& a : g->rows)
      if (seen.insert(args_text(a)).second) rows.push_back(a);
    for (const auto& k : g->arg_keys)
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  }
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
      row.push_back(cell_text(b, s));
      row.push_back(s.valid() ? fmt_percent((s.center - bv) / bv) : "");
      if (b)
        doc.tidy.rows.push_back({label, set.family, set.backend, column, text, g->dtype,
                                 fmt_exact(s.center), fmt_exact(bv),
                                 s.valid() ? fmt_exact((s.center - bv) / bv * 100.0) : ""});
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
               "; +%: against Async of the same family, dtype, backend and args"});
  std::size_t tables = 0;
  for (const RunData& d : runs) {
    if (runs.size() > 1) doc.heading("run " + d.label + " (" + d.run.source + ")", 2);
    const std::vector<Group> groups = build_groups(std::vector<const RunData*>{&d});
    for (const DtypeSet& set : dtype_sets(groups)) {
      std::vector<std::string> columns;
      for (const Group* g : set.groups)
        for (std::size_t c = g->has_baseline ? 1 : 0; c < g->columns.size(); ++c)
          if (std::find(columns.begin(), columns.end(), g->columns[c]) == columns.end())
            columns.push_back(g->columns[c]);
      for (const auto& column : columns) {
        add_column_table(set, column, options.metric, d.label, doc);
        ++tables;
      }
    }
  }
  if (tables == 0) doc.text({"No benchmark name has a dtype word: nothing to put side by side."});
  return doc;
}

}  // namespace sync_summary
