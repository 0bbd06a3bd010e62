// The checks every benchmark leans on must catch what they are there to catch: a GEMM that is
// wrong or unwritten, and a read that did not wait for the step that wrote the value.

#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuda_resources.hpp"
#include "device_info.hpp"
#include "device_kernels.cuh"
#include "gemm.hpp"
#include "gpu_guard.hpp"
#include "injected_cost.hpp"
#include "lagged_reader.hpp"
#include "mapped_scalar.hpp"
#include "measure_config.hpp"
#include "ops.hpp"
#include "step_loop.hpp"
#include "sync_accounting.hpp"
#include "unsupported.hpp"

namespace sync_bench {
namespace {

template <class Check>
void read_probe_after(const Op& op, std::int64_t step, cudaStream_t stream, Check&& check) {
  alignas(16) std::byte element[16];
  op.enqueue(step);
  CUDA_CHECK(cudaMemcpyAsync(element, op.output() + op.probe_offset(), op.probe_bytes(),
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  check(element);
}

TEST(GpuOps, NullKernelReadMatchesOnlyItsOwnStep) {
  SKIP_WITHOUT_GPU();
  Stream stream;
  NullKernelOp op(stream.get());
  read_probe_after(op, 41, stream.get(), [&](const void* e) {
    EXPECT_TRUE(op.read_matches(e, 41));
    EXPECT_FALSE(op.read_matches(e, 40));
  });
  EXPECT_NO_THROW(check_final_output(op, 41, stream.get()));
  EXPECT_THROW(check_final_output(op, 42, stream.get()), std::runtime_error);
}

// A size that does not fit skips its benchmark (Unsupported), and leaves no error behind for the
// next allocation to trip on.
TEST(GpuOps, AnAllocationThatDoesNotFitIsUnsupported) {
  SKIP_WITHOUT_GPU();
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  try {
    DeviceBuffer<std::byte> too_big(2 * total_bytes);
    FAIL() << "allocated twice the GPU's memory";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("device memory does not fit"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(PinnedBuffer<std::byte>(std::size_t{1} << 56), Unsupported);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  DeviceBuffer<std::byte> fits(1 << 20);
  EXPECT_NE(fits.get(), nullptr);
}

// The baseline of a paired measurement may launch what the step never does (CrossDevice's
// kernel on a second GPU): it gets its own warm-up, after the step's and before the first round.
TEST(GpuOps, PairedBaselineIsWarmedUpBeforeTheFirstRound) {
  SKIP_WITHOUT_GPU();
  Stream stream;
  NullKernelOp op(stream.get());
  std::string order;  // 's' a step, 'b' a baseline step, in call order
  std::int64_t next = 0;
  std::int64_t first_after_baseline = -1;  // the step's index once the baseline has run
  auto record = [&](char who, std::int64_t i) {
    EXPECT_EQ(i, next++) << "every call takes the next step index";
    if (who == 's' && first_after_baseline < 0 && order.find('b') != std::string::npos)
      first_after_baseline = i;
    order += who;
    op.enqueue(i);
  };
  LoopConfig config;
  config.min_batch = config.max_batch = 4;
  config.baseline = [&](std::int64_t i) { record('b', i); };
  measure_paired(
      stream.get(), [&](std::int64_t i) { record('s', i); }, 2, config);
  // Step warm-up (3) and sizing (3 probes of 3), baseline warm-up (3), round 0 (step first),
  // round 1; each batch after its lead-in of one step (a period).
  EXPECT_EQ(order,
            "sss"
            "sssssssss"
            "bbb"
            "sssss"  // round 0: the step's lead-in and batch,
            "bbbbb"  // then the baseline's
            "bbbbb"  // round 1: the baseline first
            "sssss");
  // What a pattern acting every few steps counts its periods from (SyncEvery, TrainLoop).
  EXPECT_EQ(first_after_baseline, first_timed_step(config));
}

// Runs `body` once as a Google Benchmark benchmark of one iteration (as sync_bench's
// --benchmark_min_time does), printing nothing.
void run_as_benchmark(const std::string& name, std::function<void(benchmark::State&)> body) {
  struct Quiet : benchmark::BenchmarkReporter {
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>&) override {}
  } quiet;
  benchmark::RegisterBenchmark(name.c_str(), std::move(body))->UseManualTime()->Iterations(1);
  ASSERT_EQ(benchmark::RunSpecifiedBenchmarks(&quiet, "^" + name + "/"), 1u) << name;
}

// A pattern that acts every `period` steps counts its periods from first_timed_step: then every
// timed batch (a whole number of periods) ends on the pattern's action, paired or not.
TEST(GpuOps, TimedBatchesEndOnAPeriodCountedFromTheFirstTimedStep) {
  SKIP_WITHOUT_GPU();
  Stream stream;
  NullKernelOp op(stream.get());
  // Batches forced to 8 steps, and batches sized by the rule (a null kernel: about 4096 steps,
  // which a period of 10 does not divide).
  for (const auto& [paired, period] :
       {std::pair{false, 4}, std::pair{true, 4}, std::pair{false, 10}, std::pair{true, 10}}) {
    LoopConfig config;
    config.period = period;
    if (period == 4) config.min_batch = config.max_batch = 8;
    if (paired) config.baseline = [&op](std::int64_t i) { op.enqueue(i); };
    std::vector<std::int64_t> timed;  // the step's indices in the timed rounds
    const std::string name = std::string(paired ? "PeriodsPaired" : "PeriodsUnpaired") +
                             "/period:" + std::to_string(period);
    run_as_benchmark(name, [&](benchmark::State& state) {
      run_timed_steps(
          state, stream.get(),
          [&](std::int64_t i) {
            if (step_phase() == StepPhase::timed) timed.push_back(i);
            op.enqueue(i);
          },
          config);
    });
    ASSERT_FALSE(timed.empty());
    for (std::size_t k = 0; k < timed.size(); ++k) {
      const bool batch_ends = k + 1 == timed.size() || timed[k + 1] != timed[k] + 1;
      if (batch_ends) {
        EXPECT_TRUE(PeriodEnds(config)(timed[k])) << name << ": a batch ended on step " << timed[k];
      }
    }
  }
}

// A batch follows an untimed lead-in of its own steps, so that it starts in the state its steps
// keep the GPU in. Here a step is a 1 ms spin kernel that the host launches 200 us late: queued
// back to back, the GPU never waits for the host and the step is the kernel's 1 ms; synced every
// step, the GPU waits the 200 us (and the launch and the wake-up) before every kernel. At 4 steps
// a batch (the minimum, a step being over 1 ms), batches from an idle GPU read the Async step
// 50 us too long and the sync's overhead 50 us too short (a quarter of the late launch).
TEST(GpuOps, ABatchStartsInTheStateItsStepsKeepTheGpuIn) {
  SKIP_WITHOUT_GPU();
  Stream stream;
  const SpinKernelOp op(stream.get(), 1'000'000);
  const InjectedCost late(Injection::Kind::host, 200e-6, stream.get());
  auto async_step = [&](std::int64_t i) {
    late.pay();
    op.enqueue(i);
  };
  LoopConfig config;
  config.baseline = async_step;
  const MeasuredSteps m = measure_paired(
      stream.get(),
      [&](std::int64_t i) {
        async_step(i);
        CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      },
      8, config);
  std::printf("baseline %.2f us a step, overhead %.2f us a step\n", m.baseline * 1e6,
              m.overhead * 1e6);
  EXPECT_GT(m.baseline, 0.99e-3);
  EXPECT_LT(m.baseline, 1.02e-3) << "the baseline's batch paid its first launch from idle";
  EXPECT_GT(m.overhead, 190e-6) << "the last wait of a batch went uncharged";
  EXPECT_LT(m.overhead, 400e-6);
}

// A host hiccup during one sizing probe does not size the batches: the fastest probe does. Here
// the first probe's steps spin 300 us on the host, which alone would size the batches at the
// minimum of 4 steps; a null kernel's steps are a few microseconds.
TEST(GpuOps, AHiccupInOneSizingProbeDoesNotShrinkTheBatches) {
  SKIP_WITHOUT_GPU();
  Stream stream;
  NullKernelOp op(stream.get());
  const LoopConfig config;
  const std::int64_t first_probe = config.warmup_steps;
  const InjectedCost hiccup(Injection::Kind::host, 300e-6, stream.get());
  StepStats stats;
  run_as_benchmark("SizingHiccup", [&](benchmark::State& state) {
    stats = run_timed_steps(
        state, stream.get(),
        [&](std::int64_t i) {
          if (i >= first_probe && i < first_probe + config.sizing_steps) hiccup.pay();
          op.enqueue(i);
        },
        config);
  });
  EXPECT_GT(stats.batch, 16) << "sized by the slowed probe";
}

// A benchmark whose step is the op and a wait for it, run under `config` as sync_bench runs one.
StepStats run_op_then_wait(const std::string& name, const Op& op, cudaStream_t stream,
                           const LoopConfig& config) {
  StepStats stats;
  run_as_benchmark(name, [&](benchmark::State& state) {
    stats = run_timed_steps(
        state, stream,
        [&](std::int64_t i) {
          op.enqueue(i);
          CUDA_CHECK(cudaStreamSynchronize(stream));
        },
        config);
  });
  return stats;
}

// The GPU-busy probe of a paired benchmark holds the GPU for as long as the host takes to queue
// the baseline's work, not the pattern's step with its wait. Here a step is a 5 ms spin kernel
// and, in the pattern, a wait for it; a try queues one step, as for any step of a millisecond or
// more. Sized by the pattern's host time, each try held the GPU idle 15 ms before its 5 ms of
// work; sized by the baseline's (microseconds), the hold is its 0.25 ms minimum. The gap between
// the first two tries' steps is the first try: its hold, then its work.
TEST(GpuOps, APairedProbeHoldsTheGpuForTheBaselinesQueueingNotThePatternsWait) {
  SKIP_WITHOUT_GPU();
  Stream stream;
  const SpinKernelOp op(stream.get(), 5'000'000);
  // The untimed baseline steps since its last timed one: in the end, the probe's (a batch's
  // lead-in is untimed too, but a timed step follows it).
  std::vector<std::chrono::steady_clock::time_point> probed;
  LoopConfig config;
  config.baseline = [&](std::int64_t i) {
    if (step_phase() == StepPhase::timed)
      probed.clear();
    else
      probed.push_back(std::chrono::steady_clock::now());
    op.enqueue(i);
  };
  const StepStats stats = run_op_then_wait("PairedProbe", op, stream.get(), config);
  ASSERT_EQ(stats.batch, 4) << "a 5 ms step takes the minimum batch";
  // Two tries of one step; up to four where a slow stretch of the host made a try not count.
  ASSERT_GE(probed.size(), 2u) << "two tries of one step each";
  ASSERT_LE(probed.size(), 4u);
  const double try_ms = std::chrono::duration<double, std::milli>(probed[1] - probed[0]).count();
  std::printf("host %.0f us a step, baseline's %.0f us; one probe try took %.2f ms (%zu tries)\n",
              stats.host * 1e6, stats.baseline_host * 1e6, try_ms, probed.size());
  EXPECT_GT(try_ms, 5.0) << "a try ran its 5 ms step";
  EXPECT_LT(try_ms, 10.0) << "the hold was sized by the pattern's wait (15 ms)";
  EXPECT_NEAR(stats.gpu_busy, 5e-3, 0.1e-3) << "the probe counts the GPU's time";
}

// An unpaired benchmark's probed work comes with no expected host time (its pattern's includes
// its waits), so the probe's first spin is the 0.25 ms minimum. Here the host spins 300 us in
// each probed step before it queues a 50 us kernel: a try's 17 or so steps take 5 ms to queue, the
// first try does not count, and the next spins are sized by it. A probe that kept its first spin,
// or sized it by the pattern's host time (3 ms here), reported no gpu_busy_us.
TEST(GpuOps, AnUnpairedProbeSizesItsSpinByTheHostsFirstTry) {
  SKIP_WITHOUT_GPU();
  Stream stream;
  const SpinKernelOp op(stream.get(), 50'000);
  const InjectedCost slow_host(Injection::Kind::host, 300e-6, stream.get());
  int probed = 0;
  LoopConfig config;
  config.gpu_work = [&](std::int64_t i) {
    ++probed;
    slow_host.pay();
    op.enqueue(i);
  };
  const StepStats stats = run_op_then_wait("UnpairedProbe", op, stream.get(), config);
  const std::int64_t steps = probe_steps(stats.step);
  std::printf("batch %lld, %lld steps a try, %d probed steps, gpu_busy %.1f us\n",
              static_cast<long long>(stats.batch), static_cast<long long>(steps), probed,
              stats.gpu_busy * 1e6);
  ASSERT_GE(steps, 2) << "a 50 us step takes about 17 a try";
  EXPECT_GE(probed, 3 * steps) << "the first try, queued in over half its spin, counted";
  EXPECT_LE(probed, ProbeTries::kMostTries * steps);
  EXPECT_NEAR(stats.gpu_busy, 50e-6, 5e-6) << "the probe counts the kernels back to back";
}

// A step that throws inside the sync accounting pass must not leave CUPTI subscribed: CUPTI takes
// one subscriber, and every later benchmark's pass would fail and keep the callbacks in its steps.
TEST(GpuOps, AStepThatThrowsInTheAccountingPassLeavesCuptiFree) {
  SKIP_WITHOUT_GPU();
  std::string why;
  auto created = SyncAccounting::create(&why);
  if (!created) GTEST_SKIP() << "CUPTI cannot be subscribed to here: " << why;
  set_sync_accounting(std::move(created));
  Stream stream;
  NullKernelOp op(stream.get());
  bool timed_seen = false;
  std::string thrown;
  run_as_benchmark("ThrowsInAccounting", [&](benchmark::State& state) {
    try {
      run_timed_steps(state, stream.get(), [&](std::int64_t i) {
        if (step_phase() == StepPhase::timed)
          timed_seen = true;
        else if (timed_seen)
          throw std::runtime_error("a step failed in the accounting pass");
        op.enqueue(i);
      });
    } catch (const std::exception& e) {
      thrown = e.what();
      state.SkipWithError(e.what());
    }
  });
  EXPECT_EQ(thrown, "a step failed in the accounting pass");
  EXPECT_EQ(cupti_left_attached(), "");
  // The next pass subscribes and counts, as the next benchmark's would.
  SyncAccounting* accounting = sync_accounting();
  const bool began = accounting->begin(&why);
  EXPECT_TRUE(began) << why;
  if (began) {
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(accounting->end().blocking_calls, 1);
  }
  set_sync_accounting(nullptr);
}

double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since)
      .count();
}

// The zero-copy read (ScalarRead/mapped) returns only once the GPU has written the value: behind
// a 2 ms spin kernel, the host's wait lasts the kernel, and each publish brings its own value.
TEST(GpuOps, MappedScalarWaitsForTheGpuAndReturnsWhatItWrote) {
  SKIP_WITHOUT_GPU();
  Stream stream;
  DeviceBuffer<int> out(1);
  MappedScalar mapped;
  std::uint32_t previous_seq = 0;
  for (const int value : {1234, -4321}) {
    const auto start = std::chrono::steady_clock::now();
    launch_spin_kernel(2'000'000, stream.get(), out.get(), value);
    const std::uint32_t seq = mapped.publish(out.get(), sizeof(int), stream.get());
    mapped.wait(seq, stream.get());
    EXPECT_GE(elapsed_ms(start), 2.0) << "returned before the kernel ended";
    int read = 0;
    std::memcpy(&read, mapped.value(), sizeof read);
    EXPECT_EQ(read, value);
    EXPECT_NE(seq, previous_seq);
    previous_seq = seq;
  }
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  EXPECT_THROW(mapped.publish(out.get(), MappedScalar::kMaxBytes + 1, stream.get()),
               std::invalid_argument);
}

// The slot holds one value: a second publish before the wait for the first returned would
// overwrite it unread, so it is refused, and enqueues nothing (the first value is still read).
TEST(GpuOps, MappedScalarTakesOnePublishAtATime) {
  SKIP_WITHOUT_GPU();
  Stream stream;
  DeviceBuffer<int> first(1), second(1);
  launch_null_kernel(first.get(), 11, stream.get());
  launch_null_kernel(second.get(), 22, stream.get());
  MappedScalar mapped;
  const std::uint32_t seq = mapped.publish(first.get(), sizeof(int), stream.get());
  EXPECT_THROW(mapped.publish(second.get(), sizeof(int), stream.get()), std::logic_error);
  mapped.wait(seq, stream.get());
  int read = 0;
  std::memcpy(&read, mapped.value(), sizeof read);
  EXPECT_EQ(read, 11);
  const std::uint32_t next = mapped.publish(second.get(), sizeof(int), stream.get());
  EXPECT_NE(next, seq);
  mapped.wait(next, stream.get());
  std::memcpy(&read, mapped.value(), sizeof read);
  EXPECT_EQ(read, 22);
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));
}

// A wait whose number never comes (here: never published, the stream idle) ends in an error once
// the stream is found done, instead of spinning forever; and not before the stall check's time,
// so that a wait for a long step makes no CUDA call. The error is the wait's own, not a CUDA
// call's (CUDA_CHECK throws std::runtime_error too).
TEST(GpuOps, MappedScalarThatNeverArrivesThrowsInsteadOfHanging) {
  SKIP_WITHOUT_GPU();
  Stream stream;
  MappedScalar mapped;
  const auto start = std::chrono::steady_clock::now();
  std::string error;
  try {
    mapped.wait(7, stream.get());
  } catch (const std::runtime_error& e) {
    error = e.what();
  }
  const double waited_ms = elapsed_ms(start);
  EXPECT_NE(error.find("sequence number 7 never arrived"), std::string::npos)
      << "no error, or another one: '" << error << "'";
  EXPECT_GE(waited_ms, 1.0 * MappedScalar::kStallCheck.count());
  EXPECT_LT(waited_ms, 10.0 * MappedScalar::kStallCheck.count());
}

// A wait longer than the stall check asks the stream whether it is done ("not ready" while the
// kernel runs) and leaves no error behind for the next launch's check to read.
TEST(GpuOps, MappedScalarWaitPastTheStallCheckLeavesNoErrorBehind) {
  SKIP_WITHOUT_GPU();
  Stream stream;
  DeviceBuffer<int> out(1);
  MappedScalar mapped;
  const auto start = std::chrono::steady_clock::now();
  launch_spin_kernel(3'000'000 * MappedScalar::kStallCheck.count(), stream.get(), out.get(), 99);
  const std::uint32_t seq = mapped.publish(out.get(), sizeof(int), stream.get());
  mapped.wait(seq, stream.get());
  EXPECT_GE(elapsed_ms(start), 3.0 * MappedScalar::kStallCheck.count());
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);
  int read = 0;
  std::memcpy(&read, mapped.value(), sizeof read);
  EXPECT_EQ(read, 99);
  // A query's "not ready" is not kept as the last error: EventQuery's step polls on it without
  // clearing, and the next launch's check must not read it.
  launch_spin_kernel(50'000'000, stream.get());
  EXPECT_EQ(cudaStreamQuery(stream.get()), cudaErrorNotReady);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));
}

