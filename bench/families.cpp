#include "families.hpp"

#include <chrono>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "measure_config.hpp"
#include "unsupported.hpp"

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

// A skip that is not an error: SkipWithMessage where Google Benchmark has it (1.8: "skipped" in
// the JSON), SkipWithError with a "skipped: " prefix where it does not (1.7), which sync_summary
// reads back as a skip (summary/benchmarks.cpp).
template <class State>
auto skip_benchmark(State& state, const std::string& why, int)
    -> decltype(state.SkipWithMessage(why), void()) {
  state.SkipWithMessage(why);
}
template <class State>
void skip_benchmark(State& state, const std::string& why, long) {
  state.SkipWithError(("skipped: " + why).c_str());
}

}  // namespace

void register_family_benchmark(const std::string& name,
                               std::function<void(benchmark::State&)> body) {
  benchmark::RegisterBenchmark(
      name.c_str(),
      [name, body = std::move(body)](benchmark::State& state) {
        current_benchmark_name() = name;
        try {
          if (injection().fails(name))
            throw std::runtime_error("injected failure (--sync_inject=fail)");
          const auto start = std::chrono::steady_clock::now();
          body(state);
          // The benchmark's whole wall time (set-up, warm-up, batch sizing, the timed rounds and
          // the untimed passes): what the run spends on it, where the manual time is per step.
          state.counters["wall_s"] =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        } catch (const Unsupported& e) {
          skip_benchmark(state, e.what(), 0);
        } catch (const std::bad_alloc&) {
          // A size whose host buffers do not fit in this machine's memory, as Unsupported does
          // for device memory.
          skip_benchmark(state, "host memory: a buffer does not fit", 0);
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
  register_multi_gpu();
  register_data_parallel();
}

}  // namespace sync_bench
