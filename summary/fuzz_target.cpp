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

namespace sync_summary {

int fuzz_one_input(const std::string& text) {
  std::vector<RunData> runs;
  try {
    runs.push_back(digest(parse_run(text, "fuzz.json")));
  } catch (const InputError&) {
    return 2;
  }
  runs[0].label = "a";
  runs.push_back(runs[0]);
  runs[1].label = "b";
  std::ostringstream sink;
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