// LaggedRead's and TrainLoop/LaggedItem's reader: read(i) queues step i's copy and waits for step
// i-1's only, so it returns while step i (a 5 ms spin) still holds the GPU; each step is checked
// once, in order, on what that step wrote; finish() checks the last; a failed check is reported.
// It tests the wait on its own: TrainLoop/LaggedItem's host-bound step lets each copy land before
// the host looks, so a reader without its wait passed there (results/h200/lagged_item/).
void expect_each_step_checked_one_step_late(LaggedReader::Transport transport) {
  Stream stream;
  DeviceBuffer<int> out(1);
  std::vector<std::pair<std::int64_t, int>> checked;
  LaggedReader reader(
      reinterpret_cast<const std::byte*>(out.get()), sizeof(int),
      [&](const std::byte* bytes, std::int64_t step) {
        int value = 0;
        std::memcpy(&value, bytes, sizeof value);
        checked.emplace_back(step, value);
        return value != 103;  // step 2's value stands for a read that went wrong
      },
      stream.get(), transport);
  std::vector<bool> results;
  for (std::int64_t step = 0; step < 4; ++step) {
    launch_spin_kernel(5'000'000, stream.get(), out.get(), 101 + static_cast<int>(step));
    results.push_back(reader.read(step));
    EXPECT_EQ(cudaStreamQuery(stream.get()), cudaErrorNotReady)
        << "read(" << step << ") waited for its own step";
  }
  EXPECT_EQ(checked.size(), 3u) << "the last step is still pending";
  EXPECT_TRUE(reader.finish());
  EXPECT_TRUE(reader.finish()) << "nothing pending: nothing checked";
  const std::vector<std::pair<std::int64_t, int>> expected = {
      {0, 101}, {1, 102}, {2, 103}, {3, 104}};
  EXPECT_EQ(checked, expected);
  EXPECT_EQ(results, (std::vector<bool>{true, true, true, false}))
      << "read(3) reports step 2's failed check";
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  EXPECT_THROW(LaggedReader(
                   reinterpret_cast<const std::byte*>(out.get()), 0,
                   [](const std::byte*, std::int64_t) { return true; }, stream.get(), transport),
               std::invalid_argument);
}

