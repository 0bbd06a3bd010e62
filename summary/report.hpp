#pragma once
// `sync_summary report`: per workload, dtype and backend a table of time per step against the
// Async baseline; bandwidth tables for copies; speed-up and break-even for graph families
// (graph_table.hpp); the benchmarks that failed or were skipped. One run, or several side by side.

#include <string>
#include <vector>

#include "benchmarks.hpp"
#include "document.hpp"
#include "layout.hpp"

namespace sync_summary {

struct ReportOptions {
  std::string metric = std::string(kRealTime);
  bool tables = true;  // the blocks console and markdown write
  bool tidy = true;    // the table csv writes
};

Document build_report(const std::vector<RunData>& runs, const ReportOptions& options);

// The parts, for the report and for the other commands.
Table overhead_table(const Group& g, const std::vector<RunData>& runs, const std::string& metric);
Table bandwidth_table(const Group& g, const std::vector<RunData>& runs);
Table problems_table(const std::vector<RunData>& runs);
Table report_tidy(const std::vector<RunData>& runs, const std::string& metric);

// A pattern's cost over Async: its paired overhead where sync_bench measured one (against Async
// in the same process, round by round: what reproduces), else its time minus the Async row's.
// The fraction is of the paired baseline, or of the Async row. The report, its csv and the dtypes
// tables all use it.
struct Overhead {
  double us = kNaN;
  double fraction = kNaN;
};
Overhead overhead_of(const Bench* b, const Summary& s, double async_center,
                     const std::string& metric);

// Text of one cell: the summary, or why there is none ("error", "skipped").
std::string cell_text(const Bench* b, const Summary& s);

}  // namespace sync_summary
