#include "cli.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <string_view>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace sync_bench {
namespace {

#ifndef SYNC_BENCH_MIN_TIME_UNIT
#define SYNC_BENCH_MIN_TIME_UNIT ""
#endif
// Any positive time below a step's: the first iteration's manual time (one step) exceeds it.
constexpr const char* kSingleIteration = "--benchmark_min_time=1e-9" SYNC_BENCH_MIN_TIME_UNIT;

bool parse_int(const std::string& text, int* out, long lo = 0, long hi = 1024) {
  if (text.empty()) return false;
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (*end != '\0' || v < lo || v > hi) return false;
  *out = static_cast<int>(v);
  return true;
}

// "all", or two or more non-negative GPU indices separated by commas. An index may repeat: the
// same GPU in two roles (CrossDevice and SyncAll then run across streams of one GPU).
bool parse_devices(const std::string& text, std::vector<int>* devices, bool* all) {
  if (text == "all") {
    devices->clear();
    *all = true;
    return true;
  }
  std::vector<int> parsed;
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = text.find(',', from);
    int index = 0;
    if (!parse_int(text.substr(from, comma == std::string::npos ? std::string::npos : comma - from),
                   &index))
      return false;
    parsed.push_back(index);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  if (parsed.size() < 2) return false;
  *devices = parsed;
  *all = false;
  return true;
}

// A positive number, with an optional suffix (Google Benchmark 1.8 writes seconds as "0.5s").
bool parse_positive(std::string text, double* out, const char* suffix = "") {
  const std::string_view s(suffix);
  if (!s.empty() && text.size() > s.size() &&
      text.compare(text.size() - s.size(), s.size(), s) == 0)
    text.resize(text.size() - s.size());
  if (text.empty()) return false;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !(v > 0.0) || v > 1e6) return false;
  *out = v;
  return true;
}

// Google Benchmark's reading of a boolean flag's value (IsTruthyFlagValue in 1.7 and 1.8): no
// value is true; one character is false when 0, f, F, n, N or not a letter or digit; a word is
// false when it is false, no or off in any case. sync_bench must read --benchmark_list_tests as
// Google Benchmark will, or it would run every benchmark without a device chosen.
bool truthy_flag_value(const std::string& value) {
  if (value.size() == 1) {
    const char v = value[0];
    return std::isalnum(static_cast<unsigned char>(v)) != 0 &&
           std::string_view("0fFnN").find(v) == std::string_view::npos;
  }
  std::string lower(value);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower != "false" && lower != "no" && lower != "off";
}

// Google Benchmark's flags whose value sync_bench must know, read as Google Benchmark reads them;
// false with what the flag expects for a value sync_bench refuses.
bool note_google_benchmark_flag(const std::string& flag, const std::string& value, Options* options,
                                std::string* expected) {
  if (flag == "--benchmark_list_tests") options->list_only = truthy_flag_value(value);
  // Google Benchmark aborts on a negative count (std::length_error) and runs nothing on 0.
  if (flag == "--benchmark_repetitions") {
    int repetitions = 0;
    if (!parse_int(value, &repetitions, 1, 1000000)) {
      *expected = "a number of repetitions from 1, as in --benchmark_repetitions=5";
      return false;
    }
  }
  if (flag == "--benchmark_out") options->out_path = value;
  // Google Benchmark answers an unknown format with its usage and exit status 0: a typo would
  // pass for a run that wrote nothing.
  if ((flag == "--benchmark_out_format" || flag == "--benchmark_format") && value != "json" &&
      value != "console" && value != "csv") {
    *expected = "json, console or csv";
    return false;
  }
  if (flag == "--benchmark_out_format") options->out_format = value;
  return true;
}

}  // namespace