TEST(GpuOps, LaggedReaderChecksEachStepOneStepLate) {
  SKIP_WITHOUT_GPU();
  expect_each_step_checked_one_step_late(LaggedReader::Transport::copy);
}

// LaggedRead/mapped's: the same reads through MappedScalar's publish kernel, one a slot; and no
// more bytes than a MappedScalar holds.
TEST(GpuOps, MappedLaggedReaderChecksEachStepOneStepLate) {
  SKIP_WITHOUT_GPU();
  expect_each_step_checked_one_step_late(LaggedReader::Transport::mapped);
  DeviceBuffer<std::byte> big(MappedScalar::kMaxBytes + 1);
  EXPECT_THROW(LaggedReader(
                   big.get(), MappedScalar::kMaxBytes + 1,
                   [](const std::byte*, std::int64_t) { return true; }, nullptr,
                   LaggedReader::Transport::mapped),
               std::invalid_argument);
}

TEST(GpuOps, EveryGemmValidatesAndAlternatesSign) {
  SKIP_WITHOUT_GPU();
  Stream stream;
  for (Dtype d : kAllDtypes)
    for (Backend b : kAllBackends) {
      if (b == Backend::cublas && traits(d).cublaslt_only) {
        EXPECT_THROW(Gemm(d, b, 256, stream.get()), Unsupported) << name(d);
        continue;
      }
      Gemm gemm(d, b, 256, stream.get());
      ASSERT_NO_THROW(gemm.validate()) << name(d) << " " << name(b);
      EXPECT_NE(gemm.probe_value(), 0.0);
      GemmOp op(gemm);
      for (std::int64_t step : {0, 1}) {
        read_probe_after(op, step, stream.get(), [&](const void* e) {
          EXPECT_TRUE(op.read_matches(e, step)) << name(d) << " " << name(b) << " step " << step;
          EXPECT_FALSE(op.read_matches(e, step + 1)) << "a stale read would pass";
        });
      }
    }
}

