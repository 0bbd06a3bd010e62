#include "svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "format_number.hpp"

namespace sync_summary {
namespace {

constexpr double kPlotWidth = 500, kHeight = 440;
constexpr double kLeft = 70, kTop = 40, kBottom = 60;  // margins; the right one fits the legend
constexpr const char* kDashes[] = {"", "7 4", "2 3", "9 3 2 3"};
constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                   "#9467bd", "#8c564b", "#e377c2", "#17becf"};

}  // namespace

std::string svg_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string svg_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A 1-2-5 step giving about five intervals over [lo, hi].
double nice_step(double lo, double hi) {
  const double raw = (hi - lo) / 5.0;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * mag >= raw) return m * mag;
  }
  return 10.0 * mag;
}

std::string render_svg(const Chart& chart) {
  std::set<double> xs;
  double y_lo = 0.0, y_hi = 0.0;  // y always shows 0
  for (const auto& s : chart.series) {
    for (const auto& [x, y] : s.points) {
      if (!std::isfinite(x) || !std::isfinite(y) || (chart.log_x && x <= 0)) continue;
      xs.insert(x);
      y_lo = std::min(y_lo, y);
      y_hi = std::max(y_hi, y);
    }
  }
  const auto fx = [&](double x) { return chart.log_x ? std::log10(x) : x; };
  double x_lo = xs.empty() ? 0.0 : fx(*xs.begin());
  double x_hi = xs.empty() ? 1.0 : fx(*xs.rbegin());
  if (x_hi - x_lo <= 0) {
    x_lo -= 0.5;
    x_hi += 0.5;
  }
  if (y_hi - y_lo <= 0) y_hi = y_lo + 1.0;
  const double step = nice_step(y_lo, y_hi);
  y_lo = std::floor(y_lo / step) * step;
  y_hi = std::ceil(y_hi / step) * step;

  std::size_t longest = 0;
  for (const auto& s : chart.series) longest = std::max(longest, s.label.size());
  const double pw = kPlotWidth, ph = kHeight - kTop - kBottom;
  const double kWidth = kLeft + pw + 50 + 7.0 * static_cast<double>(longest);
  const auto px = [&](double x) { return kLeft + (fx(x) - x_lo) / (x_hi - x_lo) * pw; };
  const auto py = [&](double y) { return kTop + (y_hi - y) / (y_hi - y_lo) * ph; };

  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
    << "\" viewBox=\"0 0 " << kWidth << " " << kHeight
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"" << svg_number(kWidth / 2)
    << "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">" << svg_escape(chart.title)
    << "</text>\n";
  // Grid and y ticks, counted in whole steps (the bounds are multiples of the step; a bound that
  // is not finite gets none).
  const bool finite = std::isfinite(y_lo) && std::isfinite(y_hi) && std::isfinite(step) && step > 0;
  const long ticks = finite ? std::lround(y_hi / step) - std::lround(y_lo / step) : -1;
  for (long i = 0; i <= ticks; ++i) {
    const double y = y_lo + static_cast<double>(i) * step;
    const double v = std::abs(y) < step / 1e6 ? 0.0 : y;
    o << "<line x1=\"" << svg_number(kLeft) << "\" y1=\"" << svg_number(py(v)) << "\" x2=\""
      << svg_number(kLeft + pw) << "\" y2=\"" << svg_number(py(v)) << "\" stroke=\""
      << (v == 0.0 ? "#888" : "#e5e5e5") << "\"/>\n";
    o << "<text x=\"" << svg_number(kLeft - 6) << "\" y=\"" << svg_number(py(v) + 4)
      << "\" text-anchor=\"end\">" << svg_escape(fmt_axis(v)) << "</text>\n";
  }
  // x ticks at the measured values.
  for (double x : xs) {
    o << "<line x1=\"" << svg_number(px(x)) << "\" y1=\"" << svg_number(kTop + ph) << "\" x2=\""
      << svg_number(px(x)) << "\" y2=\"" << svg_number(kTop + ph + 5) << "\" stroke=\"#444\"/>\n";
    o << "<text x=\"" << svg_number(px(x)) << "\" y=\"" << svg_number(kTop + ph + 18)
      << "\" text-anchor=\"middle\">" << svg_escape(fmt_axis(x)) << "</text>\n";
  }
  o << "<rect x=\"" << svg_number(kLeft) << "\" y=\"" << svg_number(kTop) << "\" width=\""
    << svg_number(pw) << "\" height=\"" << svg_number(ph) << "\" fill=\"none\" stroke=\"#444\"/>\n";
  o << "<text x=\"" << svg_number(kLeft + pw / 2) << "\" y=\"" << svg_number(kHeight - 18)
    << "\" text-anchor=\"middle\">" << svg_escape(chart.x_label)
    << (chart.log_x ? " (log scale)" : "") << "</text>\n";
  o << "<text transform=\"translate(18," << svg_number(kTop + ph / 2)
    << ") rotate(-90)\" text-anchor=\"middle\">" << svg_escape(chart.y_label) << "</text>\n";

  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    const Series& s = chart.series[i];
    const auto palette = static_cast<std::size_t>(s.color >= 0 ? s.color : static_cast<int>(i));
    const char* color = kColors[palette % (sizeof kColors / sizeof kColors[0])];
    const char* dash = kDashes[static_cast<std::size_t>(std::max(s.dash, 0)) %
                               (sizeof kDashes / sizeof kDashes[0])];
    const std::string dash_attr =
        *dash ? std::string(" stroke-dasharray=\"") + dash + "\"" : std::string();
    std::string pts;
    for (const auto& [x, y] : s.points) {
      if (!std::isfinite(x) || !std::isfinite(y) || (chart.log_x && x <= 0)) continue;
      pts += (pts.empty() ? "" : " ") + svg_number(px(x)) + "," + svg_number(py(y));
    }
    o << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\"" << dash_attr
      << " points=\"" << pts << "\"/>\n";
    for (const auto& [x, y] : s.points) {
      if (!std::isfinite(x) || !std::isfinite(y) || (chart.log_x && x <= 0)) continue;
      o << "<circle cx=\"" << svg_number(px(x)) << "\" cy=\"" << svg_number(py(y))
        << "\" r=\"3\" fill=\"" << color << "\"/>\n";
    }
    const double ly = kTop + 10 + 18.0 * static_cast<double>(i);
    o << "<line x1=\"" << svg_number(kLeft + pw + 14) << "\" y1=\"" << svg_number(ly) << "\" x2=\""
      << svg_number(kLeft + pw + 34) << "\" y2=\"" << svg_number(ly) << "\" stroke=\"" << color
      << "\" stroke-width=\"2\"" << dash_attr << "/>\n";
    o << "<text x=\"" << svg_number(kLeft + pw + 40) << "\" y=\"" << svg_number(ly + 4) << "\">"
      << svg_escape(s.label) << "</text>\n";
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace sync_summary
