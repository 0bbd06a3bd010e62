#pragma once
// Small Google Benchmark 1.7.1-style JSON runs written by the tests themselves: one iteration row
// per repetition, the counters sync_bench sets (overhead_us and its quartiles, baseline_us,
// gpu_bound), and a context that can be varied. Numbers are written as Google Benchmark writes
// them: shortest round-trip text, bare NaN / Infinity for non-finite values.

#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace sync_summary::test {

// One benchmark: its repetitions' real_time (us), optional per-repetition counters.
struct FakeBench {
  std::string name;
  std::vector<double> times;
  std::map<std::string, std::vector<double>> counters;  // one value per repetition
  std::string error;                                    // non-empty: a SkipWithError row
};

inline std::string json_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

// A paired row (sync_bench's paired patterns), one repetition per process with its own Async
// baseline: real_time = baseline + overhead, the overhead's quartiles spread +-quartile around
// it, gpu_bound 0.
inline FakeBench paired_processes(std::string name, const std::vector<double>& baseline,
                                  const std::vector<double>& overhead, double quartile = 0.05) {
  FakeBench b{std::move(name), {}, {}, {}};
  for (std::size_t i = 0; i < overhead.size(); ++i) {
    const double o = overhead[i];
    b.times.push_back(baseline[i] + o);
    b.counters["baseline_us"].push_back(baseline[i]);
    b.counters["overhead_us"].push_back(o);
    b.counters["overhead_p25_us"].push_back(o - quartile);
    b.counters["overhead_p75_us"].push_back(o + quartile);
    b.counters["gpu_bound"].push_back(0.0);
  }
  return b;
}

// A row whose step blocks the host once (syncs_per_step 1 in every repetition): compare's bound
// "sync", the pace of sync_bench's sync patterns.
inline FakeBench syncing_every_step(FakeBench b) {
  b.counters["syncs_per_step"] = std::vector<double>(b.times.size(), 1.0);
  return b;
}

// A paired sync after a GPU-bound step of `step` us (busy all but 1 us of it, syncing once a
// step), one repetition per overhead given: BigGemm's and SpinKernel's sync patterns.
inline FakeBench sync_after_gpu_step(std::string name, double step,
                                     const std::vector<double>& overhead) {
  FakeBench b = syncing_every_step(
      paired_processes(std::move(name), std::vector<double>(overhead.size(), step), overhead, 0.2));
  b.counters["gpu_busy_us"] = std::vector<double>(overhead.size(), step - 1.0);
  b.counters["gpu_bound"] = std::vector<double>(overhead.size(), 1.0);
  return b;
}

// The same with one baseline for every process.
inline FakeBench paired(std::string name, const std::vector<double>& overhead,
                        double baseline = 2.0, double quartile = 0.05) {
  return paired_processes(std::move(name), std::vector<double>(overhead.size(), baseline), overhead,
                          quartile);
}

// An unpaired row with gpu_bound = bound (0 host-bound, 1 GPU-bound; < 0: no gpu_bound).
inline FakeBench unpaired(std::string name, const std::vector<double>& times, double bound) {
  FakeBench b{std::move(name), times, {}, {}};
  if (bound >= 0) b.counters["gpu_bound"] = std::vector<double>(times.size(), bound);
  return b;
}

inline FakeBench failing(std::string name, std::string why) {
  return FakeBench{std::move(name), {}, {}, std::move(why)};
}

inline std::string gb_json(const std::vector<FakeBench>& benches,
                           const std::map<std::string, std::string>& context_overrides = {}) {
  std::map<std::string, std::string> context = {{"gpu_name", "NVIDIA H100 80GB HBM3"},
                                                {"gpu_cc", "9.0"},
                                                {"gpu_uuid", "GPU-test-0"},
                                                {"driver_version", "13000"},
                                                {"runtime_version", "13000"},
                                                {"host_wait_mode", "spin"},
                                                {"cpu_model", "Fake CPU"},
                                                {"sync_accounting", "off"},
                                                {"nvml_driver_version", "580.1"}};
  for (const auto& [k, v] : context_overrides) context[k] = v;
  std::string s =
      "{\n  \"context\": {\n    \"date\": \"2026-11-22T00:00:00+00:00\",\n"
      "    \"host_name\": \"test\",\n    \"executable\": \"sync_bench\",\n"
      "    \"num_cpus\": 2,\n    \"library_build_type\": \"release\"";
  for (const auto& [k, v] : context) s += ",\n    \"" + k + "\": \"" + v + "\"";
  s += "\n  },\n  \"benchmarks\": [";
  bool first = true;
  std::size_t family = 0;
  for (const FakeBench& b : benches) {
    const std::string full = b.name + "/manual_time";
    const std::string head = "\n    {\"name\": \"" + full +
                             "\", \"family_index\": " + std::to_string(family++) +
                             ", \"per_family_instance_index\": 0, \"run_name\": \"" + full +
                             "\", \"run_type\": \"iteration\", ";
    if (!b.error.empty()) {
      s += std::string(first ? "" : ",") + head +
           "\"repetitions\": 1, \"repetition_index\": 0, \"threads\": 1, \"error_occurred\": "
           "true, \"error_message\": \"" +
           b.error +
           "\", \"iterations\": 0, \"real_time\": 0, \"cpu_time\": 0, "
           "\"time_unit\": \"us\"}";
      first = false;
      continue;
    }
    for (std::size_t i = 0; i < b.times.size(); ++i) {
      s += std::string(first ? "" : ",") + head +
           "\"repetitions\": " + std::to_string(b.times.size()) +
           ", \"repetition_index\": " + std::to_string(i) +
           ", \"threads\": 1, \"iterations\": 1000, \"real_time\": " + json_number(b.times[i]) +
           ", \"cpu_time\": " + json_number(b.times[i] * 0.5) + ", \"time_unit\": \"us\"";
      for (const auto& [k, v] : b.counters) s += ", \"" + k + "\": " + json_number(v[i]);
      s += "}";
      first = false;
    }
  }
  s += "\n  ]\n}\n";
  return s;
}

inline std::string write_run(const std::string& file, const std::vector<FakeBench>& benches,
                             const std::map<std::string, std::string>& context_overrides = {}) {
  std::ofstream(file, std::ios::binary) << gb_json(benches, context_overrides);
  return file;
}

}  // namespace sync_summary::test
