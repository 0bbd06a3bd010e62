// The core family: every way of waiting for the GPU, after a null kernel, a small (launch-bound)
// GEMM and a big (compute-bound) GEMM; and the waits alone after a spin kernel of a set length,
// for how a sync's cost grows with the time the host waits. A step = one op + the pattern's host
// interaction.

#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench_context.hpp"
#include "families.hpp"
#include "lagged_reader.hpp"
#include "mapped_scalar.hpp"
#include "names.hpp"
#include "ops.hpp"
#include "step_loop.hpp"

namespace sync_bench {
namespace {

enum class Workload { NullKernel, SmallGemm, BigGemm, SpinKernel };
enum class Pattern {
  Async,
  DeviceSync,
  StreamSync,
  EventSync,
  EventQuery,
  ScalarRead,
  LaggedRead,
  ScalarReadIdle,
  Print,
  BulkRead
};

struct Spec {
  Workload workload;
  Pattern pattern;
  std::string_view variant{};  // pageable | pinned | mapped (reads), blocking (EventSync)
  Dtype dtype = Dtype::fp32;
  Backend backend = Backend::cublas;
  int n = 0;
  int us = 0;  // SpinKernel: how long each step holds the GPU
};

const char* workload_name(Workload w) {
  switch (w) {
    case Workload::NullKernel:
      return "NullKernel";
    case Workload::SmallGemm:
      return "SmallGemm";
    case Workload::BigGemm:
      return "BigGemm";
    case Workload::SpinKernel:
      return "SpinKernel";
  }
  return "?";
}

const char* pattern_name(Pattern p) {
  switch (p) {
    case Pattern::Async:
      return "Async";
    case Pattern::DeviceSync:
      return "DeviceSync";
    case Pattern::StreamSync:
      return "StreamSync";
    case Pattern::EventSync:
      return "EventSync";
    case Pattern::EventQuery:
      return "EventQuery";
    case Pattern::ScalarRead:
      return "ScalarRead";
    case Pattern::LaggedRead:
      return "LaggedRead";
    case Pattern::ScalarReadIdle:
      return "ScalarReadIdle";
    case Pattern::Print:
      return "Print";
    case Pattern::BulkRead:
      return "BulkRead";
  }
  return "?";
}

// Host destination of a read-back: plain (pageable) memory or page-locked memory.
class HostBuffer {
 public:
  HostBuffer(bool pinned, std::size_t bytes) {
    if (pinned)
      pinned_ = PinnedBuffer<std::byte>(bytes);
    else
      pageable_.assign(bytes, std::byte{0});  // touched now, not on the first copy
  }
  std::byte* get() { return pinned_.get() ? pinned_.get() : pageable_.data(); }

