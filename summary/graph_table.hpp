#pragma once
// Graph families (GraphReplay): patterns measured against Eager (the same ops launched one by
// one) with the same variants. Per size, each pattern's speed-up = Eager time / its time; when the
// group also has Capture (making the graph: capture + instantiate, bench/graph_replay.cpp), the
// break-even = Capture / (Eager - time), the replays after which the graph has paid for itself.
// Under the table, where the speed-up crosses 1 along the size arg (k).

#include <string>
#include <string_view>
#include <vector>

#include "benchmarks.hpp"
#include "document.hpp"
#include "layout.hpp"

namespace sync_summary {

inline constexpr std::string_view kEagerPattern = "Eager";
inline constexpr std::string_view kCapturePattern = "Capture";

// One table per variant set that has an Eager column; none for other groups.
std::vector<Table> graph_tables(const Group& g, const std::vector<RunData>& runs,
                                const std::string& metric);

// Whether every column of the group is in one of its graph tables.
bool all_graph_columns(const Group& g);

}  // namespace sync_summary
