#include "charts.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>

#include "errors.hpp"
#include "layout.hpp"
#include "report.hpp"
#include "run_info.hpp"

namespace sync_summary {
namespace {

std::string file_part(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

// A series label: the run (when there are several), then what tells the lines apart.
std::string series_label(const std::vector<RunData>& runs, std::size_t run,
                         const std::string& what) {
  return runs.size() > 1 ? runs[run].label + " " + what : what;
}

// x of a row: its first arg as a number (NaN when it is not one).
double row_x(const Group& g, std::size_t row) {
  return g.arg_keys.empty() ? kNaN : arg_number(g.arg(row, g.arg_keys[0]));
}

// Overhead % against Async by size, one line per dtype: the number the report's +% prints
// (overhead_of: paired where sync_bench measured it).
void add_overhead_charts(const std::vector<Group>& groups, const std::vector<RunData>& runs,
                         const std::string& metric,
                         std::vector<std::pair<std::string, Chart>>& out) {
  std::vector<std::string> keys;  // family/backend/column, in first-seen order
  std::vector<Chart> charts;
  std::vector<int> next_color;  // per chart: one color per dtype, one dash pattern per run
  for (const Group& g : groups) {
    if (!g.has_baseline || g.arg_keys.empty()) continue;
    for (std::size_t c = 1; c < g.columns.size(); ++c) {
      const std::string key =
          g.family + (g.backend.empty() ? "" : "-" + g.backend) + "-" + g.columns[c];
      auto it = std::find(keys.begin(), keys.end(), key);
      if (it == keys.end()) {
        keys.push_back(key);
        Chart chart;
        chart.title = g.family + (g.backend.empty() ? "" : " " + g.backend) + ": " + g.columns[c] +
                      " overhead against Async (" + metric + ")";
        chart.x_label = g.arg_keys[0];
        chart.y_label = "overhead (%)";
        charts.push_back(chart);
        next_color.push_back(0);
        it = keys.end() - 1;
      }
      const auto index = static_cast<std::size_t>(it - keys.begin());
      Chart& chart = charts[index];
      const int color = next_color[index]++;
      for (std::size_t run = 0; run < g.runs; ++run) {
        Series s;
        s.label = series_label(runs, run, g.dtype.empty() ? "-" : g.dtype);
        s.color = color;
        s.dash = static_cast<int>(run);
        for (std::size_t r = 0; r < g.rows.size(); ++r) {
          const Bench* b = g.at(r, c, run);
          const Bench* base = g.baseline(r, run);
          if (!b || !base) continue;
          const Overhead o =
              overhead_of(b, b->summary(metric), base->summary(metric).center, metric);
          if (std::isfinite(o.fraction)) s.points.emplace_back(row_x(g, r), o.fraction * 100.0);
        }
        if (!s.points.empty()) chart.series.push_back(std::move(s));
      }
    }
  }
  for (std::size_t i = 0; i < charts.size(); ++i) {
    if (!charts[i].series.empty())
      out.emplace_back("overhead-" + file_part(keys[i]) + ".svg", std::move(charts[i]));
  }
}

void add_bandwidth_charts(const std::vector<Group>& groups, const std::vector<RunData>& runs,
                          std::vector<std::pair<std::string, Chart>>& out) {
  for (const Group& g : groups) {
    if (!g.copy || g.arg_keys.empty()) continue;
    Chart chart;
    chart.title = g.title() + ": bandwidth";
    chart.x_label = g.arg_keys[0];
    chart.y_label = "GB/s";
    for (std::size_t run = 0; run < g.runs; ++run) {
      for (std::size_t c = 0; c < g.columns.size(); ++c) {
        Series s;
        s.label = series_label(runs, run, g.columns[c]);
        s.color = static_cast<int>(c);
        s.dash = static_cast<int>(run);
        for (std::size_t r = 0; r < g.rows.size(); ++r) {
          const Bench* b = g.at(r, c, run);
          if (b && b->has_metric(kBytesPerSecond))
            s.points.emplace_back(row_x(g, r), b->summary(kBytesPerSecond).center * 1e-9);
        }
        if (!s.points.empty()) chart.series.push_back(std::move(s));
      }
    }
    if (!chart.series.empty())
      out.emplace_back("bandwidth-" + file_part(g.title()) + ".svg", std::move(chart));
  }
}

}  // namespace

std::vector<std::pair<std::string, Chart>> build_charts(const std::vector<RunData>& runs,
                                                        const std::string& metric) {
  const std::vector<Group> groups = build_groups(runs);
  std::vector<std::pair<std::string, Chart>> out;
  add_overhead_charts(groups, runs, metric, out);
  add_bandwidth_charts(groups, runs, out);
  // file_part folds every other character to '_', so two groups can fold to one name (a.b and
  // a-b): the second becomes NAME-2.svg (file_part never writes '-', so no real name is that).
  std::map<std::string, int> uses;
  for (auto& [name, chart] : out)
    if (const int n = ++uses[name]; n > 1)
      name.insert(name.size() - std::string_view(".svg").size(), "-" + std::to_string(n));
  return out;
}

std::vector<std::string> write_charts(const std::vector<RunData>& runs, const std::string& metric,
                                      const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(dir + ": cannot create directory: " + ec.message());
  std::vector<std::string> written;
  for (const auto& [name, chart] : build_charts(runs, metric)) {
    const std::string path = (std::filesystem::path(dir) / name).string();
    std::ofstream out(path, std::ios::binary);
    out << render_svg(chart);
    if (!out) throw InputError(path + ": cannot write file");
    written.push_back(path);
  }
  return written;
}

}  // namespace sync_summary
