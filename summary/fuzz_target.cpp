#include "fuzz_target.hpp"

#include <sstream>

#include "charts.hpp"
#include "compare.hpp"
#include "dtypes.hpp"
#include "errors.hpp"
#include "gb_json.hpp"
#include "render.hpp"
#include "report.hpp"
#include "svg_chart.hpp"
#include "timeline_svg.hpp"

namespace sync_summary {

namespace {

// The timeline command's reading and drawing (most inputs are refused at once).
void fuzz_timeline(const std::string& text, std::ostream& sink) {
  try {
    const Timeline t = parse_timeline(text, "fuzz.json");
    std::vector<const TimelineBench*> drawn;
    for (const auto& b : t.benches)
      if (drawn.size() < kMaxTimelineBenches) drawn.push_back(&b);
    for (std::size_t steps : {1, 3}) sink << render_timeline_svg(drawn, steps, t.gpu_name);
  } catch (const InputError&) {
  }
}

}  // namespace

int fuzz_one_input(const std::string& text) {
  std::ostringstream sink;
  fuzz_timeline(text, sink);
  std::vector<RunData> runs;
  try {
    runs.push_back(digest(parse_run(text, "fuzz.json")));
  } catch (const InputError&) {
    return 2;
  }
  runs[0].label = "a";
  runs.push_back(runs[0]);
  runs[1].label = "b";
  for (Format f : {Format::console, Format::markdown, Format::csv}) {
    render(build_report({runs[0]}, ReportOptions{}), f, sink);
    render(build_report(runs, ReportOptions{}), f, sink);
    render(build_dtypes(runs, ReportOptions{}), f, sink);
  }
  for (const auto& chart : build_charts(runs, std::string(kRealTime)))
    sink << render_svg(chart.second);
  // compare refuses times that are not finite positive numbers (exit 2), as the CLI does.
  for (const Gate gate : {Gate::reproducible, Gate::all}) {
    CompareOptions o;
    o.gate = gate;
    try {
      const CompareResult res = compare_runs(runs[0], runs[1], o);
      for (Format f : {Format::console, Format::markdown, Format::csv})
        render(compare_document(res, runs[0], runs[1], o), f, sink);
    } catch (const InputError&) {
      return 2;
    }
  }
  return 0;
}

}  // namespace sync_summary
