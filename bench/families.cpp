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

}  // namespace sync_bench
