#include "families.hpp"

#include <exception>
#include <string>
#include <utility>

namespace sync_bench {

void register_family_benchmark(const std::string& name,
                               std::function<void(benchmark::State&)> body) {
  benchmark::RegisterBenchmark(name.c_str(),
                               [body = std::move(body)](benchmark::State& state) {
                                 try {
                                   body(state);
                                 } catch (const std::exception& e) {
                                   state.SkipWithError(e.what());
                                 }
                               })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
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
