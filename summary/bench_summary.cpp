// The summarizer's own speed: `sync_summary report` on a run of 100,000 benchmarks, generated in
// memory in the shape sync_bench writes (Google Benchmark 1.8 JSON, counters, one repetition).
// BM_Report is the whole command (parse, group, tables, console text); the others are its parts.

#include <benchmark/benchmark.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "benchmarks.hpp"
#include "gb_json.hpp"
#include "render.hpp"
#include "report.hpp"

namespace {

constexpr int kBenchmarks = 100000;

// 10 families x 10 patterns (Async first) x 4 dtypes x 2 backends x 125 sizes = 100,000.
std::string make_run_json() {
  static const char* const kPatterns[] = {
      "Async",          "DeviceSync", "StreamSync", "EventSync",         "ScalarRead",
      "ScalarReadIdle", "Print",      "BulkRead",   "ScalarRead/pinned", "BulkRead/pinned"};
  static const char* const kDtypes[] = {"fp16", "bf16", "fp32", "tf32"};
  static const char* const kBackends[] = {"cublas", "cublaslt"};
  std::string out;
  out.reserve(static_cast<std::size_t>(kBenchmarks) * 640);
  out +=
      "{\n  \"context\": {\n    \"date\": \"2026-11-21T05:00:00+00:00\",\n    \"host_name\": "
      "\"gen\",\n    \"executable\": \"sync_bench\",\n    \"num_cpus\": 16,\n    \"mhz_per_cpu\": "
      "3000,\n    \"library_version\": \"v1.8.3\",\n    \"library_build_type\": \"release\",\n"
      "    \"gpu_name\": \"NVIDIA H100 80GB HBM3\",\n    \"driver_version\": \"13000\",\n"
      "    \"host_wait_mode\": \"spin\"\n  },\n  \"benchmarks\": [\n";
  char buf[1024];
  int i = 0;
  for (int f = 0; f < 10; ++f)
    for (const char* dtype : kDtypes)
      for (const char* backend : kBackends)
        for (int size = 1; size <= 125; ++size)
          for (int p = 0; p < 10; ++p, ++i) {
            const double t = 5.0 + size * 0.25 + p * 1.5 + (i % 7) * 0.01;
            std::snprintf(buf, sizeof buf,
                          "%s    {\n      \"name\": \"Family%d/%s/%s/%s/n:%d/manual_time\",\n"
                          "      \"family_index\": %d,\n      \"per_family_instance_index\": %d,\n"
                          "      \"run_name\": \"Family%d/%s/%s/%s/n:%d/manual_time\",\n"
                          "      \"run_type\": \"iteration\",\n      \"repetitions\": 1,\n"
                          "      \"repetition_index\": 0,\n      \"threads\": 1,\n"
                          "      \"iterations\": 1000,\n      \"real_time\": %.17e,\n"
                          "      \"cpu_time\": %.17e,\n      \"time_unit\": \"us\",\n"
                          "      \"TFLOPS\": %.17e,\n      \"batch\": 1.0000000000000000e+00,\n"
                          "      \"host_cpu_us\": %.17e,\n      \"host_us\": %.17e\n    }",
                          i == 0 ? "" : ",\n", f, kPatterns[p], dtype, backend, size * 64, i / 125,
                          i % 125, f, kPatterns[p], dtype, backend, size * 64, t, t * 1.1,
                          100.0 / t, t * 0.3, t * 0.35);
            out += buf;
          }
  out += "\n  ]\n}\n";
  return out;
}

const std::string& run_json() {
  static const std::string json = make_run_json();
  return json;
}

void BM_Parse(benchmark::State& state) {
  for (auto _ : state) {
    auto run = sync_summary::parse_run(run_json(), "generated.json");
    benchmark::DoNotOptimize(run.entries.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(run_json().size()));
}

void BM_Digest(benchmark::State& state) {
  const auto run = sync_summary::parse_run(run_json(), "generated.json");
  for (auto _ : state) {
    auto data = sync_summary::digest(run);
    benchmark::DoNotOptimize(data.benches.data());
  }
}

void BM_Report(benchmark::State& state) {
  std::size_t chars = 0;
  for (auto _ : state) {
    std::vector<sync_summary::RunData> runs;
    runs.push_back(sync_summary::digest(sync_summary::parse_run(run_json(), "generated.json")));
    runs.back().label = "generated";
    sync_summary::ReportOptions options;
    options.tidy = false;  // what `report --format=console` builds
    const auto doc = sync_summary::build_report(runs, options);
    std::ostringstream out;
    sync_summary::render_console(doc, out);
    chars = out.str().size();
  }
  state.counters["benchmarks"] = kBenchmarks;
  state.counters["json_MB"] = static_cast<double>(run_json().size()) / 1e6;
  state.counters["output_MB"] = static_cast<double>(chars) / 1e6;
}

// The tables and their text, from a run already digested.
void BM_Tables(benchmark::State& state) {
  std::vector<sync_summary::RunData> runs;
  runs.push_back(sync_summary::digest(sync_summary::parse_run(run_json(), "generated.json")));
  runs.back().label = "generated";
  sync_summary::ReportOptions options;
  options.tidy = false;
  for (auto _ : state) {
    const auto doc = sync_summary::build_report(runs, options);
    std::ostringstream out;
    sync_summary::render_console(doc, out);
    benchmark::DoNotOptimize(out.str().data());
  }
}

BENCHMARK(BM_Parse)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Tables)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Digest)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Report)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
