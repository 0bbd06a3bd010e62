#include "run_info.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <set>

#include "format_number.hpp"
#include "wall_time.hpp"

namespace sync_summary {
namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

std::string file_stem(const std::string& path) {
  if (path == "-") return "stdin";
  const auto slash = path.find_last_of("/\\");
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  const auto dot = base.rfind('.');
  if (dot != std::string::npos && dot > 0) base.erase(dot);
  return base;
}

// A whole positive finite decimal, or nullopt.
std::optional<double> positive_number(std::string_view text) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text.front()))) return std::nullopt;
  const std::string s(text);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v) || !(v > 0)) return std::nullopt;
  return v;
}

// "NEW's core slower, 19% apart" (the faster range's low over the slower's high), or "" within
// kHostClocksApart: the figure shown is the one the limit applies to.
std::string clocks_apart(const ClockRange& base, const ClockRange& next) {
  const bool faster = next.low > base.high;
  const double apart = faster ? next.low / base.high - 1 : base.low / next.high - 1;
  if (!(apart > kHostClocksApart)) return "";
  return std::string("NEW's core ") + (faster ? "faster" : "slower") + ", " +
         std::to_string(std::lround(100 * apart)) + "% apart";
}

bool distinct(const std::vector<std::string>& v) {
  if (std::any_of(v.begin(), v.end(), [](const std::string& s) { return s.empty(); })) return false;
  return std::set<std::string>(v.begin(), v.end()).size() == v.size();
}

}  // namespace

std::string context_or_unknown(const Run& run, std::string_view key) {
  const auto v = run.context_value(key);
  return v.empty() ? "?" : std::string(v);
}

namespace {

// A version integer read out by its place values, the integer beside: with places {1000, 10},
// 13000 is "13.0 (13000)". Text that is not an integer of min_digits to 9 digits stays as it is.
std::string version_text(std::string_view raw, std::size_t min_digits,
                         std::initializer_list<long> places) {
  if (raw.empty()) return "?";
  if (!all_digits(raw) || raw.size() < min_digits || raw.size() > 9) return std::string(raw);
  const long v = std::stol(std::string(raw));
  std::string text;
  long above = 0;  // the place before: 0 for the leading part, which keeps everything above
  for (const long place : places) {
    text += (text.empty() ? "" : ".") + std::to_string((above ? v % above : v) / place);
    above = place;
  }
  return text + " (" + std::string(raw) + ")";
}

}  // namespace

std::string cuda_version_text(std::string_view raw) {
  return version_text(raw, 4, {1000, 10});
}

std::string cublas_version_text(std::string_view raw) {
  return version_text(raw, 5, {10000, 100, 1});
}

std::string gpu_text(const Run& run) {
  std::string t = context_or_unknown(run, "gpu_name");
  std::vector<std::string> facts;
  if (auto cc = run.context_value("gpu_cc"); !cc.empty()) facts.push_back("cc " + std::string(cc));
  if (auto sm = run.context_value("gpu_sm_count"); !sm.empty())
    facts.push_back(std::string(sm) + " SMs");
  if (auto mem = run.context_value("gpu_memory_gib"); !mem.empty())
    facts.push_back(std::string(mem) + " GiB");
  if (auto clk = run.context_value("sm_clock_mhz_start"); !clk.empty())
    facts.push_back("SM clock " + std::string(clk) + " MHz at start");
  if (!facts.empty()) {
    t += " (";
    for (std::size_t i = 0; i < facts.size(); ++i) t += (i ? ", " : "") + facts[i];
    t += ")";
  }
  return t;
}

std::string sync_bench_text(const Run& run) {
  std::string t = context_or_unknown(run, "sync_bench_version");
  if (const auto source = run.context_value("sync_bench_source"); !source.empty())
    t += " (source " + std::string(source) + ", scripts/source_hash.sh)";
  return t;
}

