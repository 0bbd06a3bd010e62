#include "merge.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "benchmarks.hpp"
#include "errors.hpp"
#include "gb_json.hpp"
#include "json_layout.hpp"
#include "json_sanitize.hpp"
#include "name_grammar.hpp"
#include "run_info.hpp"
#include "statistics.hpp"

namespace sync_summary {
namespace {

using Json = nlohmann::ordered_json;

// What must be the same in every merged run: the machine and how it waited. (The date, the load
// and the build's version string may differ.)
constexpr const char* kSameContext[] = {
    "gpu_name",       "gpu_cc",    "driver_version",  "runtime_version",  "nvml_driver_version",
    "host_wait_mode", "cpu_model", "sync_accounting", "multi_gpu_devices"};

// Fields of a row that are not measurements.
bool is_bookkeeping(const std::string& key) {
  return key == "family_index" || key == "per_family_instance_index" || key == "repetitions" ||
         key == "repetition_index" || key == "threads" || key == "iterations";
}

// Google Benchmark's JSON nests four deep (the context's caches); a value nested far deeper is not
// its output, and a DOM copy of 100,000 levels overflowed the stack.
constexpr std::size_t kMaxDepth = 32;

// The mapped inputs' pages are let go each time the rows read add up to this.
constexpr std::size_t kReleaseBytes = std::size_t{32} << 20;

// One value of a run's text (a row, the context) as a DOM: small, built when it is needed.
Json parse_value(std::string_view text) {
  if (has_non_finite_word(text)) return Json::parse(quote_non_finite(text));
  return Json::parse(text);
}

// A run: its text, its context, and where each of its rows lies. Read first as every command reads
// a run (types, names, times: check_run, digest's checks), so that merge refuses what report and
// compare refuse; its rows are not held as values.
struct RunText {
  std::string source;
  std::string_view text;
  Json document;  // {"context": ...} when the run has a context, else {}
  std::vector<Span> rows;
  const InputText* file = nullptr;
};

RunText read_run(const MergeInput& input) {
  const std::string& path = input.source;
  if (input.text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw InputError(path + ": empty file");
  check_run(parse_run(input.text, path));
  const Layout layout = scan_layout(input.text);
  if (layout.depth > kMaxDepth)
    throw InputError(path + ": values nested deeper than " + std::to_string(kMaxDepth) +
                     " levels: not Google Benchmark JSON");
  if (!layout.top_is_object || !layout.top_closed || !layout.has_benchmarks ||
      !layout.benchmarks_closed)
    throw InputError("merge: " + path + " is not a Google Benchmark JSON file");
  RunText run{path, input.text, Json::object(), layout.entries, input.file};
  if (layout.has_context) run.document["context"] = parse_value(layout.context.of(input.text));
  // Read again row by row as it is written: not kept resident while the next run is read.
  if (input.file) input.file->release_pages();
  return run;
}

std::string context_text(const Json& run, const char* key) {
  if (!run.contains("context") || !run["context"].contains(key)) return "";
  const Json& v = run["context"][key];
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// A number, or NaN for Google Benchmark's quoted non-finite words.
double number(const Json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string())
    if (auto d = non_finite_value(v.get<std::string>())) return *d;
  return kNaN;
}

bool failed(const Json& row) {
  return row.value("error_occurred", false) || row.value("skipped", false);
}

// Whether a run holds a measured row (an iteration that neither failed nor was skipped): runs that
// only failed may well be alike byte for byte, and carry no number to count twice.
bool holds_measurement(const RunText& run) {
  for (const Span& span : run.rows) {
    const Json row = parse_value(span.of(run.text));
    if (row.value("run_type", "iteration") == "iteration" && !failed(row)) return true;
  }
  return false;
}

Json aggregate_row(const Json& first, const std::string& name, const std::string& stat,
                   std::size_t n, const std::vector<std::string>& fields,
                   const std::map<std::string, std::vector<double>>& values) {
  Json a;
  a["name"] = name + "_" + stat;
  for (const char* key : {"family_index", "per_family_instance_index"})
    if (first.contains(key)) a[key] = first[key];
  a["run_name"] = name;
  a["run_type"] = "aggregate";
  a["repetitions"] = n;
  a["threads"] = first.value("threads", 1);
  a["aggregate_name"] = stat;
  a["aggregate_unit"] = stat == "cv" ? "percentage" : "time";
  a["iterations"] = n;
  for (const std::string& f : fields) {
    const Spread s = describe(values.at(f));
    const double v = stat == "mean"     ? s.mean
                     : stat == "median" ? s.median
                     : stat == "stddev" ? s.stddev
                                        : s.cv;
    a[f] = std::isfinite(v) ? Json(v) : Json("NaN");
    if (f == "cpu_time" && first.contains("time_unit")) a["time_unit"] = first["time_unit"];
  }
  // A row with a real_time and no cpu_time (Google Benchmark writes both, a file edited by hand
  // may not): its unit all the same, or every command refuses the aggregate.
  if (!a.contains("time_unit") && first.contains("time_unit") && a.contains("real_time"))
    a["time_unit"] = first["time_unit"];
  return a;
}

// A row of the output array: the value's lines indented as the array's elements are.
void write_row(std::ostream& out, const Json& row, bool first) {
  const std::string text = row.dump(2);
  out << (first ? "    " : ",\n    ");
  std::size_t from = 0;
  for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) {
    out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
    out << "    ";
  }
  out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

// Where a row is: its run and its bytes.
struct RowRef {
  std::size_t run = 0;
  Span span;
};

// A merge whose runs were checked: what is written, and from where. (clang-tidy 14 says its
// implicit move constructor may throw: std::map's is not noexcept; nothing here relies on it.)
struct Plan {  // NOLINT(bugprone-exception-escape)
  std::vector<RunText> runs;
  std::vector<std::string> order;                   // the benchmarks, in the first run's order
  std::map<std::string, std::vector<RowRef>> rows;  // each one's rows, run by run
  Json context;                                     // the merged run's
  std::vector<std::string> run_gpus;                // each run's gpu_uuid
};

// A measured row as its process wrote it, without what a merge rewrites or adds (its place among
// the repetitions, its names, its GPU): the same for one process however often it was merged.
std::string measured_text(Json row) {
  for (const char* key : {"name", "run_name", "run_type", "repetitions", "repetition_index",
                          "family_index", "per_family_instance_index", "gpu_uuid"})
    row.erase(key);
  return row.dump();
}

bool merged_before(const RunText& run) {
  return !context_text(run.document, "merged_runs").empty();
}

// A run merged before, given again beside a run it holds (a baseline rebuilt from itself and its
// runs) or beside another merged run that shares one: no two files are alike byte for byte, but a
// process is there twice, and it would count twice. A process is a run's k-th row of every
// benchmark; two processes whose rows are alike in every benchmark, to the last digit of every time
// and counter, are one. (One row alike is not enough: made-up runs with deterministic times, as
// the tests' fake sync_bench writes, may share a row when only a coarse CPU time differs.) Runs not
// merged before are told apart by the byte-for-byte check alone: made-up runs may repeat each
// other whole.
void refuse_repeated_process(const Plan& plan) {
  if (plan.runs.size() < 2 || std::none_of(plan.runs.begin(), plan.runs.end(), merged_before))
    return;
  // Each process's rows, benchmark by benchmark ("" for a failed one), by (run, k).
  std::map<std::pair<std::size_t, std::size_t>, std::string> processes;
  for (const std::string& name : plan.order) {
    std::map<std::size_t, std::size_t> kth;  // run -> rows of this benchmark seen in it
    for (const RowRef& ref : plan.rows.at(name)) {
      const RunText& run = plan.runs[ref.run];
      const Json row = parse_value(ref.span.of(run.text));
      std::string& rows = processes[{ref.run, kth[ref.run]++}];
      rows += (failed(row) ? std::string() : measured_text(row)) + '\n';
    }
  }
  std::map<std::string_view, std::size_t> seen;  // a process's rows (in processes) -> its run
  for (const auto& [key, rows] : processes) {
    if (rows.find_first_not_of('\n') == std::string::npos) continue;  // measured nothing
    const auto [it, inserted] = seen.emplace(rows, key.first);
    if (inserted || it->second == key.first) continue;
    if (!merged_before(plan.runs[it->second]) && !merged_before(plan.runs[key.first])) continue;
    throw InputError("merge: one process is in both " + plan.runs[it->second].source + " and " +
                     plan.runs[key.first].source +
                     " (its rows alike in every benchmark): a run merged before is given again "
                     "with a run it holds, and that process would count twice");
  }
}

// Every check of a merge; throws InputError.
Plan plan_merge(const std::vector<MergeInput>& inputs, const std::regex* filter) {
  if (inputs.empty()) throw InputError("merge: no RUN.json given");
  Plan plan;
  std::vector<RunText>& runs = plan.runs;
  for (const MergeInput& input : inputs) runs.push_back(read_run(input));
  // The same run twice (one file named twice, through a link, or copied) would count its
  // processes twice and shrink the noise the gate sees. Texts are compared only where their sizes
  // match, and two runs differ early (the context's date and clocks): no file is read through
  // again.
  std::map<std::size_t, std::vector<std::size_t>> by_size;  // text size -> runs of that size
  for (std::size_t r = 0; r < runs.size(); ++r) {
    std::vector<std::size_t>& same_size = by_size[runs[r].text.size()];
    for (std::size_t other : same_size)
      if (runs[other].text == runs[r].text && holds_measurement(runs[r]))
        throw InputError("merge: " + runs[r].source + " is the same run as " + runs[other].source +
                         " (byte for byte): its processes would count twice");
    same_size.push_back(r);
  }
  for (std::size_t r = 1; r < runs.size(); ++r)
    for (const char* key : kSameContext)
      if (context_text(runs[r].document, key) != context_text(runs[0].document, key))
        throw InputError("merge: " + runs[r].source + " differs from " + runs[0].source + " in " +
                         key + " ('" + context_text(runs[r].document, key) + "' vs '" +
                         context_text(runs[0].document, key) +
                         "'): runs from different machines or "
                         "settings are compared, not merged");

  // The rows of each benchmark, in the first run's order; every run must have the same set.
  std::vector<std::string>& order = plan.order;
  std::map<std::string, std::vector<RowRef>>& rows = plan.rows;
  std::map<std::string, std::string> units;  // the first run's time_unit of each benchmark
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const std::string& source = runs[r].source;
    std::map<std::string, int> seen;
    for (const Span& span : runs[r].rows) {
      const Json row = parse_value(span.of(runs[r].text));
      if (row.value("run_type", "iteration") != "iteration") continue;
      const std::string name = row.value("run_name", row.value("name", ""));
      if (name.empty()) throw InputError("merge: a row of " + source + " has no name");
      if (filter && !filter_finds(*filter, parse_name(name))) continue;
      if (r == 0 && !rows.count(name)) order.push_back(name);
      if (r > 0 && !rows.count(name))
        throw InputError("merge: " + name + " is in " + source + " but not in " + runs[0].source);
      // The aggregates average the rows' numbers as written: one unit, or they mean nothing.
      const std::string unit = row.value("time_unit", "");
      const auto [first, inserted] = units.emplace(name, unit);
      if (!inserted && first->second != unit)
        throw InputError("merge: " + name + " is in " + unit + " in " + source + " and in " +
                         first->second + " in " + runs[0].source + ": merge runs of one time unit");
      rows[name].push_back(RowRef{r, span});
      ++seen[name];
    }
    if (runs[r].file) runs[r].file->release_pages();
    for (const std::string& name : order)
      if (!seen.count(name))
        throw InputError("merge: " + name + " is in " + runs[0].source + " but not in " + source);
  }

  refuse_repeated_process(plan);

  const Json& first_run = runs[0].document;
  Json& context = plan.context;
  context = first_run.contains("context") ? first_run["context"] : Json::object();
  // Runs from several GPUs of one model, or of several builds, may be merged; then the merged run
  // names no GPU (compare must not take it for a run of the first one's machine) or no build,
  // rather than the first run's for all of them.
  for (const char* key : {"gpu_uuid", "sync_bench_version", "sync_bench_source"})
    for (std::size_t r = 1; r < runs.size(); ++r)
      if (context_text(runs[r].document, key) != context_text(first_run, key)) context.erase(key);
  // Each process measured its host's clock: the merged run holds their range, or nothing when a
  // run does not say (it cannot vouch for that process's host).
  std::optional<ClockRange> clocks = parse_clock_range(context_text(first_run, "host_clock_ghz"));
  for (std::size_t r = 1; r < runs.size() && clocks; ++r) {
    const auto clock = parse_clock_range(context_text(runs[r].document, "host_clock_ghz"));
    if (!clock) {
      clocks.reset();
      break;
    }
    clocks->low = std::min(clocks->low, clock->low);
    clocks->high = std::max(clocks->high, clock->high);
  }
  if (clocks)
    context["host_clock_ghz"] = clock_range_text(*clocks);
  else
    context.erase("host_clock_ghz");
  if (order.empty()) throw InputError("merge: no benchmark to merge");
  // A run merged before counts as the processes it holds, so that a baseline built up one merge
  // at a time says how many processes it is made of.
  std::size_t processes = 0;
  for (const RunText& run : runs) {
    const Json& doc = run.document;
    const Json* held = doc.contains("context") && doc["context"].contains("merged_runs")
                           ? &doc["context"]["merged_runs"]
                           : nullptr;
    processes += held && held->is_number_unsigned() ? held->get<std::size_t>() : 1;
  }
  context["merged_runs"] = processes;
  context["repetitions_are"] = "processes";
  for (const RunText& run : runs) plan.run_gpus.push_back(context_text(run.document, "gpu_uuid"));
  return plan;
}

// The merged run, one row at a time, as nlohmann::ordered_json's dump(2) of the whole merged
// document would write it (each row is built as a value only while it is written).
MergeSummary write_merge(Plan& plan, std::ostream& out) {
  out << "{\n  \"context\": ";
  {
    const std::string text = plan.context.dump(2);
    std::size_t from = 0;
    for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) {
      out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
      out << "  ";
    }
    out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
  }
  out << ",\n  \"benchmarks\": [\n";
  MergeSummary summary;
  std::set<std::string> gpu_set;
  bool first_row = true;
  std::size_t read = 0;  // bytes of rows read since the files' pages were let go
  for (const std::string& name : plan.order) {
    const std::vector<RowRef>& refs = plan.rows[name];
    summary.repetitions = refs.size();
    bool any_failed = false;
    Json first;                       // the first repetition's row, as written
    std::vector<std::string> fields;  // numeric measurements, in the first row's order
    std::map<std::string, std::vector<double>> values;
    for (std::size_t i = 0; i < refs.size(); ++i) {
      const RunText& run = plan.runs[refs[i].run];
      Json row = parse_value(refs[i].span.of(run.text));
      // The rows are read about in the files' order: what is behind is not needed again.
      read += refs[i].span.end - refs[i].span.begin;
      if (read > kReleaseBytes) {
        for (const RunText& r : plan.runs)
          if (r.file) r.file->release_pages();
        read = 0;
      }
      if (i == 0)
        for (auto it = row.begin(); it != row.end(); ++it)
          if ((it->is_number() || it->is_string()) && !is_bookkeeping(it.key()) &&
              (it->is_number() || non_finite_value(it->get<std::string>())))
            fields.push_back(it.key());
      // Each repetition names its GPU (a row merged before keeps its own), so that compare can
      // measure how much the machines of a baseline merged from several differ.
      const std::string& gpu = plan.run_gpus[refs[i].run];
      if (!row.contains("gpu_uuid") && !gpu.empty()) row["gpu_uuid"] = gpu;
      if (row.contains("gpu_uuid") && row["gpu_uuid"].is_string())
        gpu_set.insert(row["gpu_uuid"].get<std::string>());
      row["name"] = name;
      row["run_name"] = name;
      row["run_type"] = "iteration";
      row["repetitions"] = refs.size();
      row["repetition_index"] = i;
      any_failed = any_failed || failed(row);
      for (const std::string& f : fields)
        values[f].push_back(row.contains(f) ? number(row[f]) : kNaN);
      write_row(out, row, first_row);
      first_row = false;
      if (i == 0) first = std::move(row);
    }
    if (any_failed || refs.size() < 2) continue;  // as Google Benchmark: no aggregates then
    for (const char* stat : {"mean", "median", "stddev", "cv"})
      write_row(out, aggregate_row(first, name, stat, refs.size(), fields, values), false);
  }
  out << "\n  ]\n}\n";
  summary.gpus = gpu_set.size();
  return summary;
}

}  // namespace