bool parse_options(int* argc, char** argv, Options* options, std::string* error) {
  // Google Benchmark takes each flag's default from the environment (BENCHMARK_LIST_TESTS for
  // --benchmark_list_tests), and the command line overrides it: read in that order.
  for (const char* name : {"benchmark_list_tests", "benchmark_repetitions", "benchmark_out",
                           "benchmark_out_format", "benchmark_format"}) {
    std::string variable(name);
    std::transform(variable.begin(), variable.end(), variable.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    const char* value = std::getenv(variable.c_str());
    std::string expected;
    if (value && !note_google_benchmark_flag(std::string("--") + name, value, options, &expected)) {
      *error = "--" + std::string(name) + " expects " + expected + " (got " + variable + "='" +
               value + "' in the environment)";
      return false;
    }
  }
  bool anatomy_given = false;
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string arg = argv[i];
    const std::size_t eq = arg.find('=');
    const std::string flag = arg.substr(0, eq);
    const bool has_value = eq != std::string::npos;
    const std::string value = has_value ? arg.substr(eq + 1) : "";
    auto refuse = [&](const std::string& expected) {
      *error = flag + " expects " + expected + " (got '" + arg + "')";
      return false;
    };
    if (flag == "--device") {
      if (!parse_int(value, &options->device)) return refuse("a GPU index, as in --device=0");
      continue;
    }
    if (flag == "--devices") {
      if (!parse_devices(value, &options->devices, &options->all_devices))
        return refuse(
            "all, or two or more GPU indices, as in --devices=0,1 (or 0,0: one GPU twice)");
      continue;
    }
    if (flag == "--sync_mode") {
      if (!parse_wait_mode(value, &options->wait_mode))
        return refuse("one of spin, yield, blocking, auto");
      continue;
    }
    if (flag == "--sync_accounting") {
      if (value != "on" && value != "off") return refuse("on or off");
      options->sync_accounting = value == "on";
      continue;
    }
    if (flag == "--anatomy") {
      if (value != "on" && value != "off") return refuse("on or off");
      options->anatomy = value == "on";
      anatomy_given = true;
      continue;
    }
    if (flag == "--anatomy_timeline") {
      if (value.empty()) return refuse("a file to write, as in --anatomy_timeline=timeline.json");
      options->anatomy_timeline = value;
      continue;
    }
    if (flag == "--sync_map") {
      if (has_value && value.empty()) return refuse("an output prefix, or no value");
      options->sync_map = true;
      options->sync_map_prefix = value;
      continue;
    }
    if (flag == "--sync_min_rounds") {
      if (!parse_int(value, &options->stopping.min_rounds, 1, 1000000))
        return refuse("a number of rounds from 1, as in --sync_min_rounds=8");
      continue;
    }
    if (flag == "--sync_max_time") {
      if (!parse_positive(value, &options->stopping.max_seconds, "s"))
        return refuse("seconds, as in --sync_max_time=0.1");
      continue;
    }
    if (flag == "--sync_max_noise") {
      if (!parse_positive(value, &options->stopping.max_noise_pct, "%"))
        return refuse("a percentage, as in --sync_max_noise=1");
      continue;
    }
    if (flag == "--benchmark_min_time") {
      // Google Benchmark's iteration count form ("100x") has no meaning here: one iteration
      // holds the whole measurement.
      if (!parse_positive(value, &options->stopping.min_seconds, "s"))
        return refuse("seconds of timed GPU time per benchmark, as in --benchmark_min_time=0.05");
      continue;
    }
    if (flag == "--sync_inject") {
      std::string why;
      const auto parsed = parse_injection(value, &why);
      if (!parsed) return refuse(why);
      const std::string filter = options->inject.filter;
      options->inject = *parsed;
      options->inject.filter = filter;
      continue;
    }
    if (flag == "--sync_inject_filter") {
      try {
        std::regex check(value);
      } catch (const std::regex_error& e) {
        return refuse(std::string("a regular expression (") + e.what() + ")");
      }
      options->inject.filter = value;
      continue;
    }
    std::string expected;
    if (!note_google_benchmark_flag(flag, value, options, &expected)) return refuse(expected);
    argv[kept++] = argv[i];
  }
  *argc = kept;
  argv[kept] = nullptr;
  // A timeline asks for the anatomy, unless --anatomy=off says otherwise (refused by main).
  if (!options->anatomy_timeline.empty() && !anatomy_given) options->anatomy = true;
  // A minimum above the budget: the budget grows to it (min_time means "at least").
  options->stopping.max_seconds =
      std::max(options->stopping.max_seconds, options->stopping.min_seconds);
  return true;
}

char** with_single_iteration(int* argc, char** argv) {
  // Lives for the whole run: Google Benchmark keeps pointers into argv.
  static std::vector<char*> extended;
  extended.assign(argv, argv + *argc);
  extended.push_back(const_cast<char*>(kSingleIteration));
  extended.push_back(nullptr);
  ++*argc;
  return extended.data();
}

std::optional<std::size_t> count_filtered(std::string filter, const std::vector<std::string>& names,
                                          std::string* error) {
  if (filter.empty() || filter == "all") filter = ".";
  const bool negative = filter[0] == '-';
  if (negative) filter.erase(0, 1);
  std::regex re;
  try {
    re = std::regex(filter, std::regex::extended);
  } catch (const std::regex_error& e) {
    *error = "--benchmark_filter='" + filter + "' is not a regular expression: " + e.what();
    return std::nullopt;
  }
  std::size_t count = 0;
  for (const std::string& name : names)
    if (std::regex_search(name, re) != negative) ++count;
  return count;
}