std::vector<std::string> run_header_lines(const RunData& d) {
  const Run& r = d.run;
  std::vector<std::string> lines;
  lines.push_back("file: " + r.source);
  lines.push_back("GPU: " + gpu_text(r));
  lines.push_back("driver: " + cuda_version_text(r.context_value("driver_version")) +
                  ", CUDA runtime: " + cuda_version_text(r.context_value("runtime_version")) +
                  ", cuBLAS: " + cublas_version_text(r.context_value("cublas_version")));
  std::string host = "host wait mode: " + context_or_unknown(r, "host_wait_mode");
  if (const auto clock = r.context_value("host_clock_ghz"); !clock.empty())
    host += ", host clock " + std::string(clock) + " GHz (measured at start)";
  lines.push_back(host);
  lines.push_back("date: " + context_or_unknown(r, "date") + ", host: " +
                  context_or_unknown(r, "host_name") + ", sync_bench: " + sync_bench_text(r));
  return lines;
}

Table runs_table(const std::vector<RunData>& runs) {
  Table t;
  t.title = "Runs";
  t.header = {"run", "file", "GPU", "driver", "CUDA runtime", "wait mode", "date"};
  t.align.assign(t.header.size(), Align::left);
  for (const auto& d : runs) {
    const Run& r = d.run;
    t.rows.push_back({d.label, r.source, gpu_text(r),
                      cuda_version_text(r.context_value("driver_version")),
                      cuda_version_text(r.context_value("runtime_version")),
                      context_or_unknown(r, "host_wait_mode"), context_or_unknown(r, "date")});
  }
  return t;
}

void assign_labels(std::vector<RunData>& runs, const std::vector<std::string>& explicit_labels) {
  if (!explicit_labels.empty() && explicit_labels.size() == runs.size()) {
    for (std::size_t i = 0; i < runs.size(); ++i) runs[i].label = explicit_labels[i];
    return;
  }
  std::vector<std::string> labels;
  for (const auto& d : runs) labels.push_back(file_stem(d.run.source));
  if (!distinct(labels)) {
    for (const char* key : {"host_wait_mode", "gpu_name", "driver_version", "date"}) {
      std::vector<std::string> values;
      for (const auto& d : runs) values.emplace_back(d.run.context_value(key));
      if (distinct(values)) {
        labels = values;
        break;
      }
    }
  }
  if (!distinct(labels)) {
    for (std::size_t i = 0; i < labels.size(); ++i) labels[i] += "#" + std::to_string(i + 1);
  }
  for (std::size_t i = 0; i < runs.size(); ++i) runs[i].label = labels[i];
}

std::vector<std::string> context_differences(const Run& a, const Run& b) {
  std::vector<std::string> diffs;
  for (const char* key : {"gpu_name", "gpu_cc", "driver_version", "nvml_driver_version",
                          "runtime_version", "host_wait_mode", "cpu_model", "multi_gpu_devices"}) {
    const auto x = a.context_value(key);
    const auto y = b.context_value(key);
    if (x != y) {
      diffs.push_back(std::string(key) + ": '" + (x.empty() ? "?" : std::string(x)) + "' vs '" +
                      (y.empty() ? "?" : std::string(y)) + "'");
    }
  }
  const auto x = a.context_value("host_clock_ghz");
  const auto y = b.context_value("host_clock_ghz");
  if (!x.empty() && !y.empty()) {
    const auto cx = parse_clock_range(x);
    const auto cy = parse_clock_range(y);
    const std::string apart = cx && cy ? clocks_apart(*cx, *cy) : x == y ? "" : "unreadable";
    if (!apart.empty())
      diffs.push_back("host_clock_ghz: '" + std::string(x) + "' vs '" + std::string(y) + "' (" +
                      apart + ")");
  }
  return diffs;
}

std::optional<ClockRange> parse_clock_range(std::string_view text) {
  const auto dash = text.find('-');
  const auto low = positive_number(text.substr(0, dash));
  const auto high = dash == std::string_view::npos ? low : positive_number(text.substr(dash + 1));
  if (!low || !high || *high < *low) return std::nullopt;
  return ClockRange{*low, *high};
}

std::string clock_range_text(const ClockRange& range) {
  const std::string low = fmt_fixed(range.low, 2), high = fmt_fixed(range.high, 2);
  return low == high ? low : low + "-" + high;
}

std::string metric_title(const std::string& metric) {
  if (metric == kRealTime) return "time per step (us)";
  if (metric == kCpuTime) return "CPU time per step (us)";
  if (metric == kWallCounter) return "wall_s (s: each benchmark's whole wall time, not per step)";
  return metric + " per step";
}

}  // namespace sync_summary
