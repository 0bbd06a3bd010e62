#include "cli.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>

#include "benchmarks.hpp"
#include "charts.hpp"
#include "cli_help.hpp"
#include "compare.hpp"
#include "dtypes.hpp"
#include "errors.hpp"
#include "format_number.hpp"
#include "gb_json.hpp"
#include "merge.hpp"
#include "render.hpp"
#include "report.hpp"
#include "run_info.hpp"
#include "salvage.hpp"
#include "timeline_svg.hpp"

namespace sync_summary {
namespace {

struct Options {
  std::string command;
  bool help = false;
  Format format = Format::console;
  std::string svg_dir;
  std::string filter;
  bool has_filter = false;
  std::string metric = std::string(kRealTime);
  std::vector<std::string> labels;
  bool metric_given = false;
  CompareOptions compare;  // compare's flags beyond --metric
  std::vector<std::string> files;
  std::string output;     // merge, salvage and timeline --output
  std::size_t steps = 3;  // timeline --steps
};

const std::set<std::string>& flags_of(const std::string& command) {
  static const std::set<std::string> report = {"format", "svg", "filter", "metric", "labels"};
  static const std::set<std::string> compare = {
      "format", "filter",  "threshold",     "machine-threshold", "alpha",       "metric",
      "gate",   "noise-k", "min-effect-us", "max-noise",         "host-adjust", "wait-adjust"};
  static const std::set<std::string> merge = {"output", "filter"};
  static const std::set<std::string> timeline = {"output", "filter", "steps"};
  static const std::set<std::string> salvage = {"output"};
  if (command == "merge") return merge;
  if (command == "salvage") return salvage;
  if (command == "timeline") return timeline;
  return command == "compare" ? compare : report;
}

[[noreturn]] void usage(const std::string& command, const std::string& what) {
  throw UsageError(command + ": " + what + " (see 'sync_summary " + command + " --help')");
}

double number_flag(const std::string& command, const std::string& name, const std::string& v) {
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !std::isfinite(d))
    usage(command, "--" + name + " needs a number, got '" + v + "'");
  return d;
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto pos = s.find(',', start);
    parts.push_back(s.substr(start, pos - start));
    if (pos == std::string::npos) break;
    start = pos + 1;
  }
  return parts;
}

void set_flag(Options& o, const std::string& name, const std::string& value) {
  const std::string& c = o.command;
  if (name == "format") {
    if (value == "console")
      o.format = Format::console;
    else if (value == "markdown")
      o.format = Format::markdown;
    else if (value == "csv")
      o.format = Format::csv;
    else
      usage(c, "--format must be console, markdown or csv, got '" + value + "'");
  } else if (name == "svg") {
    if (value.empty()) usage(c, "--svg needs a directory");
    o.svg_dir = value;
  } else if (name == "filter") {
    o.filter = value;
    o.has_filter = true;
  } else if (name == "metric") {
    if (value.empty()) usage(c, "--metric needs a name");
    o.metric = value;
    o.metric_given = true;
  } else if (name == "labels") {
    o.labels = split_commas(value);
  } else if (name == "threshold") {
    o.compare.threshold_pct = number_flag(c, name, value);
    if (o.compare.threshold_pct < 0) usage(c, "--threshold must not be negative");
  } else if (name == "machine-threshold") {
    o.compare.machine_threshold_pct = number_flag(c, name, value);
    if (o.compare.machine_threshold_pct < 0) usage(c, "--machine-threshold must not be negative");
  } else if (name == "gate") {
    if (value != "reproducible" && value != "all") usage(c, "--gate is reproducible or all");
    o.compare.gate = value == "all" ? Gate::all : Gate::reproducible;
  } else if (name == "noise-k") {
    o.compare.noise_k = number_flag(c, name, value);
    if (o.compare.noise_k < 0) usage(c, "--noise-k must not be negative");
  } else if (name == "min-effect-us") {
    o.compare.min_effect_us = number_flag(c, name, value);
    if (o.compare.min_effect_us < 0) usage(c, "--min-effect-us must not be negative");
  } else if (name == "max-noise") {
    o.compare.max_noise_pct = number_flag(c, name, value);
    if (!(o.compare.max_noise_pct > 0)) usage(c, "--max-noise must be a positive percentage");
  } else if (name == "host-adjust") {
    if (value != "on" && value != "off") usage(c, "--host-adjust is on or off");
    o.compare.host_adjust = value == "on";
  } else if (name == "wait-adjust") {
    if (value != "on" && value != "off") usage(c, "--wait-adjust is on or off");
    o.compare.wait_adjust = value == "on";
  } else if (name == "output") {
    if (value.empty()) usage(c, "--output needs a file name");
    // "-" is standard input where a run is read; as an output it would be a file named "-".
    if (value == "-") usage(c, "--output needs a file name ('-' is standard input, for RUN.json)");
    o.output = value;
  } else if (name == "steps") {
    const double n = number_flag(c, name, value);
    if (!(n >= 1 && n <= 1e6 && n == std::floor(n)))
      usage(c, "--steps needs a whole number of steps from 1, got '" + value + "'");
    o.steps = static_cast<std::size_t>(n);
  } else if (name == "alpha") {
    o.compare.alpha = number_flag(c, name, value);
    if (!(o.compare.alpha > 0 && o.compare.alpha < 1)) usage(c, "--alpha must be between 0 and 1");
  }
}

