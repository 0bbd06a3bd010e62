#pragma once
// A line chart written as a self-contained SVG document: log or linear x, linear y, a legend,
// one polyline with point markers per series. Deterministic text, so charts can be golden files.

#include <string>
#include <utility>
#include <vector>

namespace sync_summary {

struct Series {
  std::string label;
  std::vector<std::pair<double, double>> points;  // (x, y), x ascending
  int color = -1;  // palette index (-1: the series' position); same color = same dtype/variant
  int dash = 0;    // 0 solid, 1.. dashed patterns: one per run when runs are compared
};

struct Chart {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_x = true;
  std::vector<Series> series;
};

std::string render_svg(const Chart& chart);

// Helpers for any SVG sync_summary writes: a coordinate with one decimal; text made safe for
// element content and double-quoted attributes (& < > "); a 1-2-5 tick step giving about five
// intervals over [lo, hi] (hi > lo).
std::string svg_number(double v);
std::string svg_escape(const std::string& s);
double nice_step(double lo, double hi);

}  // namespace sync_summary
