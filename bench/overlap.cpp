// Overlap: double buffering (seed 001). Batch i+1 is copied H2D on a copy stream while batch i is
// computed, against one stream doing copy-then-compute, and against PyTorch's blocking copy from
// pageable memory. A step = one batch: its copy, then its compute: a check of every word of the
// batch that arrived, plus as many bf16 GEMMs (cuBLAS, n = 4096) as take the time of the copy.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_context.hpp"
#include "copies_kernels.cuh"
#include "families.hpp"
#include "names.hpp"
#include "ops.hpp"
#include "step_loop.hpp"

namespace sync_bench {
namespace {

enum class Pattern { DoubleBuffer, Serial, PageableBlocking };

constexpr int kGemmN = 4096;
constexpr int kHostBatches = 3;  // > 2 buffers: a buffer never receives the batch it holds
std::uint32_t seed_of(std::int64_t batch) {
  return 100 + static_cast<std::uint32_t>(batch % kHostBatches);
}

// Copy alone and compute alone, measured once per batch size so every pattern shares them.
struct Calibration {
  int gemms = 1;
  double copy_seconds = 0.0, compute_seconds = 0.0;
};

void run(benchmark::State& state, Pattern pattern, std::size_t bytes) {
  BenchContext& ctx = bench_context();
  const cudaStream_t compute_stream = ctx.stream();  // the GEMM's stream; the timed one
  const Gemm& gemm = ctx.gemm(Dtype::bf16, Backend::cublas, kGemmN);
  const GemmOp op(gemm);
  Stream copy_stream(cudaStreamNonBlocking);
  const std::size_t words = bytes / sizeof(std::uint32_t);
  const bool pinned = pattern != Pattern::PageableBlocking;
  DeviceBuffer<std::uint32_t> device[2] = {DeviceBuffer<std::uint32_t>(words),
                                           DeviceBuffer<std::uint32_t>(words)};
  DeviceBuffer<unsigned long long> mismatches(1);
  std::vector<PinnedBuffer<std::uint32_t>> pinned_batches;
  std::vector<std::vector<std::uint32_t>> pageable_batches;
  std::vector<std::uint32_t*> host;
  for (int b = 0; b < kHostBatches; ++b) {
    if (pinned) {
      host.push_back(pinned_batches.emplace_back(words).get());
    } else {
      host.push_back(pageable_batches.emplace_back(words).data());
    }
    fill_pattern(device[0].get(), words, seed_of(b), compute_stream);
    CUDA_CHECK(cudaMemcpyAsync(host.back(), device[0].get(), bytes, cudaMemcpyDeviceToHost,
                               compute_stream));
  }
  CUDA_CHECK(cudaMemsetAsync(mismatches.get(), 0, mismatches.bytes(), compute_stream));
  CUDA_CHECK(cudaStreamSynchronize(compute_stream));

  auto copy = [&](std::int64_t batch, cudaStream_t stream, const std::uint32_t* from) {
    CUDA_CHECK(
        cudaMemcpyAsync(device[batch % 2].get(), from, bytes, cudaMemcpyHostToDevice, stream));
  };
  static std::map<std::size_t, Calibration> calibrations;
  if (!calibrations.count(bytes)) {
    Calibration c;
    const PinnedBuffer<std::uint32_t> source(words);
    c.copy_seconds = measure_step_seconds(
        copy_stream.get(), [&](std::int64_t) { copy(0, copy_stream.get(), source.get()); }, 2);
    const double gemm_seconds = measure_step_seconds(
        compute_stream, [&](std::int64_t) { gemm.enqueue(); }, 2);
    c.gemms = std::max(1, static_cast<int>(std::lround(c.copy_seconds / gemm_seconds)));
    calibrations[bytes] = c;
  }
  Calibration& cal = calibrations[bytes];
  auto compute = [&](std::int64_t batch) {
    count_pattern_mismatches(device[batch % 2].get(), 0, words, seed_of(batch), mismatches.get(),
                             compute_stream);
    for (int g = 0; g < cal.gemms; ++g) op.enqueue(batch);
  };
  if (cal.compute_seconds == 0.0) {
    // Batch 0 in its buffer, checked again and again: no mismatch, so no atomics, as in the run.
    copy(0, compute_stream, host[0]);
    cal.compute_seconds = measure_step_seconds(
        compute_stream, [&](std::int64_t) { compute(0); }, 2);
    CUDA_CHECK(cudaMemsetAsync(mismatches.get(), 0, mismatches.bytes(), compute_stream));
  }

  Event copied[2] = {Event(cudaEventDisableTiming), Event(cudaEventDisableTiming)};
  Event consumed[2] = {Event(cudaEventDisableTiming), Event(cudaEventDisableTiming)};
  LoopConfig config;
  config.target_batch_seconds = 10e-3;  // a step is 0.3-3 ms: several steps per batch
  config.step_is_async = pattern != Pattern::PageableBlocking;
  StepStats stats;
  switch (pattern) {
    case Pattern::DoubleBuffer:
      // Copy of batch i+1 runs beside compute of batch i: events order the two streams, in both
      // directions (a buffer is refilled only once the compute that reads it is done). The
      // compute stream waits for batch i+1's copy at the end of step i, not at the start of step
      // i+1: the same order for the GPU, and a batch's stop event (on the compute stream) then
      // covers its last step's copy too, which would otherwise run past it into the next batch.
      stats = run_timed_steps(
          state, compute_stream,
          [&](std::int64_t i) {
            const std::int64_t next = i + 1;
            if (i == 0) {
              copy(0, copy_stream.get(), host[0]);
              CUDA_CHECK(cudaEventRecord(copied[0].get(), copy_stream.get()));
              CUDA_CHECK(cudaStreamWaitEvent(compute_stream, copied[0].get(), 0));
            }
            compute(i);
            CUDA_CHECK(cudaEventRecord(consumed[i % 2].get(), compute_stream));
            CUDA_CHECK(cudaStreamWaitEvent(copy_stream.get(), consumed[next % 2].get(), 0));
            copy(next, copy_stream.get(), host[next % kHostBatches]);
            CUDA_CHECK(cudaEventRecord(copied[next % 2].get(), copy_stream.get()));
            CUDA_CHECK(cudaStreamWaitEvent(compute_stream, copied[next % 2].get(), 0));
          },
          config);
      break;
    case Pattern::Serial:
      // The same pinned copy and compute in one stream: the time is their sum.
      stats = run_timed_steps(
          state, compute_stream,
          [&](std::int64_t i) {
            copy(i, compute_stream, host[i % kHostBatches]);
            compute(i);
          },
          config);
      break;
    case Pattern::PageableBlocking:
      // tensor.to("cuda") from pageable memory: a staged copy, then a wait for the stream.
      stats = run_timed_steps(
          state, compute_stream,
          [&](std::int64_t i) {
            copy(i, compute_stream, host[i % kHostBatches]);
            CUDA_CHECK(cudaStreamSynchronize(compute_stream));
            compute(i);
          },
          config);
      break;
  }

  // Every compute saw its own batch; the last batch is where it belongs and differs from the next.
  CUDA_CHECK(cudaDeviceSynchronize());
  unsigned long long seen_wrong = 0;
  CUDA_CHECK(cudaMemcpy(&seen_wrong, mismatches.get(), sizeof(seen_wrong), cudaMemcpyDeviceToHost));
  const std::int64_t last = stats.last_step;
  const std::uint32_t* last_buffer = device[last % 2].get();
  if (seen_wrong > 0 || pattern_mismatches(last_buffer, 0, words, seed_of(last), compute_stream) ||
      !pattern_mismatches(last_buffer, 0, words, seed_of(last + 1), compute_stream))
    throw std::runtime_error(std::to_string(seen_wrong) +
                             " words were computed on before their batch arrived");
  check_final_output(op, last, compute_stream);

  report_step_counters(state, stats, cal.gemms * gemm.flops());
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));  // per step
  const double step_seconds = stats.step;
  state.counters["copy_us"] = cal.copy_seconds * 1e6;
  state.counters["compute_us"] = cal.compute_seconds * 1e6;
  state.counters["gemms"] = cal.gemms;
  // 1: no overlap (copy + compute); 0.5: a copy completely hidden behind an equal compute.
  state.counters["overlap_efficiency"] = step_seconds / (cal.copy_seconds + cal.compute_seconds);
}

const char* pattern_name(Pattern p) {
  switch (p) {
    case Pattern::DoubleBuffer:
      return "DoubleBuffer";
    case Pattern::Serial:
      return "Serial";
    case Pattern::PageableBlocking:
      return "PageableBlocking";
  }
  return "?";
}

}  // namespace

void register_overlap() {
  for (std::size_t bytes : {std::size_t(16) << 20, std::size_t(64) << 20})
    for (Pattern p : {Pattern::DoubleBuffer, Pattern::Serial, Pattern::PageableBlocking})
      register_family_benchmark(
          bench_name({"Overlap", pattern_name(p)}, {{"bytes", static_cast<std::int64_t>(bytes)}}),
          [p, bytes](benchmark::State& state) { run(state, p, bytes); });
}

}  // namespace sync_bench
