// The report's csv: one row per benchmark and run, every number at full precision.

#include <algorithm>
#include <set>

#include "anatomy_table.hpp"
#include "format_number.hpp"
#include "report.hpp"

namespace sync_summary {
namespace {

std::string join(const std::vector<std::string>& v, char sep) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : std::string(1, sep)) + s;
  return out;
}

std::string status_text(Status s) {
  switch (s) {
    case Status::ok:
      return "ok";
    case Status::error:
      return "error";
    case Status::skipped:
      return "skipped";
  }
  return "?";
}

}  // namespace

Table report_tidy(const std::vector<RunData>& runs, const std::string& metric) {
  std::set<std::string> counters;
  bool anatomy = false;  // the bound counter also as text
  for (const auto& d : runs) {
    for (const auto& b : d.benches) {
      for (const auto& m : b.metrics)
        if (m.name != kRealTime && m.name != kCpuTime) counters.insert(m.name);
      anatomy = anatomy || b.has_metric(kAnatomyMarker);
    }
  }

  Table t;
  t.header = {"run",      "benchmark",    "family",       "pattern",    "variants",  "dtype",
              "backend",  "args",         "status",       "reason",     "time_unit", "repetitions",
              "metric",   "median",       "min",          "max",        "cv_pct",    "async_median",
              "overhead", "overhead_pct", "real_time_us", "cpu_time_us"};
  for (const auto& c : counters) t.header.push_back(c);
  if (anatomy) t.header.push_back("anatomy_bound");

  for (const auto& d : runs) {
    for (const Bench& b : d.benches) {
      const BenchName& n = b.name;
      const Summary s = b.summary(metric);
      const Bench* base = d.find(n.baseline_identity());
      const double base_value = base ? base->summary(metric).center : kNaN;
      const bool has_overhead = base && !n.is_baseline() && s.valid();
      const Overhead o = overhead_of(&b, s, base_value, metric);
      std::vector<std::string> row = {
          d.label,
          n.identity,
          n.family,
          n.pattern,
          join(n.variants, '/'),
          n.dtype,
          n.backend,
          n.args_text(),
          status_text(b.status),
          b.reason,
          "us",  // the unit of the row's times: every time is read into us
          std::to_string(s.n),
          metric,
          fmt_exact(s.center),
          fmt_exact(s.min),
          fmt_exact(s.max),
          fmt_exact(s.cv * 100.0),
          fmt_exact(base_value),
          has_overhead ? fmt_exact(o.us) : "",
          has_overhead ? fmt_exact(o.fraction * 100.0) : "",
          fmt_exact(b.summary(kRealTime).center),
          fmt_exact(b.summary(kCpuTime).center)};
      for (const auto& c : counters) row.push_back(fmt_exact(b.summary(c).center));
      if (anatomy)
        row.push_back(b.has_metric(kAnatomyMarker) ? bound_text(b.summary("bound").center) : "");
      t.rows.push_back(std::move(row));
    }
  }
  return t;
}

}  // namespace sync_summary
