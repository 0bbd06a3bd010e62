#include "merge.hpp"

#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "benchmarks.hpp"
#include "errors.hpp"
#include "gb_json.hpp"
#include "json_sanitize.hpp"
#include "statistics.hpp"

namespace sync_summary {
namespace {

using Json = nlohmann::ordered_json;

// What must be the same in every merged run: the machine and how it waited. (The date, the load
// and the build's version string may differ.)
constexpr const char* kSameContext[] = {
    "gpu_name",       "gpu_cc",    "driver_version", "runtime_version", "nvml_driver_version",
    "host_wait_mode", "cpu_model", "sync_accounting"};

// Fields of a row that are not measurements.
bool is_bookkeeping(const std::string& key) {
  return key == "family_index" || key == "per_family_instance_index" || key == "repetitions" ||
         key == "repetition_index" || key == "threads" || key == "iterations";
}

// Google Benchmark's JSON nests four deep (the context's caches); a value nested far deeper is not
// its output, and a DOM copy of 100,000 levels overflowed the stack.
constexpr int kMaxDepth = 32;

// The run as a DOM, to copy its rows. Read first as every command reads a run (types, names,
// times: digest(load_run)), so that merge refuses what report and compare refuse.
Json read_json(const std::string& path) {
  digest(load_run(path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("merge: cannot read " + path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (has_non_finite_word(text)) text = quote_non_finite(text);
  const Json::parser_callback_t not_too_deep = [&path](int depth, Json::parse_event_t, Json&) {
    if (depth > kMaxDepth)
      throw InputError(path + ": values nested deeper than " + std::to_string(kMaxDepth) +
                       " levels: not Google Benchmark JSON");
    return true;
  };
  Json j = Json::parse(text, not_too_deep, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j.contains("benchmarks") ||
      !j["benchmarks"].is_array())
    throw InputError("merge: " + path + " is not a Google Benchmark JSON file");
  return j;
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
  return a;
}

}  // namespace

MergeSummary merge_runs(const std::vector<std::string>& inputs, const std::string& output,
                        const std::regex* filter) {
  if (inputs.empty()) throw InputError("merge: no RUN.json given");
  std::vector<Json> runs;
  for (const std::string& path : inputs) runs.push_back(read_json(path));
  for (std::size_t r = 1; r < runs.size(); ++r)
    for (const char* key : kSameContext)
      if (context_text(runs[r], key) != context_text(runs[0], key))
        throw InputError("merge: " + inputs[r] + " differs from " + inputs[0] + " in " + key +
                         " ('" + context_text(runs[r], key) + "' vs '" +
                         context_text(runs[0], key) +
                         "'): runs from different machines or "
                         "settings are compared, not merged");

  // The rows of each benchmark, in the first run's order; every run must have the same set.
  std::vector<std::string> order;
  std::map<std::string, std::vector<Json>> rows;
  std::map<std::string, std::vector<std::string>> gpus;  // each row's run's gpu_uuid
  std::map<std::string, std::string> units;  // the first run's time_unit of each benchmark
  for (std::size_t r = 0; r < runs.size(); ++r) {
    std::map<std::string, int> seen;
    for (const Json& row : runs[r]["benchmarks"]) {
      if (row.value("run_type", "iteration") != "iteration") continue;
      const std::string name = row.value("run_name", row.value("name", ""));
      if (name.empty()) throw InputError("merge: a row of " + inputs[r] + " has no name");
      if (filter && !std::regex_search(name, *filter)) continue;
      if (r == 0 && !rows.count(name)) order.push_back(name);
      if (r > 0 && !rows.count(name))
        throw InputError("merge: " + name + " is in " + inputs[r] + " but not in " + inputs[0]);
      // The aggregates average the rows' numbers as written: one unit, or they mean nothing.
      const std::string unit = row.value("time_unit", "");
      const auto [first, inserted] = units.emplace(name, unit);
      if (!inserted && first->second != unit)
        throw InputError("merge: " + name + " is in " + unit + " in " + inputs[r] + " and in " +
                         first->second + " in " + inputs[0] + ": merge runs of one time unit");
      rows[name].push_back(row);
      gpus[name].push_back(context_text(runs[r], "gpu_uuid"));
      ++seen[name];
    }
    for (const std::string& name : order)
      if (!seen.count(name))
        throw InputError("merge: " + name + " is in " + inputs[0] + " but not in " + inputs[r]);
  }

  Json merged;
  merged["context"] = runs[0].contains("context") ? runs[0]["context"] : Json::object();
  // Runs from several GPUs of one model may be merged; then the merged run names none, so that
  // compare does not take it for a run of the first one's machine.
  for (std::size_t r = 1; r < runs.size(); ++r)
    if (context_text(runs[r], "gpu_uuid") != context_text(runs[0], "gpu_uuid"))
      merged["context"].erase("gpu_uuid");
  if (order.empty()) throw InputError("merge: no benchmark to merge");
  // A run merged before counts as the processes it holds, so that a baseline built up one merge
  // at a time says how many processes it is made of.
  std::size_t processes = 0;
  for (const Json& run : runs) {
    const Json* held = run.contains("context") && run["context"].contains("merged_runs")
                           ? &run["context"]["merged_runs"]
                           : nullptr;
    processes += held && held->is_number_unsigned() ? held->get<std::size_t>() : 1;
  }
  merged["context"]["merged_runs"] = processes;
  merged["context"]["repetitions_are"] = "processes";
  merged["benchmarks"] = Json::array();
  MergeSummary summary;
  std::set<std::string> gpu_set;
  for (const std::string& name : order) {
    std::vector<Json>& reps = rows[name];
    summary.repetitions = reps.size();
    bool any_failed = false;
    std::vector<std::string> fields;  // numeric measurements, in the first row's order
    std::map<std::string, std::vector<double>> values;
    for (auto it = reps.front().begin(); it != reps.front().end(); ++it)
      if ((it->is_number() || it->is_string()) && !is_bookkeeping(it.key()) &&
          (it->is_number() || non_finite_value(it->get<std::string>())))
        fields.push_back(it.key());
    for (std::size_t i = 0; i < reps.size(); ++i) {
      Json& row = reps[i];
      // Each repetition names its GPU (a row merged before keeps its own), so that compare can
      // measure how much the machines of a baseline merged from several differ.
      if (!row.contains("gpu_uuid") && !gpus[name][i].empty()) row["gpu_uuid"] = gpus[name][i];
      if (row.contains("gpu_uuid") && row["gpu_uuid"].is_string())
        gpu_set.insert(row["gpu_uuid"].get<std::string>());
      row["name"] = name;
      row["run_name"] = name;
      row["run_type"] = "iteration";
      row["repetitions"] = reps.size();
      row["repetition_index"] = i;
      any_failed = any_failed || failed(row);
      for (const std::string& f : fields)
        values[f].push_back(row.contains(f) ? number(row[f]) : kNaN);
      merged["benchmarks"].push_back(row);
    }
    if (any_failed || reps.size() < 2) continue;  // as Google Benchmark: no aggregates then
    for (const char* stat : {"mean", "median", "stddev", "cv"})
      merged["benchmarks"].push_back(
          aggregate_row(reps.front(), name, stat, reps.size(), fields, values));
  }

  std::ofstream out(output);
  out << merged.dump(2) << "\n";
  out.close();
  if (!out) throw InputError("merge: cannot write " + output);
  summary.gpus = gpu_set.size();
  return summary;
}

}  // namespace sync_summary
