#include "layout.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <unordered_map>

namespace sync_summary {
namespace {

bool cell_less(const Group::Cell& a, const Group::Cell& b) {
  if (a.row != b.row) return a.row < b.row;
  if (a.col != b.col) return a.col < b.col;
  return a.run < b.run;
}

struct Builder {
  Group group;
  std::unordered_map<std::string, std::size_t> row_index, col_index;
};

std::string family_key(const BenchName& n) {
  return n.family + '\x1f' + n.dtype + '\x1f' + n.backend;
}

// The subfamily of each (family, dtype, backend, pattern): its patterns joined by " + " when the
// family's patterns fall apart into sets that share no arg key (patterns without args form one
// set), else "". Union-find over patterns, linked through the keys they take: linear in the names.
std::unordered_map<std::string, std::string> subfamilies(const std::vector<const RunData*>& runs) {
  struct Family {
    std::vector<std::string> patterns;  // first-seen order
    std::vector<std::size_t> parent;
    std::unordered_map<std::string, std::size_t> pattern_index;
    std::unordered_map<std::string, std::size_t> key_owner;  // "" stands for "no args"
  };
  std::vector<Family> families;
  std::unordered_map<std::string, std::size_t> family_index;
  const auto find = [](Family& f, std::size_t i) {
    while (f.parent[i] != i) i = f.parent[i] = f.parent[f.parent[i]];
    return i;
  };
  for (const RunData* d : runs) {
    for (const Bench& b : d->benches) {
      const BenchName& n = b.name;
      auto fam = family_index.try_emplace(family_key(n), families.size());
      if (fam.second) families.emplace_back();
      Family& f = families[fam.first->second];
      auto pat = f.pattern_index.try_emplace(n.pattern, f.patterns.size());
      if (pat.second) {
        f.patterns.push_back(n.pattern);
        f.parent.push_back(f.parent.size());
      }
      const auto link = [&](const std::string& key) {
        auto owner = f.key_owner.try_emplace(key, pat.first->second);
        f.parent[find(f, pat.first->second)] = find(f, owner.first->second);
      };
      if (n.args.empty()) link("");
      for (const auto& kv : n.args) link(kv.first);
    }
  }
  std::unordered_map<std::string, std::string> out;
  for (const auto& [key, index] : family_index) {
    Family& f = families[index];
    std::vector<std::string> names(f.patterns.size());
    std::size_t sets = 0;
    for (std::size_t i = 0; i < f.patterns.size(); ++i) {
      std::string& name = names[find(f, i)];
      if (name.empty()) ++sets;
      name += (name.empty() ? "" : " + ") + f.patterns[i];
    }
    if (sets < 2) continue;
    for (std::size_t i = 0; i < f.patterns.size(); ++i)
      out.emplace(key + '\x1f' + f.patterns[i], names[find(f, i)]);
  }
  return out;
}

}  // namespace

std::string args_text(const Args& args) {
  std::string t;
  for (const auto& [k, v] : args) t += (t.empty() ? "" : "/") + k + ":" + v;
  return t;
}

bool args_less(const Args& a, const Args& b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i].first != b[i].first) return a[i].first < b[i].first;
    const double x = arg_number(a[i].second);
    const double y = arg_number(b[i].second);
    if (!std::isnan(x) && !std::isnan(y)) {
      if (x != y) return x < y;
    } else if (a[i].second != b[i].second) {
      return a[i].second < b[i].second;
    }
  }
  return a.size() < b.size();
}

double arg_number(const std::string& value) {
  if (value.empty()) return std::nan("");
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  return (end && *end == '\0') ? v : std::nan("");
}

const Bench* Group::at(std::size_t row, std::size_t col, std::size_t run) const {
  const Cell key{row, col, run, nullptr};
  auto it = std::lower_bound(cells.begin(), cells.end(), key, cell_less);
  return (it != cells.end() && it->row == row && it->col == col && it->run == run) ? it->bench
                                                                                   : nullptr;
}

std::size_t Group::column_index(const std::string& column) const {
  return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), column) -
                                  columns.begin());
}

std::string Group::title() const {
  std::string t = family;
  if (!subfamily.empty()) t += " " + subfamily;
  if (!dtype.empty()) t += " " + dtype;
  if (!backend.empty()) t += " " + backend;
  return t;
}