Options parse_args(const std::vector<std::string>& args) {
  Options o;
  if (args.empty()) throw UsageError("no command (see 'sync_summary --help')");
  o.command = args[0];
  const auto known = [](const std::string& c) {
    return c == "report" || c == "dtypes" || c == "compare" || c == "merge" || c == "timeline" ||
           c == "salvage";
  };
  if (o.command == "--help" || o.command == "-h" || o.command == "help") {
    o.help = true;
    o.command = args.size() > 1 ? args[1] : "";
    // Help on a command that does not exist is the unknown command's error, not the overview.
    if (!o.command.empty() && !known(o.command))
      throw UsageError("unknown command '" + o.command + "' (see 'sync_summary --help')");
    return o;
  }
  if (!known(o.command))
    throw UsageError("unknown command '" + o.command + "' (see 'sync_summary --help')");
  bool only_files = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (only_files || a == "-" || a.rfind('-', 0) != 0) {
      o.files.push_back(a);
      continue;
    }
    if (a == "--") {
      only_files = true;
      continue;
    }
    if (a == "--help" || a == "-h") {
      o.help = true;
      continue;
    }
    if (a.rfind("--", 0) != 0) usage(o.command, "unknown flag '" + a + "'");
    const auto eq = a.find('=');
    const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    if (!flags_of(o.command).count(name)) usage(o.command, "unknown flag '--" + name + "'");
    std::string value;
    if (eq != std::string::npos) {
      value = a.substr(eq + 1);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      usage(o.command, "--" + name + " needs a value");
    }
    set_flag(o, name, value);
  }
  if (o.help) return o;
  if (o.command == "timeline" && o.files.size() != 1)
    usage(o.command, "needs exactly one TIMELINE.json");
  if (o.command == "timeline" && o.output.empty()) usage(o.command, "needs --output=FILE.svg");
  if (o.command == "salvage" && o.files.size() != 1) usage(o.command, "needs exactly one IN.json");
  if (o.command == "salvage" && o.output.empty()) usage(o.command, "needs --output=OUT.json");
  if (o.command == "compare" && o.files.size() != 2)
    usage(o.command, "needs exactly two files, BASE.json and NEW.json");
  if (o.files.empty()) usage(o.command, "needs at least one RUN.json");
  if (o.command == "merge" && o.output.empty()) usage(o.command, "needs --output=MERGED.json");
  if (!o.labels.empty() && o.labels.size() != o.files.size())
    usage(o.command, "--labels needs one label per file");
  // A label names its run in every table: an empty one or one given twice would not.
  for (std::size_t i = 0; i < o.labels.size(); ++i) {
    if (o.labels[i].empty()) usage(o.command, "--labels has an empty label");
    if (std::find(o.labels.begin(), o.labels.begin() + static_cast<std::ptrdiff_t>(i),
                  o.labels[i]) != o.labels.begin() + static_cast<std::ptrdiff_t>(i))
      usage(o.command, "--labels names two runs '" + o.labels[i] + "'");
  }
  return o;
}