bool output_writable(const std::string& path, std::string* error) {
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  const bool exists = access(path.c_str(), F_OK) == 0;
  // A folder passes access(W_OK), and root passes it everywhere: only opening the file would fail.
  if (struct stat st{}; exists && stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    *error = "cannot write " + path + ": it is a folder (name a file)";
    return false;
  }
  if (exists ? access(path.c_str(), W_OK) == 0 : access(dir.c_str(), W_OK) == 0) return true;
  *error = "cannot write " + path + ": " + std::strerror(errno) +
           (exists ? "" : " (the folder " + dir + " must exist and be writable)");
  return false;
}

void print_usage() {
  std::printf(
      "sync_bench: what each CPU<->GPU synchronization costs, measured on real GEMMs.\n"
      "\n"
      "sync_bench flags:\n"
      "  [--device=<index>]            CUDA device to run on (default 0)\n"
      "  [--devices=all|<i>,<j>,...]  GPUs of the MultiGpu benchmarks (default: --device and\n"
      "                                the next one). Pairwise ones (CrossDevice, PeerCopy) use\n"
      "                                the first two listed, SyncAll/devices:K the first K;\n"
      "                                all: devices 0 and 1 pairwise, every visible one for\n"
      "                                SyncAll. With fewer GPUs than asked, they are skipped.\n"
      "                                A GPU may repeat (0,0): CrossDevice and SyncAll then\n"
      "                                run across streams of that GPU; PeerCopy and\n"
      "                                DataParallel skip, as they need distinct GPUs\n"
      "  [--sync_mode=spin|yield|blocking|auto]\n"
      "                                how the host waits for the GPU (cudaInitDevice flag;\n"
      "                                default auto); recorded in the JSON context\n"
      "  [--sync_accounting=on|off]    count host-blocking CUDA calls per step with CUPTI, in an\n"
      "                                untimed pass after each benchmark (default on)\n"
      "  [--anatomy=on|off]            step anatomy with CUPTI's activity API, in an untimed pass\n"
      "                                after each benchmark: GPU active and idle, launch latency,\n"
      "                                host time in calls and blocked, bound (default off: it\n"
      "                                perturbs later blocking-sync rows; see README)\n"
      "  [--anatomy_timeline=<file>]   also write each benchmark's recorded steps there, for\n"
      "                                `sync_summary timeline` (turns the anatomy on)\n"
      "  [--sync_map[=<prefix>]]       instead of benchmarking, map which CUDA calls block the\n"
      "                                host (markdown on stdout; <prefix>.md and .json written)\n"
      "\n"
      "How long each benchmark is measured, in rounds (README: How time is measured):\n"
      "  [--benchmark_min_time=<s>]    at least this much timed GPU time (default 0.01)\n"
      "  [--sync_min_rounds=<n>]       and at least n rounds (default 8)\n"
      "  [--sync_max_noise=<pct>]      then stop once the median is known to within pct %%\n"
      "                                (95%% confidence; default 2)\n"
      "  [--sync_max_time=<s>]         or once this much timed GPU time is spent (default 0.1)\n"
      "\n"
      "Proof by injection (off by default; the benchmark's label says INJECTED):\n"
      "  [--sync_inject=host:<us>|host:<pct>%%|gpu:<us>|gpu:<pct>%%|fail]\n"
      "                                add a known cost to every timed step: a host busy-wait,\n"
      "                                or a GPU spin kernel, in us or %% of the step's own time;\n"
      "                                fail: the benchmark fails instead (ERROR OCCURRED)\n"
      "  [--sync_inject_filter=<regex>] only to the benchmarks whose name matches\n"
      "\n"
      "Names: Family/Pattern[/variant...][/dtype/backend][/key:value...]/manual_time,\n"
      "  e.g. SmallGemm/ScalarRead/pinned/bf16/cublaslt/n:256/manual_time.\n"
      "  Select with --benchmark_filter=<regex>, list with --benchmark_list_tests.\n"
      "  Each benchmark is one Google Benchmark iteration (iterations: 1 in the JSON); its steps\n"
      "  are in the counter `steps`. cpu_time is the benchmark thread's CPU time over the whole\n"
      "  measurement; per step, see host_cpu_us (the process's, CUDA's own threads included).\n"
      "\n"
      "Google Benchmark flags:\n");
}

}  // namespace sync_bench
