// SyncEvery: a small GEMM with one cudaStreamSynchronize every K steps. The sync's fixed cost
// spreads over the K steps of its period: T(K) = t_op + t_sync / K, fitted by SyncEvery/Fit.

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "bench_context.hpp"
#include "families.hpp"
#include "fit.hpp"
#include "graphs_kernels.cuh"
#include "names.hpp"
#include "ops.hpp"
#include "sample_stats.hpp"
#include "step_loop.hpp"

namespace sync_bench {
namespace {

constexpr Dtype kDtype = Dtype::fp16;
constexpr Backend kBackend = Backend::cublas;
constexpr int kN = 512;
const std::vector<int> kPeriods = {1, 2, 4, 8, 16, 32, 64, 128, 256};
constexpr int kFitRounds = 8;  // paired rounds behind each T(K) of the fit

// Batches of exactly 256 steps (a multiple of every K) whose last step syncs: the wait for a
// batch's end event then falls on a sync of the pattern instead of adding syncs of its own.
// Paired with the GEMM alone: its baseline batches are 256 steps too, so periods stay aligned.
LoopConfig aligned_config(int k = 1, const GemmOp* paired_with = nullptr) {
  LoopConfig config;
  config.target_batch_seconds = 1.0;  // never reached: every batch is max_batch steps
  config.max_batch = kPeriods.back();
  config.period = k;
  if (paired_with) config.baseline = [paired_with](std::int64_t i) { paired_with->enqueue(i); };
  return config;
}

// Step i: the GEMM, then the sync when i closes a period of k steps (periods counted from the
// first timed step, so that every batch ends one).
auto sync_every_step(const GemmOp& op, int k, cudaStream_t stream) {
  const PeriodEnds syncs_at(aligned_config(k, &op));
  return [&op, stream, syncs_at](std::int64_t i) {
    op.enqueue(i);
    if (syncs_at(i)) CUDA_CHECK(cudaStreamSynchronize(stream));
  };
}

// One sync every k steps: the time per step falls from GEMM + sync (k = 1) towards the GEMM alone.
void run_period(benchmark::State& state, int k) {
  BenchContext& ctx = bench_context();
  const GemmOp op(ctx.gemm(kDtype, kBackend, kN));
  const StepStats stats = run_timed_steps(state, ctx.stream(), sync_every_step(op, k, ctx.stream()),
                                          aligned_config(k, &op));
  check_final_output(op, stats.last_step, ctx.stream());
  report_step_counters(state, stats, op.flops());
}

// The fit over every K, in one run: for each K the paired overhead against the GEMM alone (rounds
// interleaved, as the benchmarks above measure it), on top of the GEMM's median time over all K;
// then least squares in 1/K. Measured one K after another, the host's drift within the process
// (10-40% on a shared VM) could make the fit say anything; paired, only the sync's share moves
// with K. Its own time is T(1).
void run_fit(benchmark::State& state) {
  BenchContext& ctx = bench_context();
  const cudaStream_t stream = ctx.stream();
  const GemmOp op(ctx.gemm(kDtype, kBackend, kN));
  std::vector<double> periods, baseline_us, overhead_us;
  for (int k : kPeriods) {
    const MeasuredSteps m =
        measure_paired(stream, sync_every_step(op, k, stream), kFitRounds, aligned_config(k, &op));
    periods.push_back(k);
    baseline_us.push_back(m.baseline * 1e6);
    overhead_us.push_back(m.overhead * 1e6);
  }
  const double t_op = median(baseline_us);
  std::vector<double> step_us;
  for (double o : overhead_us) step_us.push_back(t_op + o);
  const SyncCostFit fit = fit_sync_cost(periods, step_us);
  const StepStats stats =
      run_timed_steps(state, stream, sync_every_step(op, 1, stream), aligned_config(1, &op));
  check_final_output(op, stats.last_step, stream);
  report_step_counters(state, stats, op.flops());
  state.counters["t_op_us"] = fit.t_op;
  state.counters["t_sync_us"] = fit.t_sync;
  state.counters["r2"] = fit.r2;
}

}  // namespace

void register_sync_every() {
  for (int k : kPeriods)
    register_family_benchmark(bench_name({"SyncEvery", "StreamSync", name(kDtype), name(kBackend)},
                                         {{"n", kN}, {"k", k}}),
                              [k](benchmark::State& state) { run_period(state, k); });
  register_family_benchmark(
      bench_name({"SyncEvery", "Fit", name(kDtype), name(kBackend)}, {{"n", kN}}), run_fit);
}

}  // namespace sync_bench