TEST(GpuOps, ValidationSeesTf32RoundingThatFp32MustNotHave) {
  SKIP_WITHOUT_GPU();
  Stream stream;
  // Same inputs, same reference: TF32 math must miss the fp32 tolerance (so the check can fail),
  // plain fp32 must meet it.
  Gemm tf32(Dtype::tf32, Backend::cublas, 512, stream.get());
  Gemm fp32(Dtype::fp32, Backend::cublas, 512, stream.get());
  const double tf32_error = tf32.validate();
  const double fp32_error = fp32.validate();
  EXPECT_GT(tf32_error, traits(Dtype::fp32).tolerance);
  EXPECT_LT(fp32_error, traits(Dtype::fp32).tolerance);
  EXPECT_LT(tf32_error, traits(Dtype::tf32).tolerance);
}

TEST(GpuOps, Fp8ValidatesAgainstItsStoredInputs) {
  SKIP_WITHOUT_GPU();
  Stream stream;
  int device = 0, major = 0, minor = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  if (major * 10 + minor < traits(Dtype::fp8).min_compute_capability) {
    EXPECT_THROW(Gemm(Dtype::fp8, Backend::cublaslt, 512, stream.get()), Unsupported);
    GTEST_SKIP() << "fp8 GEMMs need compute capability "
                 << traits(Dtype::fp8).min_compute_capability / 10 << "."
                 << traits(Dtype::fp8).min_compute_capability % 10;
  }
  for (int n : {512, 4096}) {
    Gemm fp8(Dtype::fp8, Backend::cublaslt, n, stream.get());
    const double error = fp8.validate();
    // Inputs exact in the reference, output rounded to bf16 (2^-9 relative): a real, small error.
    EXPECT_GT(error, 0.0) << n;
    EXPECT_LT(error, 1e-2) << n;
    EXPECT_EQ(fp8.c_bytes(), std::size_t(n) * n * 2) << "bf16 output";
  }
}

