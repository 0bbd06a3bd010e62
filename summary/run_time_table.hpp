#pragma once
// Where a run's wall time went: sync_bench's wall_s counter (each benchmark's whole wall time,
// set-up, warm-up, batch sizing and the untimed passes included) summed by family, for a sweep
// that must stay within its time budget, and compare's line on two runs' walls.

#include <string>
#include <string_view>
#include <vector>

#include "benchmarks.hpp"
#include "document.hpp"

namespace sync_summary {

inline constexpr std::string_view kWallCounter = "wall_s";

// One row per family of each run that carries wall_s, the most expensive first, then the run's
// total; no rows when no run carries it (a JSON from before the counter).
Table run_time_table(const std::vector<RunData>& runs);

// compare's line on the two runs' walls over the benchmarks both carry wall_s for (the median of
// each one's repetitions), e.g. "wall time (wall_s; shown, not gated): BASE 119.7 s, NEW 124.2 s
// (+3.8%) over the 1128 benchmarks both ran"; "" when they share none. Not gated: it is the host's
// time, which moves 10-40% between processes.
std::string wall_comparison(const RunData& base, const RunData& next);

}  // namespace sync_summary