 private:
  PinnedBuffer<std::byte> pinned_;
  std::vector<std::byte> pageable_;
};

std::unique_ptr<Op> make_op(const Spec& spec, BenchContext& ctx) {
  if (spec.workload == Workload::NullKernel) return std::make_unique<NullKernelOp>(ctx.stream());
  if (spec.workload == Workload::SpinKernel)
    return std::make_unique<SpinKernelOp>(ctx.stream(), std::uint64_t{1000} * spec.us);
  return std::make_unique<GemmOp>(ctx.gemm(spec.dtype, spec.backend, spec.n));
}

void run(benchmark::State& state, const Spec& spec) {
  BenchContext& ctx = bench_context();
  const cudaStream_t stream = ctx.stream();
  const std::unique_ptr<Op> op = make_op(spec, ctx);
  const bool bulk = spec.pattern == Pattern::BulkRead;
  const bool mapped = spec.variant == "mapped";
  HostBuffer host(spec.variant == "pinned", bulk ? op->output_bytes() : 16);
  std::optional<MappedScalar> mapped_slot;
  if (mapped && spec.pattern == Pattern::ScalarRead) mapped_slot.emplace();
  // LaggedRead's reads (lagged_reader.hpp): the probe element one step late, copied or (mapped)
  // published by a kernel.
  std::optional<LaggedReader> lagged;
  if (spec.pattern == Pattern::LaggedRead)
    lagged.emplace(
        op->output() + op->probe_offset(), op->probe_bytes(),
        [&op](const std::byte* bytes, std::int64_t step) { return op->read_matches(bytes, step); },
        stream, mapped ? LaggedReader::Transport::mapped : LaggedReader::Transport::copy);
  const std::size_t read_offset = bulk ? 0 : op->probe_offset();
  const std::size_t read_bytes = bulk ? op->output_bytes() : op->probe_bytes();
  const std::byte* checked = host.get() + (bulk ? op->probe_offset() : 0);
  // cudaEventBlockingSync: the waiting thread sleeps instead of spinning.
  Event done(cudaEventDisableTiming | (spec.variant == "blocking" ? cudaEventBlockingSync : 0));
  std::int64_t bad_reads = 0;
  std::size_t printed = 0;

  // As PyTorch's .item() and .cpu() do: a copy on the op's stream, then a wait for that stream.
  auto read_back = [&](std::int64_t step) {
    CUDA_CHECK(cudaMemcpyAsync(host.get(), op->output() + read_offset, read_bytes,
                               cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (!op->read_matches(checked, step)) ++bad_reads;
  };
  // The zero-copy read: a kernel behind the op hands the element over through mapped host
  // memory, and the host spins on it; no CUDA call waits.
  auto read_mapped = [&](std::int64_t step) {
    const std::uint32_t seq =
        mapped_slot->publish(op->output() + op->probe_offset(), op->probe_bytes(), stream);
    mapped_slot->wait(seq, stream);
    if (!op->read_matches(mapped_slot->value(), step)) ++bad_reads;
  };

  // Every pattern but Async is measured against Async, paired (step_loop.hpp); ScalarReadIdle
  // runs no op in its steps, so it has no baseline to pair with.
  auto async_step = [&](std::int64_t i) { op->enqueue(i); };
  LoopConfig paired;
  paired.baseline = async_step;
  StepStats stats;
  switch (spec.pattern) {
    case Pattern::Async: {
      LoopConfig config;
      config.step_is_async = true;
      stats = run_timed_steps(state, stream, async_step, config);
      break;
    }
    case Pattern::DeviceSync:
      stats = run_timed_steps(
          state, stream,
          [&](std::int64_t i) {
            op->enqueue(i);
            CUDA_CHECK(cudaDeviceSynchronize());
          },
          paired);
      break;
    case Pattern::StreamSync:
      stats = run_timed_steps(
          state, stream,
          [&](std::int64_t i) {
            op->enqueue(i);
            CUDA_CHECK(cudaStreamSynchronize(stream));
          },
          paired);
      break;
    case Pattern::EventSync:
      stats = run_timed_steps(
          state, stream,
          [&](std::int64_t i) {
            op->enqueue(i);
            CUDA_CHECK(cudaEventRecord(done.get(), stream));
            CUDA_CHECK(cudaEventSynchronize(done.get()));
          },
          paired);
      break;
    case Pattern::EventQuery:
      // A framework's "is it done yet?" loop: polls cudaEventQuery, so that no call blocks.
      stats = run_timed_steps(
          state, stream,
          [&](std::int64_t i) {
            op->enqueue(i);
            CUDA_CHECK(cudaEventRecord(done.get(), stream));
            // "Not ready" is not kept as the last error for the next launch's check to read
            // (tested: GpuOps.MappedScalarWaitPastTheStallCheckLeavesNoErrorBehind).
            cudaError_t status;
            while ((status = cudaEventQuery(done.get())) == cudaErrorNotReady) {
            }
            CUDA_CHECK(status);
          },
          paired);
      break;
    case Pattern::ScalarRead:
    case Pattern::BulkRead:
      stats = run_timed_steps(
          state, stream,
          [&](std::int64_t i) {
            op->enqueue(i);
            if (mapped)
              read_mapped(i);
            else
              read_back(i);
          },
          paired);
      break;
    case Pattern::LaggedRead:
      stats = run_timed_steps(
          state, stream,
          [&](std::int64_t i) {
            op->enqueue(i);
            if (!lagged->read(i)) ++bad_reads;
          },
          paired);
      if (!lagged->finish()) ++bad_reads;
      break;
    case Pattern::Print:
      stats = run_timed_steps(
          state, stream,
          [&](std::int64_t i) {
            op->enqueue(i);
            read_back(i);
            char text[32];  // the sink: print(t[0]) formats the value as text
            printed += std::snprintf(text, sizeof(text), "%.6g", op->decode(checked));
            benchmark::DoNotOptimize(text);
          },
          paired);
      break;
    case Pattern::ScalarReadIdle:
      // .item() after a sync: the op ran once, before timing; each step is the read alone.
      op->enqueue(0);
      CUDA_CHECK(cudaStreamSynchronize(stream));
      stats = run_timed_steps(state, stream, [&](std::int64_t) { read_back(0); });
      stats.last_step = 0;
      break;
  }
  check_final_output(*op, stats.last_step, stream);
  if (bad_reads > 0)
    throw std::runtime_error(std::to_string(bad_reads) +
                             " reads did not return the value their step wrote");
  report_step_counters(state, stats, spec.pattern == Pattern::ScalarReadIdle ? 0.0 : op->flops());
  if (bulk) state.SetBytesProcessed(static_cast<std::int64_t>(read_bytes));  // per step
  benchmark::DoNotOptimize(printed);
}

void add(const Spec& spec) {
  const char* workload = workload_name(spec.workload);
  const char* pattern = pattern_name(spec.pattern);
  std::string bench;
  if (spec.workload == Workload::NullKernel)
    bench = bench_name({workload, pattern, spec.variant});
  else if (spec.workload == Workload::SpinKernel)
    bench = bench_name({workload, pattern, spec.variant}, {{"us", spec.us}});
  else
    bench = bench_name({workload, pattern, spec.variant, name(spec.dtype), name(spec.backend)},
                       {{"n", spec.n}});
  register_family_benchmark(bench, [spec](benchmark::State& state) { run(state, spec); });
}

// Patterns in registration order; `keep` picks those a workload gets.
void add_patterns(Spec spec, bool (*keep)(Pattern)) {
  const std::vector<std::pair<Pattern, std::string_view>> patterns = {
      {Pattern::Async, ""},
      {Pattern::DeviceSync, ""},
      {Pattern::StreamSync, ""},
      {Pattern::EventSync, ""},
      {Pattern::EventSync, "blocking"},
      {Pattern::EventQuery, ""},
      {Pattern::ScalarRead, "pageable"},
      {Pattern::ScalarRead, "pinned"},
      {Pattern::ScalarRead, "mapped"},
      {Pattern::LaggedRead, ""},
      {Pattern::LaggedRead, "mapped"},
      {Pattern::ScalarReadIdle, ""},
      {Pattern::Print, ""},
      {Pattern::BulkRead, "pageable"},
      {Pattern::BulkRead, "pinned"}};
  for (const auto& [pattern, variant] : patterns) {
    if (!keep(pattern)) continue;
    spec.pattern = pattern;
    spec.variant = variant;
    add(spec);
  }
}

const std::vector<int> kSmallGemmSizes = {128, 256, 512, 1024};  // launch-bound
const std::vector<int> kBigGemmSizes = {2048, 4096, 8192};       // compute-bound
// From a step shorter than a launch-bound GEMM to one as long as an 8192 GEMM: after a wait of a
// millisecond the host's next launch is slower than after 10 us (results/h200/sync_wait/).
const std::vector<int> kSpinKernelMicroseconds = {10, 100, 1000};

bool every_pattern(Pattern) {
  return true;
}
// A null kernel's output is one element: nothing more to bulk-read.
bool all_but_bulk(Pattern p) {
  return p != Pattern::BulkRead;
}
// The spin kernel's output is the null kernel's: only the waits and reads, whose cost depends on
// how long the host waited (ScalarReadIdle runs no op; Print adds formatting, which NullKernel
// measures already).
bool waits_only(Pattern p) {
  return p == Pattern::Async || p == Pattern::DeviceSync || p == Pattern::StreamSync ||
         p == Pattern::EventSync || p == Pattern::EventQuery || p == Pattern::ScalarRead ||
         p == Pattern::LaggedRead;
}

}  // namespace

void register_sync_patterns() {
  add_patterns(Spec{Workload::NullKernel, Pattern::Async}, all_but_bulk);
  // Patterns innermost: one GEMM configuration is set up once and shared by all its patterns.
  for (Workload w : {Workload::SmallGemm, Workload::BigGemm})
    for (Dtype d : kAllDtypes)
      for (Backend b : kAllBackends) {
        if (b == Backend::cublas && traits(d).cublaslt_only) continue;
        for (int n : w == Workload::SmallGemm ? kSmallGemmSizes : kBigGemmSizes)
          add_patterns(Spec{w, Pattern::Async, "", d, b, n}, every_pattern);
      }
  for (int us : kSpinKernelMicroseconds) {
    Spec spec{Workload::SpinKernel, Pattern::Async};
    spec.us = us;
    add_patterns(spec, waits_only);
  }
}

}  // namespace sync_bench
