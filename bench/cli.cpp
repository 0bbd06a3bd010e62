#include "cli.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

namespace sync_bench {
namespace {

#ifndef SYNC_BENCH_MIN_TIME_UNIT
#define SYNC_BENCH_MIN_TIME_UNIT ""
#endif
constexpr const char* kDefaultMinTime = "--benchmark_min_time=0.02" SYNC_BENCH_MIN_TIME_UNIT;

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool parse_int(const std::string& text, int* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (*end != '\0' || v < 0 || v > 1024) return false;
  *out = static_cast<int>(v);
  return true;
}

}  // namespace

bool parse_options(int* argc, char** argv, Options* options, std::string* error) {
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
    if (flag == "--sync_map") {
      if (has_value && value.empty()) return refuse("an output prefix, or no value");
      options->sync_map = true;
      options->sync_map_prefix = value;
      continue;
    }
    if (flag == "--benchmark_list_tests")
      options->list_only = !(value == "false" || value == "0" || value == "no");
    if (flag == "--benchmark_out") options->out_path = value;
    if (flag == "--benchmark_out_format") options->out_format = value;
    argv[kept++] = argv[i];
  }
  *argc = kept;
  argv[kept] = nullptr;
  return true;
}

char** with_default_min_time(int* argc, char** argv) {
  for (int i = 1; i < *argc; ++i)
    if (starts_with(argv[i], "--benchmark_min_time")) return argv;
  // Lives for the whole run: Google Benchmark keeps pointers into argv.
  static std::vector<char*> extended;
  extended.assign(argv, argv + *argc);
  extended.push_back(const_cast<char*>(kDefaultMinTime));
  extended.push_back(nullptr);
  ++*argc;
  return extended.data();
}

void print_usage() {
  std::printf(
      "sync_bench: what each CPU<->GPU synchronization costs, measured on real GEMMs.\n"
      "\n"
      "sync_bench flags:\n"
      "  [--device=<index>]            CUDA device to run on (default 0)\n"
      "  [--sync_mode=spin|yield|blocking|auto]\n"
      "                                how the host waits for the GPU (cudaSetDeviceFlags;\n"
      "                                default auto); recorded in the JSON context\n"
      "  [--sync_accounting=on|off]    count host-blocking CUDA calls per step with CUPTI, in an\n"
      "                                untimed pass after each benchmark (default on)\n"
      "  [--sync_map[=<prefix>]]       instead of benchmarking, map which CUDA calls block the\n"
      "                                host (markdown on stdout; <prefix>.md and .json written)\n"
      "\n"
      "Names: Family/Pattern[/variant...][/dtype/backend][/key:value...]/manual_time,\n"
      "  e.g. SmallGemm/ScalarRead/pinned/bf16/cublaslt/n:256/manual_time.\n"
      "  Select with --benchmark_filter=<regex>, list with --benchmark_list_tests.\n"
      "  --benchmark_min_time defaults to 0.02 (seconds) here.\n"
      "\n"
      "Google Benchmark flags:\n");
}

}  // namespace sync_bench