std::regex filter_regex(const Options& o) {
  try {
    return std::regex(o.filter, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    usage(o.command, "--filter is not a valid regular expression: " + std::string(e.what()));
  }
}

bool has_metric(const std::vector<RunData>& runs, const std::string& metric) {
  for (const RunData& d : runs)
    for (const Bench& b : d.benches)
      if (b.has_metric(metric)) return true;
  return false;
}

std::vector<RunData> load_all(const Options& o, std::ostream& err) {
  const std::regex filter = filter_regex(o);
  std::vector<RunData> runs;
  std::size_t kept = 0;
  for (const auto& f : o.files) {
    runs.push_back(digest(load_run(f)));
    // Said, not hidden: a field that is no number is no counter (a counter written as a string).
    if (const Run& r = runs.back().run; r.ignored_fields > 0)
      err << "sync_summary: note: " << printable(f) << ": ignored " << r.ignored_fields
          << " non-numeric field" << (r.ignored_fields == 1 ? "" : "s") << " (e.g. '"
          << printable(r.ignored_example) << "'): not counters\n";
    if (o.has_filter) apply_filter(runs.back(), filter);
    kept += runs.back().benches.size();
  }
  if (kept == 0) throw InputError("no benchmark matches --filter '" + o.filter + "'");
  assign_labels(runs, o.labels);
  return runs;
}

// timeline: the matching benchmarks' first steps drawn into one SVG file.
int run_timeline(const Options& o, std::ostream& err) {
  const Timeline timeline = load_timeline(o.files[0]);
  if (timeline.benches.empty()) throw InputError(o.files[0] + ": no benchmarks in the timeline");
  const std::regex filter = filter_regex(o);
  std::vector<const TimelineBench*> drawn;
  for (const TimelineBench& b : timeline.benches)
    if (std::regex_search(b.name, filter)) drawn.push_back(&b);
  if (drawn.empty()) throw InputError("no benchmark matches --filter '" + o.filter + "'");
  if (drawn.size() > kMaxTimelineBenches)
    throw UsageError("timeline: " + std::to_string(drawn.size()) + " benchmarks to draw, at most " +
                     std::to_string(kMaxTimelineBenches) +
                     " fit in one SVG: choose some with --filter=REGEX");
  std::ofstream file(o.output, std::ios::binary);
  file << render_timeline_svg(drawn, o.steps, timeline.gpu_name);
  file.close();
  if (!file) throw InputError(o.output + ": cannot write file");
  err << "sync_summary: wrote the timeline of " << drawn.size() << " benchmark"
      << (drawn.size() == 1 ? "" : "s") << " to " << o.output << "\n";
  return 0;
}

int run_command(const Options& o, std::ostream& out, std::ostream& err) {
  if (o.command == "timeline") return run_timeline(o, err);
  if (o.command == "merge") {
    const std::regex filter = filter_regex(o);
    const MergeSummary m = merge_runs(o.files, o.output, o.has_filter ? &filter : nullptr);
    err << "sync_summary: merged " << o.files.size() << " runs into " << o.output << " ("
        << m.repetitions << " repetitions a benchmark, "
        << (m.gpus == 0 ? std::string("no GPU named")
                        : "from " + std::to_string(m.gpus) + (m.gpus == 1 ? " GPU" : " GPUs"))
        << ")\n";
    return 0;
  }
  if (o.command == "salvage") {
    Salvaged s;
    try {
      s = salvage_file(o.files[0], o.output);
    } catch (const CompleteRun& e) {  // nothing to mend: its own status, nothing written
      err << "sync_summary: " << printable(e.what()) << "\n";
      return 3;
    }
    err << "sync_summary: salvage: kept " << s.kept << " benchmark" << (s.kept == 1 ? "" : "s")
        << " of a run cut short after '" << printable(s.last_name) << "'; "
        << (s.dropped_partial ? "dropped a partial entry" : "no partial entry to drop")
        << " (wrote " << o.output << ")\n";
    return 0;
  }
  std::vector<RunData> runs = load_all(o, err);
  if (o.metric_given && !has_metric(runs, o.metric))
    throw InputError("no benchmark has the metric '" + o.metric +
                     "' (real_time, cpu_time, or a counter of the runs)");
  if (o.command == "compare") {
    CompareOptions co = o.compare;
    co.metric = o.metric;
    co.metric_given = o.metric_given;
    const CompareResult res = compare_runs(runs[0], runs[1], co);
    for (const auto& w : res.context_warnings)
      err << "sync_summary: warning: runs differ in " << printable(w) << "\n";
    if (const std::string w = host_warning(res.host); !w.empty())
      err << "sync_summary: warning: " << printable(w) << "\n";
    if (const std::string w = host_paced_warning(res); !w.empty())
      err << "sync_summary: warning: " << printable(w) << "\n";
    render(compare_document(res, runs[0], runs[1], co), o.format, out);
    // Every compared benchmark failed in NEW: no row was compared; a broken run (no GPU, a crash
    // in common code) is an error to look at, not a measurement.
    if (!res.rows.empty() && res.newly_failed == res.rows.size()) {
      err << "sync_summary: compare: every benchmark failed in NEW (" << res.newly_failed
          << " newly failing): nothing could be compared\n";
      return 2;
    }
    // The gate never passes on nothing; two runs with no benchmark in common are a mismatch,
    // not a regression.
    if (res.rows.empty()) {
      err << "sync_summary: compare: no benchmark could be compared (no names in common, or "
             "every one failed or lacks the metric)\n";
      return 2;
    }
    if (res.single_repetition)
      err << "sync_summary: warning: a side has fewer than two repetitions of a benchmark: no "
             "U test runs, its noise is the spread of its own rounds (paired) or unknown, and "
             "the threshold decides; merge K processes (sync_summary merge) for a gate that "
             "knows its noise\n";
    if (res.regressions > 0) return 1;
    if (res.gated == 0) {
      err << "sync_summary: compare: no row is gated (every compared row is host-bound or of "
             "unknown bound); --gate=all gates them all\n";
      return 2;
    }
    return 0;
  }
  ReportOptions ro;
  ro.metric = o.metric;
  ro.tables = o.format != Format::csv;  // build only what the format writes
  ro.tidy = o.format == Format::csv;
  const Document doc = o.command == "dtypes" ? build_dtypes(runs, ro) : build_report(runs, ro);
  // The charts first: a --svg folder that cannot be written fails before any report is printed.
  std::vector<std::string> charts;
  if (!o.svg_dir.empty()) charts = write_charts(runs, o.metric, o.svg_dir);
  render(doc, o.format, out);
  if (!o.svg_dir.empty())
    err << "sync_summary: wrote " << charts.size() << " SVG chart"
        << (charts.size() == 1 ? "" : "s") << " to " << o.svg_dir << "\n";
  return 0;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    const Options o = parse_args(args);
    if (o.help) {
      out << help_text(o.command);
      return 0;
    }
    return run_command(o, out, err);
  } catch (const UsageError& e) {
    err << "sync_summary: " << printable(e.what()) << "\n";
  } catch (const InputError& e) {  // may quote a name or a value from the file
    err << "sync_summary: " << printable(e.what()) << "\n";
  } catch (const std::bad_alloc&) {
    err << "sync_summary: out of memory\n";
  } catch (const std::exception& e) {
    err << "sync_summary: " << printable(e.what()) << "\n";
  }
  return 2;
}

}  // namespace sync_summary
