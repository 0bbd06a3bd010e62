#include "fuzz_target.hpp"

#include <regex>
#include <sstream>
#include <stdexcept>

#include "charts.hpp"
#include "compare.hpp"
#include "dtypes.hpp"
#include "errors.hpp"
#include "gb_json.hpp"
#include "merge.hpp"
#include "render.hpp"
#include "report.hpp"
#include "salvage.hpp"
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

// What merge and salvage write must be a run that every command reads: a refusal of it is a bug,
// thrown past the callers' InputError handlers (a crash for libFuzzer, a failure for the tests).
void must_read(const std::string& written, const char* what, std::ostream& sink) {
  RunData d;
  try {
    d = digest(parse_run(written, what));
  } catch (const InputError& e) {
    throw std::logic_error(std::string(what) + " wrote a run that is refused: " + e.what());
  }
  render(build_report({d}, ReportOptions{}), Format::csv, sink);
}

// salvage: a run cut short (the input, and the input with its last quarter cut off).
void fuzz_salvage(const std::string& text, std::ostream& sink) {
  for (const std::size_t cut : {text.size(), text.size() - text.size() / 4}) {
    Salvaged s;
    try {
      s = salvage_text(std::string_view(text).substr(0, cut), "fuzz.json");
    } catch (const InputError&) {
      continue;
    }
    must_read(s.text, "salvage", sink);
  }
}

// merge: the input with itself (two processes), all of it and through a filter.
void fuzz_merge(const std::string& text, const std::regex& filter, std::ostream& sink) {
  for (const std::regex* f : {static_cast<const std::regex*>(nullptr), &filter}) {
    std::ostringstream merged;
    try {
      merge_texts({{"a.json", text}, {"b.json", text}}, merged, f);
    } catch (const InputError&) {
      continue;
    }
    must_read(merged.str(), "merge", sink);
  }
}

}  // namespace

int fuzz_one_input(const std::string& text) {
  // --filter: a pattern that keeps some of sync_bench's names and drops others.
  static const std::regex filter("Sync|/n:[0-9]*2|^A/", std::regex::ECMAScript);
  std::ostringstream sink;
  fuzz_timeline(text, sink);
  fuzz_salvage(text, sink);
  fuzz_merge(text, filter, sink);
  std::vector<RunData> runs;
  try {
    runs.push_back(digest(parse_run(text, "fuzz.json")));
  } catch (const InputError&) {
    return 2;
  }
  runs[0].label = "a";
  runs.push_back(runs[0]);
  runs[1].label = "b";
  {
    std::vector<RunData> filtered = runs;
    for (RunData& d : filtered) apply_filter(d, filter);
    for (Format f : {Format::console, Format::csv})
      render(build_report(filtered, ReportOptions{}), f, sink);
    for (const auto& chart : build_charts(filtered, std::string(kRealTime)))
      sink << render_svg(chart.second);
  }
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
