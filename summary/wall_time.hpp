#pragma once
// sync_bench's wall_s counter (each benchmark's whole wall time: set-up, warm-up, batch sizing, the
// timed rounds and the untimed passes) read back: the report's table of where a run's time went,
// and compare's line on two runs' walls. For a sweep that must stay within its time budget.

#include <string>
#include <string_view>
#include <vector>

#include "benchmarks.hpp"
#include "document.hpp"

namespace sync_summary {

inline constexpr std::string_view kWallCounter = "wall_s";

// One row per family of each run that carries wall_s, the most expensive first, then the run's
// total: every repetition counted (a run merged from K processes took K walls). No rows when no
// run carries it (a JSON from before the counter).
Table run_time_table(const std::vector<RunData>& runs);

// compare's line on the two runs' walls, each benchmark's the median of its repetitions (a typical
// process), over the benchmarks both carry wall_s for; "" when they share none. Shown, not gated:
// it is the host's time, which moves 10-40% between processes.
std::string wall_comparison(const RunData& base, const RunData& next);

}  // namespace sync_summary
