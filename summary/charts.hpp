#pragma once
// The charts --svg=DIR writes: overhead % against Async vs size with one line per dtype (one
// chart per family, backend and pattern), and bandwidth vs size for copy families.

#include <string>
#include <utility>
#include <vector>

#include "benchmarks.hpp"
#include "svg_chart.hpp"

namespace sync_summary {

// (file name, chart) pairs; file names are made of letters, digits, '-', '_' and '.'.
std::vector<std::pair<std::string, Chart>> build_charts(const std::vector<RunData>& runs,
                                                        const std::string& metric);

// Writes every chart as DIR/NAME.svg (creating DIR); returns the paths written. Throws
// InputError when DIR cannot be written.
std::vector<std::string> write_charts(const std::vector<RunData>& runs, const std::string& metric,
                                      const std::string& dir);

}  // namespace sync_summary
