#pragma once
// Arranges benchmarks into tables: one Group per (family, dtype, backend), one row per args tuple
// (sorted by value), one column per pattern[/variants] (the Async baseline first), and a cell per
// run. A family whose patterns take unrelated args (MultiGpu: CrossDevice none, PeerCopy bytes,
// SyncAll devices) is split: patterns that share an arg key, or both take none, go in one Group,
// so that no table has rows or columns for args its benchmarks lack. Shared by report, dtypes and
// the charts.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "benchmarks.hpp"

namespace sync_summary {

using Args = std::vector<std::pair<std::string, std::string>>;

struct Group {
  std::string family;
  std::string dtype;
  std::string backend;
  // The patterns of this group ("PeerCopy") when its family is split by args; "" when it is not.
  std::string subfamily;
  std::vector<std::string> arg_keys;  // every key some row has, in first-seen order
  std::vector<Args> rows;
  std::vector<std::string> columns;
  bool has_baseline = false;  // columns[0] is the Async baseline
  bool copy = false;          // some benchmark reports bytes_per_second
  std::size_t runs = 0;

  // The benchmarks present, sorted by (row, col, run): sparse, so a pathological input with
  // thousands of rows and columns costs memory for its benchmarks only.
  struct Cell {
    std::size_t row, col, run;
    const Bench* bench;
  };
  std::vector<Cell> cells;

  const Bench* at(std::size_t row, std::size_t col, std::size_t run) const;  // nullptr: absent
  const Bench* baseline(std::size_t row, std::size_t run) const {
    return has_baseline ? at(row, 0, run) : nullptr;
  }
  std::size_t column_index(const std::string& column) const;  // columns.size() when absent
  std::string title() const;  // "SmallGemm fp16 cublas", "MultiGpu PeerCopy"
  // A column as tables head it: without the subfamily it repeats ("peer_on" in PeerCopy).
  std::string label(std::size_t col) const;
  // The row's value of an arg key ("" when the row does not have it).
  std::string arg(std::size_t row, const std::string& key) const;
};

std::vector<Group> build_groups(const std::vector<const RunData*>& runs);
std::vector<Group> build_groups(const std::vector<RunData>& runs);

// "n:512/k:10".
std::string args_text(const Args& args);

// Orders arg lists by key, then by value: numerically when both values are numbers.
bool args_less(const Args& a, const Args& b);

// Numeric value of an arg ("4096", "0.5"); NaN when it is not a number.
double arg_number(const std::string& value);

}  // namespace sync_summary
