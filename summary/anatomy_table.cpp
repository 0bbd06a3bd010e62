#include "anatomy_table.hpp"

#include <cmath>

#include "format_number.hpp"

namespace sync_summary {
namespace {

struct Column {
  const char* header;
  std::string_view metric;
};

// The step, then the anatomy pass's step split two ways: GPU (active + idle = anatomy) and host
// (API + blocked + other = the host's span per step).
constexpr Column kColumns[] = {
    {"step (us)", kRealTime},
    {"anatomy (us)", "anatomy_step_us"},
    {"GPU active", "gpu_active_us"},
    {"GPU idle", "gpu_idle_us"},
    {"launch lat.", "launch_latency_us"},
    {"host API", "host_api_us"},
    {"host blocked", "host_blocked_us"},
    {"host other", "host_other_us"},
};

}  // namespace

const char* const kAnatomyHowTo =
    "step anatomy: from a separate traced pass (CUPTI), us per step: GPU active + idle = the "
    "anatomy step; host API + blocked + other = the host's time per step; launch lat.: from the "
    "API call's start to its GPU work's start, mean per GPU activity; bound: gpu when the GPU is "
    "active >= 80% of the step, else sync when the host is blocked in calls for at least a fifth "
    "of the step, else host; the traced pass runs longer than the timed step on host-bound steps "
    "(CUPTI records every call)";

std::string bound_text(double code) {
  if (std::isnan(code)) return "-";
  if (code == 0) return "host";
  if (code == 1) return "gpu";
  if (code == 2) return "sync";
  return "mixed";
}

Table anatomy_table(const Group& g, std::size_t run) {
  Table t;
  t.title = g.title() + ": step anatomy (us per step)";
  t.header = g.arg_keys;
  t.align.assign(g.arg_keys.size(), Align::right);
  t.header.push_back("pattern");
  t.align.push_back(Align::left);
  for (const Column& c : kColumns) t.header.push_back(c.header);
  t.header.push_back("bound");
  for (const Group::Cell& cell : g.cells) {  // sorted by row, then column
    const Bench& b = *cell.bench;
    if (cell.run != run || !b.has_metric(kAnatomyMarker)) continue;
    std::vector<std::string> row;
    for (const auto& key : g.arg_keys) row.push_back(g.arg(cell.row, key));
    row.push_back(g.label(cell.col));
    for (const Column& c : kColumns) row.push_back(fmt_value(b.summary(c.metric).center));
    row.push_back(bound_text(b.summary("bound").center));
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace sync_summary