MergeSummary merge_texts(const std::vector<MergeInput>& inputs, std::ostream& out,
                         const std::regex* filter) {
  Plan plan = plan_merge(inputs, filter);
  return write_merge(plan, out);
}

MergeSummary merge_runs(const std::vector<std::string>& inputs, const std::string& output,
                        const std::regex* filter) {
  // An input that is the output itself is read into memory, not mapped: writing the output
  // truncates it.
  struct stat out_stat {};
  const bool output_exists = ::stat(output.c_str(), &out_stat) == 0;
  std::vector<std::unique_ptr<InputText>> files;
  std::vector<MergeInput> texts;
  for (const std::string& path : inputs) {
    struct stat st {};
    const bool is_output = output_exists && path != "-" && ::stat(path.c_str(), &st) == 0 &&
                           st.st_dev == out_stat.st_dev && st.st_ino == out_stat.st_ino;
    files.push_back(std::make_unique<InputText>(path, is_output));
    texts.push_back(MergeInput{path, files.back()->text(), files.back().get()});
  }
  // Checked in full before the output is opened: a refused merge leaves it as it was.
  Plan plan = plan_merge(texts, filter);
  std::ofstream out(output, std::ios::binary);
  const MergeSummary summary = write_merge(plan, out);
  out.close();
  if (!out) throw InputError("merge: cannot write " + output);
  return summary;
}

}  // namespace sync_summary
