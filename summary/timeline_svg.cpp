#include "timeline_svg.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "format_number.hpp"
#include "svg_chart.hpp"

namespace sync_summary {
namespace {

constexpr double kLeft = 50, kPlotWidth = 1000, kRight = 20;
constexpr double kTop = 64;           // below the title and the legend
constexpr double kLane = 20;          // height of a lane
constexpr double kBlock = 84;         // a benchmark: title, host lane, GPU lane, space
constexpr double kCharWidth = 6;      // of the 10 px labels inside bars, about
constexpr std::size_t kMaxDepth = 2;  // nested host calls drawn thinner, down to this depth

constexpr const char* kApiColor = "#1f77b4";
constexpr const char* kBlockingColor = "#d62728";
constexpr const char* kNestedApiColor = "#9ecae1";  // calls inside calls, lighter
constexpr const char* kNestedBlockingColor = "#f4a3a3";
constexpr const char* kKernelColor = "#2ca02c";
constexpr const char* kCopyColor = "#ff7f0e";
constexpr const char* kMemsetColor = "#7f7f7f";
constexpr const char* kOtherColor = "#9467bd";

const char* color_of(const TimelineEvent& e, std::size_t depth) {
  if (!e.gpu && depth > 0) return e.blocking ? kNestedBlockingColor : kNestedApiColor;
  if (!e.gpu) return e.blocking ? kBlockingColor : kApiColor;
  if (e.kind == "kernel") return kKernelColor;
  if (e.kind == "memcpy") return kCopyColor;
  if (e.kind == "memset") return kMemsetColor;
  return kOtherColor;
}

std::string text(const std::string& s) {
  return svg_escape(printable(s));
}

std::string tick_label(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// The drawn range of a benchmark: its first `steps` steps.
struct Range {
  double t0, t1;
};
Range range_of(const TimelineBench& b, std::size_t steps) {
  const double t0 = b.step_starts_us.front();
  const double t1 = steps < b.step_starts_us.size() ? b.step_starts_us[steps] : b.window_us;
  return {t0, t1 > t0 ? t1 : t0 + 1.0};
}

// The label that fits in a bar of width w: the name, cut short with "..", or nothing.
std::string fitting_label(const std::string& name, double w) {
  const auto fit = static_cast<std::size_t>(std::max(0.0, (w - 4) / kCharWidth));
  if (name.size() <= fit) return name;
  if (fit < 6) return "";
  std::size_t cut = fit - 2;
  while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
  return name.substr(0, cut) + "..";
}

void legend(std::ostringstream& o) {
  const std::pair<const char*, const char*> entries[] = {
      {kApiColor, "API call"}, {kBlockingColor, "blocking call"}, {kKernelColor, "kernel"},
      {kCopyColor, "copy"},    {kMemsetColor, "memset"},          {kOtherColor, "other GPU work"}};
  double x = kLeft;
  for (const auto& [color, label] : entries) {
    o << "<rect class=\"legend\" x=\"" << svg_number(x) << "\" y=\"34\" width=\"12\" height=\"12\" "
      << "fill=\"" << color << "\"/>\n<text x=\"" << svg_number(x + 16) << "\" y=\"44\">" << label
      << "</text>\n";
    x += 30 + 7.0 * static_cast<double>(std::char_traits<char>::length(label));
  }
  o << "<line x1=\"" << svg_number(x) << "\" y1=\"34\" x2=\"" << svg_number(x)
    << "\" y2=\"46\" stroke=\"#444\" stroke-dasharray=\"4 3\"/>\n<text x=\"" << svg_number(x + 6)
    << "\" y=\"44\">step start</text>\n";
}

// One event's bar, its name as a tooltip; its label (when it fits) goes to `labels`, written
// after every bar so that no bar covers one. Nested host calls (depth > 0: a driver call inside a
// runtime call) are thinner and lighter, and only their tooltip names them.
void event_bar(std::ostringstream& o, std::ostringstream& labels, const TimelineEvent& e, double x,
               double y, double w, std::size_t depth) {
  const double inset = 3.0 * static_cast<double>(std::min(depth, kMaxDepth));
  const double h = kLane - 2 * inset;
  y += inset;
  const std::string tip = e.name + " (" + (e.kind.empty() ? (e.gpu ? "gpu" : "host") : e.kind) +
                          ", " + fmt_value(e.end_us - e.start_us) + " us" +
                          (e.blocking ? ", blocking" : "") + ")";
  o << "<rect class=\"event\" x=\"" << svg_number(x) << "\" y=\"" << svg_number(y) << "\" width=\""
    << svg_number(w) << "\" height=\"" << svg_number(h) << "\" fill=\"" << color_of(e, depth)
    << "\"" << (e.gpu ? " fill-opacity=\"0.8\"" : "")
    << " stroke=\"white\" stroke-width=\"0.5\"><title>" << text(tip) << "</title></rect>\n";
  const std::string label = depth > 0 ? "" : fitting_label(printable(e.name), w);
  if (!label.empty())
    labels << "<text x=\"" << svg_number(x + 2) << "\" y=\"" << svg_number(y + h / 2 + 3.5)
           << "\" font-size=\"10\" fill=\"white\" pointer-events=\"none\">" << svg_escape(label)
           << "</text>\n";
}

void block(std::ostringstream& o, const TimelineBench& b, std::size_t steps, double y,
           double px_per_us) {
  const Range r = range_of(b, steps);
  const std::size_t drawn = std::min(steps, b.step_starts_us.size());
  const auto px = [&](double t) { return kLeft + (t - r.t0) * px_per_us; };
  const double host_y = y + 20, gpu_y = host_y + kLane + 6;
  o << "<text x=\"" << svg_number(kLeft) << "\" y=\"" << svg_number(y + 12)
    << "\" font-weight=\"bold\">" << text(b.name) << "</text>\n";
  o << "<text x=\"" << svg_number(kLeft + kPlotWidth) << "\" y=\"" << svg_number(y + 12)
    << "\" text-anchor=\"end\" fill=\"#555\">steps 1-" << drawn << " of " << b.step_starts_us.size()
    << " in " << fmt_value(r.t1 - r.t0) << " us</text>\n";
  for (const auto& [lane_y, name] : {std::pair{host_y, "host"}, std::pair{gpu_y, "GPU"}}) {
    o << "<rect class=\"lane\" x=\"" << svg_number(kLeft) << "\" y=\"" << svg_number(lane_y)
      << "\" width=\"" << svg_number((r.t1 - r.t0) * px_per_us) << "\" height=\"" << kLane
      << "\" fill=\"#f2f2f2\"/>\n<text x=\"" << svg_number(kLeft - 6) << "\" y=\""
      << svg_number(lane_y + 14) << "\" text-anchor=\"end\">" << name << "</text>\n";
  }
  // Events in start order, longest first, so that a host call's depth is the number of host
  // calls still open around it.
  std::vector<const TimelineEvent*> events;
  for (const TimelineEvent& e : b.events)
    if (e.start_us < r.t1 && e.end_us > r.t0) events.push_back(&e);
  std::stable_sort(events.begin(), events.end(), [](const auto* a, const auto* c) {
    return a->start_us != c->start_us ? a->start_us < c->start_us : a->end_us > c->end_us;
  });
  std::ostringstream labels;
  std::vector<double> open;  // ends of the host calls around the current one
  for (const TimelineEvent* e : events) {
    const double x0 = px(std::max(e->start_us, r.t0));
    const double w = std::max(0.5, px(std::min(e->end_us, r.t1)) - x0);
    if (e->gpu) {
      event_bar(o, labels, *e, x0, gpu_y, w, 0);
      continue;
    }
    while (!open.empty() && open.back() <= e->start_us) open.pop_back();
    event_bar(o, labels, *e, x0, host_y, w, open.size());
    open.push_back(e->end_us);
  }
  o << labels.str();
  for (std::size_t i = 0; i <= drawn && i < b.step_starts_us.size(); ++i) {
    const double x = px(b.step_starts_us[i]);
    o << "<line x1=\"" << svg_number(x) << "\" y1=\"" << svg_number(host_y - 3) << "\" x2=\""
      << svg_number(x) << "\" y2=\"" << svg_number(gpu_y + kLane + 3)
      << "\" stroke=\"#444\" stroke-dasharray=\"4 3\"/>\n";
  }
}

}  // namespace

std::string render_timeline_svg(const std::vector<const TimelineBench*>& benches, std::size_t steps,
                                const std::string& gpu_name) {
  double span = 0;  // the longest drawn range sets the scale of all
  for (const TimelineBench* b : benches) {
    const Range r = range_of(*b, steps);
    span = std::max(span, r.t1 - r.t0);
  }
  if (!(span > 0)) span = 1;
  const double px_per_us = kPlotWidth / span;
  const double axis_y = kTop + kBlock * static_cast<double>(benches.size());
  const double width = kLeft + kPlotWidth + kRight, height = axis_y + 50;

  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" viewBox=\"0 0 " << width << " " << height
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"" << svg_number(kLeft) << "\" y=\"20\" font-size=\"14\">Step timeline: the first "
    << steps << " step" << (steps == 1 ? "" : "s") << " of each benchmark's anatomy pass"
    << (gpu_name.empty() ? "" : " on " + text(gpu_name)) << " (one time scale)</text>\n";
  legend(o);
  for (std::size_t i = 0; i < benches.size(); ++i)
    block(o, *benches[i], steps, kTop + kBlock * static_cast<double>(i), px_per_us);

  const double tick = nice_step(0, span);
  o << "<line x1=\"" << svg_number(kLeft) << "\" y1=\"" << svg_number(axis_y) << "\" x2=\""
    << svg_number(kLeft + kPlotWidth) << "\" y2=\"" << svg_number(axis_y)
    << "\" stroke=\"#444\"/>\n";
  // About five ticks; at most 21 whatever the span (a denormal one gives a zero tick).
  for (int i = 0; i <= 20 && i * tick <= span * (1 + 1e-9); ++i) {
    const double x = kLeft + i * tick * px_per_us;
    o << "<line x1=\"" << svg_number(x) << "\" y1=\"" << svg_number(axis_y) << "\" x2=\""
      << svg_number(x) << "\" y2=\"" << svg_number(axis_y + 5) << "\" stroke=\"#444\"/>\n<text x=\""
      << svg_number(x) << "\" y=\"" << svg_number(axis_y + 18) << "\" text-anchor=\"middle\">"
      << tick_label(i * tick) << "</text>\n";
  }
  o << "<text x=\"" << svg_number(kLeft + kPlotWidth / 2) << "\" y=\"" << svg_number(axis_y + 38)
    << "\" text-anchor=\"middle\">time from the start of the first step (us)</text>\n";
  o << "</svg>\n";
  return o.str();
}

}  // namespace sync_summary
