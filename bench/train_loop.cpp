// TrainLoop: a small training-like step (three chained GEMMs with ReLU between them, a mean-square
// loss to a device scalar), its loss read the ways a training loop reads it. The workload behind
// the seeds' claims (".item() cuts throughput 30-50%", "9.4x slower with host syncs").

#include <benchmark/benchmark.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_context.hpp"
#include "families.hpp"
#include "graphs_kernels.cuh"
#include "lagged_reader.hpp"
#include "names.hpp"
#include "step_loop.hpp"

namespace sync_bench {
namespace {

enum class Pattern { Async, ItemEveryStep, LaggedItem, ReadEveryN, GraphReadEveryN };

struct Spec {
  Pattern pattern;
  int n;
  // LaggedItem only: how the loss is handed over (lagged_reader.hpp). mapped: by a kernel that
  // writes it into mapped host memory, not by a copy, so the GPU keeps off the copy engine.
  LaggedReader::Transport transport = LaggedReader::Transport::copy;
};

constexpr Dtype kDtype = Dtype::bf16;
const std::vector<int> kSizes = {512, 1024};
constexpr int kReadEvery = 100;

const char* pattern_name(Pattern p) {
  constexpr std::array<const char*, 5> names = {"Async", "ItemEveryStep", "LaggedItem",
                                                "ReadEveryN", "GraphReadEveryN"};
  return names[static_cast<int>(p)];
}

// True when a read of the state after `steps` steps holds what they wrote.
bool state_matches(const LossState& s, std::int64_t steps, float loss) {
  return s.steps == steps && std::abs(s.loss - loss) <= 1e-3 * std::abs(loss) &&
         std::abs(s.sum - steps * double(loss)) <= 1e-3 * steps * std::abs(loss);
}

void run(benchmark::State& state, const Spec& spec) {
  BenchContext& ctx = bench_context();
  const cudaStream_t stream = ctx.stream();
  const MlpStep mlp(kDtype, spec.n, stream);
  const float loss = mlp.validate();
  const bool use_graph = spec.pattern == Pattern::GraphReadEveryN;
  const Graph graph = use_graph ? capture_graph(stream, [&] { mlp.enqueue(); }) : Graph();
  const GraphExec exec = use_graph ? GraphExec(graph.get()) : GraphExec();
  auto train_step = [&] {
    if (use_graph)
      CUDA_CHECK(cudaGraphLaunch(exec.get(), stream));
    else
      mlp.enqueue();
  };
  PinnedBuffer<LossState> host(1);
  std::int64_t bad_reads = 0;
  // What .item() does: a copy on the stream, a wait for it; then the check that step i wrote it.
  auto read = [&](std::int64_t i) {
    CUDA_CHECK(cudaMemcpyAsync(host.get(), mlp.state(), sizeof(LossState), cudaMemcpyDeviceToHost,
                               stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (!state_matches(*host.get(), i + 1, loss)) ++bad_reads;
  };
  // The previous step's loss, printed while this step runs (lagged_reader.hpp).
  std::optional<LaggedReader> lagged;
  if (spec.pattern == Pattern::LaggedItem)
    lagged.emplace(
        reinterpret_cast<const std::byte*>(mlp.state()), sizeof(LossState),
        [loss](const std::byte* bytes, std::int64_t i) {
          LossState s;
          std::memcpy(&s, bytes, sizeof(s));
          return state_matches(s, i + 1, loss);
        },
        stream, spec.transport);

  // Every pattern but Async is paired with Async: the same steps (eager or replayed) unread.
  // Every step index runs exactly one train step, baseline or not, so reads stay checkable.
  LoopConfig paired;
  paired.baseline = [&](std::int64_t) { train_step(); };
  StepStats stats;
  switch (spec.pattern) {
    case Pattern::Async: {  // no read at all: the loop's throughput ceiling
      LoopConfig config;
      config.step_is_async = true;
      stats = run_timed_steps(
          state, stream, [&](std::int64_t) { train_step(); }, config);
      break;
    }
    case Pattern::ItemEveryStep:  // loss.item() every step: the host waits for every step
      stats = run_timed_steps(
          state, stream,
          [&](std::int64_t i) {
            train_step();
            read(i);
          },
          paired);
      break;
    case Pattern::LaggedItem:  // loss.item() of the step before: the host stays a step ahead
      stats = run_timed_steps(
          state, stream,
          [&](std::int64_t i) {
            train_step();
            if (!lagged->read(i)) ++bad_reads;
          },
          paired);
      if (!lagged->finish()) ++bad_reads;
      break;
    case Pattern::ReadEveryN:         // the loss summed on the device, read every kReadEvery steps;
    case Pattern::GraphReadEveryN: {  // the same with the step replayed from a CUDA graph
      // Batches of kReadEvery steps ending on a read, so that batch ends add no waits of their own.
      LoopConfig config = paired;
      config.target_batch_seconds = 1.0;
      config.max_batch = kReadEvery;
      config.period = kReadEvery;
      const PeriodEnds reads_at(config);
      stats = run_timed_steps(
          state, stream,
          [&](std::int64_t i) {
            train_step();
            if (reads_at(i)) read(i);
          },
          config);
      break;
    }
  }
  read(stats.last_step);
  if (bad_reads > 0)
    throw std::runtime_error(std::to_string(bad_reads) +
                             " loss reads did not hold what their step wrote");
  report_step_counters(state, stats, mlp.flops());
  state.counters["steps_per_s"] = 1.0 / stats.step;
}

}  // namespace

void register_train_loop() {
  using Transport = LaggedReader::Transport;
  for (int n : kSizes)
    for (const Spec spec :
         {Spec{Pattern::Async, n}, Spec{Pattern::ItemEveryStep, n}, Spec{Pattern::LaggedItem, n},
          Spec{Pattern::LaggedItem, n, Transport::mapped}, Spec{Pattern::ReadEveryN, n},
          Spec{Pattern::GraphReadEveryN, n}}) {
      const char* variant = spec.transport == Transport::mapped ? "mapped" : "";
      const std::string bench =
          bench_name({"TrainLoop", pattern_name(spec.pattern), variant, name(kDtype),
                      name(Backend::cublas)},
                     {{"n", n}}) +
          (spec.pattern == Pattern::ReadEveryN || spec.pattern == Pattern::GraphReadEveryN
               ? "/n_read:" + std::to_string(kReadEvery)
               : "");
      register_family_benchmark(bench, [spec](benchmark::State& state) { run(state, spec); });
    }
}

}  // namespace sync_bench
