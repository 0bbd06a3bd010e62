#pragma once
// Where a run's wall time went: sync_bench's wall_s counter (each benchmark's whole wall time,
// set-up, warm-up, batch sizing and the untimed passes included) summed by family, for a sweep
// that must stay within its time budget.

#include <string_view>
#include <vector>

#include "benchmarks.hpp"
#include "document.hpp"

namespace sync_summary {

inline constexpr std::string_view kWallCounter = "wall_s";

// One row per family of each run that carries wall_s, the most expensive first, then the run's
// total; no rows when no run carries it (a JSON from before the counter).
Table run_time_table(const std::vector<RunData>& runs);

}  // namespace sync_summary