// The context names the device it was asked for, and refuses one that is not current: the wait
// mode is read from the current device, so another device's context would carry the wrong one.
TEST(GpuOps, DeviceContextIsOfTheCurrentDeviceOnly) {
  SKIP_WITHOUT_GPU();
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  std::string index, wait_mode;
  for (const auto& [key, value] : device_context(device)) {
    if (key == "gpu_index") index = value;
    if (key == "host_wait_mode") wait_mode = value;
  }
  EXPECT_EQ(index, std::to_string(device));
  // That the mode is the one in force: test_gpu_patterns' --sync_mode=blocking run.
  EXPECT_TRUE(wait_mode == "spin" || wait_mode == "yield" || wait_mode == "blocking" ||
              wait_mode == "auto")
      << wait_mode;
  EXPECT_THROW(device_context(device + 1), std::invalid_argument);
}

TEST(GpuOps, AProblemThatDoesNotFitIsRefusedWithAReason) {
  SKIP_WITHOUT_GPU();
  Stream stream;
  try {
    Gemm gemm(Dtype::fp32, Backend::cublas, 1 << 17, stream.get());  // 3 x 64 GiB
    FAIL() << "a 3 x 64 GiB problem was accepted";
  } catch (const Unsupported& e) {  // a skip with the reason, not a failure
    EXPECT_NE(std::string(e.what()).find("MiB free"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sync_bench
