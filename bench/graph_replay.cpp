// GraphReplay: K small ops launched one by one (Eager) against the same K ops captured once into
// a CUDA graph and replayed (Replay); what making the graph costs (Capture), and after how many
// replays it pays for itself. A step = K ops; us_per_op = the step's time / K.

#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "bench_context.hpp"
#include "families.hpp"
#include "graphs_kernels.cuh"
#include "names.hpp"
#include "ops.hpp"
#include "step_loop.hpp"

namespace sync_bench {
namespace {

enum class Workload { NullKernel, SmallGemm };
enum class Pattern { Eager, Replay, Capture };

struct Spec {
  Workload workload;
  Pattern pattern;
  int k;  // ops per step
};

constexpr Dtype kGemmDtype = Dtype::fp16;
constexpr Backend kGemmBackend = Backend::cublas;
constexpr int kGemmN = 512;
const std::vector<int> kOpsPerStep = {1, 10, 100};
// Rounds of an eager batch and a replay batch, alternating, behind the step times Capture measures
// in setup: odd, so that a replay runs last. Interleaved, so that a slow stretch of the host (it
// made 5 eager batches in a row 2.4x slower than the Eager row on an H100) falls on a few batches
// of each, which the medians leave out. 61 (up to a third of a second a row): on another H100 a
// stretch 3.5x slower outlasted 15 rounds (16 ms at the usual speed) and the sizing of the row
// after them (results/h100/acceptance6/call4).
constexpr int kSetupRounds = 61;
static_assert(kSetupRounds % 2 == 1, "a replay must run last: check_final_output expects it");

const char* pattern_name(Pattern p) {
  return p == Pattern::Eager ? "Eager" : p == Pattern::Replay ? "Replay" : "Capture";
}

std::unique_ptr<Op> make_op(Workload w, BenchContext& ctx) {
  if (w == Workload::NullKernel) return std::make_unique<NullKernelOp>(ctx.stream());
  return std::make_unique<GemmOp>(ctx.gemm(kGemmDtype, kGemmBackend, kGemmN));
}

void run(benchmark::State& state, const Spec& spec) {
  BenchContext& ctx = bench_context();
  const cudaStream_t stream = ctx.stream();
  const std::unique_ptr<Op> op = make_op(spec.workload, ctx);
  const int k = spec.k;
  // Step i enqueues ops i*k .. i*k+k-1: the last op's value tells which step ran last.
  auto eager = [&](std::int64_t i) {
    for (int j = 0; j < k; ++j) op->enqueue(i * k + j);
  };
  auto add_counters = [&](const StepStats& stats, double flops_per_step) {
    report_step_counters(state, stats, flops_per_step);
    state.counters["us_per_op"] = stats.step / k * 1e6;
  };

  LoopConfig async_config;  // eager launches and replays only enqueue
  async_config.step_is_async = true;

  // Launch costs, eager: the host launches each op (the GPU waits on it when ops are short).
  if (spec.pattern == Pattern::Eager) {
    const StepStats stats = run_timed_steps(state, stream, eager, async_config);
    check_final_output(*op, stats.last_step * k + k - 1, stream);
    add_counters(stats, op->flops() * k);
    return;
  }

  // The graph of ops 0..k-1, checked once: a replay over the value op k writes must leave op k-1's.
  op->enqueue(0);  // first launches (module loading) stay out of the capture
  const Graph graph = capture_graph(stream, [&] { eager(0); });
  const GraphExec exec(graph.get());
  auto replay = [&](std::int64_t) { CUDA_CHECK(cudaGraphLaunch(exec.get(), stream)); };
  op->enqueue(k);
  replay(0);
  check_final_output(*op, k - 1, stream);
  state.counters["graph_nodes"] = static_cast<double>(graph_nodes(graph));

  // Replay: one cudaGraphLaunch per step; the GPU runs the k nodes without the host.
  if (spec.pattern == Pattern::Replay) {
    op->enqueue(k);
    const StepStats stats = run_timed_steps(state, stream, replay, async_config);
    check_final_output(*op, k - 1, stream);
    add_counters(stats, op->flops() * k);
    return;
  }

  // Capture: capturing the k ops + instantiating + destroying, host work on an idle stream. It pays
  // for itself after capture / (eager - replay) replays, eager and replay measured in setup in
  // event-bracketed batches as the two benchmarks above (-1: replay saves nothing, the graph never
  // pays).
  LoopConfig setup_config;
  setup_config.baseline = replay;
  const MeasuredSteps setup = measure_paired(stream, eager, kSetupRounds, setup_config);
  check_final_output(*op, k - 1, stream);
  const double eager_s = setup.step;
  const double replay_s = setup.baseline;
  const StepStats stats = run_timed_steps(state, stream, [&](std::int64_t) {
    const Graph captured = capture_graph(stream, [&] { eager(0); });
    const GraphExec instantiated(captured.get());
  });
  add_counters(stats, 0.0);
  const double capture_s = stats.step;
  state.counters["eager_us"] = eager_s * 1e6;
  state.counters["replay_us"] = replay_s * 1e6;
  state.counters["break_even_replays"] = eager_s > replay_s ? capture_s / (eager_s - replay_s) : -1;
}

void add(const Spec& spec) {
  const std::string bench =
      spec.workload == Workload::NullKernel
          ? bench_name({"GraphReplay", pattern_name(spec.pattern), "null_kernel"}, {{"k", spec.k}})
          : bench_name(
                {"GraphReplay", pattern_name(spec.pattern), name(kGemmDtype), name(kGemmBackend)},
                {{"n", kGemmN}, {"k", spec.k}});
  register_family_benchmark(bench, [spec](benchmark::State& state) { run(state, spec); });
}

}  // namespace

void register_graph_replay() {
  for (Workload w : {Workload::NullKernel, Workload::SmallGemm})
    for (int k : kOpsPerStep)
      for (Pattern p : {Pattern::Eager, Pattern::Replay, Pattern::Capture}) add(Spec{w, p, k});
}

}  // namespace sync_bench
