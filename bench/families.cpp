#include "families.hpp"

#include <exception>
#include <string>
#include <utility>

#include "measure_config.hpp"

namespace sync_bench {

namespace {

std::vector<std::string>& names() {
  static std::vector<std::string> registered;
  return registered;
}

int& failures() {
  static int count = 0;
  return count;
}

}  // namespace

void register_family_benchmark(const std::string& name,
                               std::function<void(benchmark::State&)> body) {
  benchmark::RegisterBenchmark(name.c_str(),
                               [name, body = std::move(body)](benchmark::State& state) {
                                 current_benchmark_name() = name;
                                 try {
                                   body(state);
                                 } catch (const std::exception& e) {
                                   ++failures();
                                   state.SkipWithError(e.what());
                                 }
                               })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
  names().push_back(name + "/manual_time");
}

const std::vector<std::string>& registered_benchmark_names() {
  return names();
}

int failed_benchmarks() {
  return failures();
}

void register_all_families() {
  register_sync_patterns();
  register_host_copy();
  register_overlap();
  register_graph_replay();
  register_data_dependent();
  register_alloc();
  register_sync_every();
  register_multi_stream();
  register_train_loop();
}

}  // namespace sync_bench