std::string Group::label(std::size_t col) const {
  const std::string& c = columns[col];
  if (!subfamily.empty() && c.size() > subfamily.size() &&
      c.compare(0, subfamily.size(), subfamily) == 0 && c[subfamily.size()] == '/')
    return c.substr(subfamily.size() + 1);
  return c;
}

std::string Group::arg(std::size_t row, const std::string& key) const {
  for (const auto& [k, v] : rows[row]) {
    if (k == key) return v;
  }
  return "";
}

std::vector<Group> build_groups(const std::vector<RunData>& runs) {
  std::vector<const RunData*> ptrs;
  for (const auto& r : runs) ptrs.push_back(&r);
  return build_groups(ptrs);
}

std::vector<Group> build_groups(const std::vector<const RunData*>& runs) {
  const auto subs = subfamilies(runs);
  std::vector<Builder> builders;
  std::unordered_map<std::string, std::size_t> by_key;
  for (std::size_t run = 0; run < runs.size(); ++run) {
    for (const Bench& b : runs[run]->benches) {
      const BenchName& n = b.name;
      std::string key = family_key(n);
      const auto sub = subs.empty() ? subs.end() : subs.find(key + '\x1f' + n.pattern);
      if (sub != subs.end()) key += '\x1f' + sub->second;
      auto [it, inserted] = by_key.try_emplace(key, builders.size());
      if (inserted) {
        builders.emplace_back();
        builders.back().group.family = n.family;
        builders.back().group.dtype = n.dtype;
        builders.back().group.backend = n.backend;
        if (sub != subs.end()) builders.back().group.subfamily = sub->second;
      }
      Builder& g = builders[it->second];
      const auto row = g.row_index.try_emplace(n.args_text(), g.group.rows.size());
      if (row.second) {
        g.group.rows.push_back(n.args);
        for (const auto& kv : n.args) {
          auto& keys = g.group.arg_keys;
          if (std::find(keys.begin(), keys.end(), kv.first) == keys.end()) keys.push_back(kv.first);
        }
      }
      const auto col = g.col_index.try_emplace(n.column(), g.group.columns.size());
      if (col.second) g.group.columns.push_back(n.column());
      if (n.is_baseline()) g.group.has_baseline = true;
      if (b.has_metric(kBytesPerSecond)) g.group.copy = true;
      g.group.cells.push_back(Group::Cell{row.first->second, col.first->second, run, &b});
    }
  }

  std::vector<Group> groups;
  groups.reserve(builders.size());
  for (Builder& bld : builders) {
    Group& g = bld.group;
    g.runs = runs.size();
    // Rows sorted by value; the baseline column first, the others as first named.
    std::vector<std::size_t> row_order(g.rows.size());
    std::iota(row_order.begin(), row_order.end(), 0);
    std::stable_sort(row_order.begin(), row_order.end(),
                     [&](std::size_t a, std::size_t b) { return args_less(g.rows[a], g.rows[b]); });
    std::vector<std::size_t> row_pos(g.rows.size());
    std::vector<Args> rows(g.rows.size());
    for (std::size_t i = 0; i < row_order.size(); ++i) {
      row_pos[row_order[i]] = i;
      rows[i] = std::move(g.rows[row_order[i]]);
    }
    g.rows = std::move(rows);
    std::vector<std::size_t> col_pos(g.columns.size());
    std::iota(col_pos.begin(), col_pos.end(), 0);
    if (g.has_baseline) {
      const std::size_t base = g.column_index(std::string(BenchName::kBaselinePattern));
      for (std::size_t c = 0; c < base; ++c) col_pos[c] = c + 1;
      col_pos[base] = 0;
      std::rotate(g.columns.begin(), g.columns.begin() + static_cast<std::ptrdiff_t>(base),
                  g.columns.begin() + static_cast<std::ptrdiff_t>(base) + 1);
    }
    for (Group::Cell& c : g.cells) {
      c.row = row_pos[c.row];
      c.col = col_pos[c.col];
    }
    std::sort(g.cells.begin(), g.cells.end(), cell_less);
    groups.push_back(std::move(g));
  }
  return groups;
}

}  // namespace sync_summary
