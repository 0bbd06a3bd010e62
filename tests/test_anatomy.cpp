// The step anatomy's arithmetic (common/anatomy.hpp) on hand-built traces whose answer is known.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "anatomy.hpp"

namespace sync_bench {
namespace {

TraceEvent host(const char* name, double start, double end, bool blocking, std::uint32_t corr = 0,
                const char* kind = "runtime") {
  return TraceEvent{Lane::host, name, kind, start, end, blocking, corr};
}

TraceEvent gpu(const char* name, double start, double end, std::uint32_t corr,
               const char* kind = "kernel") {
  return TraceEvent{Lane::gpu, name, kind, start, end, false, corr};
}

// Two steps of "launch (3 us), then cudaDeviceSynchronize": the kernel runs 1 us, 2 us after its
// launch began; the host returns from the sync 10 us after the step began.
AnatomyTrace device_sync_steps() {
  AnatomyTrace t;
  t.steps = 2;
  t.step_starts_us = {0.0, 10.0};
  t.host_end_us = 20.0;
  for (int s = 0; s < 2; ++s) {
    const double o = 10.0 * s;
    const auto c = static_cast<std::uint32_t>(1 + 2 * s);
    t.events.push_back(host("cudaLaunchKernel_v7000", o + 0.0, o + 3.0, false, c));
    t.events.push_back(host("cuLaunchKernel", o + 0.5, o + 2.5, false, 0, "driver"));  // nested
    t.events.push_back(gpu("null_kernel(int*)", o + 2.0, o + 3.0, c));
    t.events.push_back(host("cudaDeviceSynchronize_v3020", o + 3.0, o + 10.0, true, c + 1));
    t.events.push_back(host("cuCtxSynchronize", o + 3.1, o + 9.9, true, 0, "driver"));  // nested
  }
  // The wait after the last step is not part of the steps.
  t.events.push_back(host("cudaDeviceSynchronize_v3020", 20.5, 21.0, true, 99));
  return t;
}

// CUPTI's timestamps are wall-clock nanoseconds: converted one by one to double, times 1 ns apart
// came out equal and every time landed on a 0.256 us grid (the H100 fixture below still shows it).
TEST(Anatomy, TimestampsKeepTheirNanosecondsNearTheWallClock) {
  const std::uint64_t t0 = 1'795'610'989'599'932'896ULL;
  EXPECT_DOUBLE_EQ(microseconds_since(t0, t0 + 1), 0.001);
  EXPECT_DOUBLE_EQ(microseconds_since(t0, t0 + 12'345), 12.345);
  EXPECT_DOUBLE_EQ(microseconds_since(t0 + 100, t0), -0.1);  // a record that began before t0
  EXPECT_EQ(microseconds_since(t0, t0), 0.0);
}

TEST(Anatomy, UnionLengthMergesOverlapsAndClips) {
  EXPECT_DOUBLE_EQ(union_length({{0, 2}, {1, 3}, {5, 6}}, 0, 10), 4.0);
  EXPECT_DOUBLE_EQ(union_length({{0, 10}, {2, 3}}, 0, 10), 10.0);  // nested
  EXPECT_DOUBLE_EQ(union_length({{-5, 2}, {8, 20}}, 0, 10), 4.0);  // clipped both sides
  EXPECT_DOUBLE_EQ(union_length({}, 0, 10), 0.0);
  EXPECT_DOUBLE_EQ(union_length({{3, 3}, {4, 2}}, 0, 10), 0.0);  // empty and reversed
}

TEST(Anatomy, BlockingCallsAreKnownByName) {
  for (const char* name : {"cudaDeviceSynchronize_v3020", "cudaStreamSynchronize_ptsz_v7000",
                           "cudaEventSynchronize_v3020", "cudaMemcpy_v3020", "cudaFree_v3020",
                           "cuCtxSynchronize", "cuStreamSynchronize", "cuMemcpyDtoH_v2"})
    EXPECT_TRUE(is_blocking_call(name)) << name;
  for (const char* name : {"cudaLaunchKernel_v7000", "cudaMemcpyAsync_v3020",
                           "cudaEventRecord_v3020", "cuLaunchKernel", "cuMemcpyDtoHAsync_v2",
                           "cudaMemsetAsync_v3020", "cudaStreamWaitEvent_v3020", "cublasGemmEx"})
    EXPECT_FALSE(is_blocking_call(name)) << name;
}

TEST(Anatomy, DeviceSyncStepsAddUpAndAreSyncBound) {
  const StepAnatomy a = analyze(device_sync_steps());
  EXPECT_DOUBLE_EQ(a.step_us, 10.0);
  EXPECT_DOUBLE_EQ(a.gpu_active_us, 1.0);
  EXPECT_DOUBLE_EQ(a.gpu_idle_us, 9.0);
  EXPECT_DOUBLE_EQ(a.launch_latency_us, 2.0);
  EXPECT_DOUBLE_EQ(a.host_api_us, 3.0);
  EXPECT_DOUBLE_EQ(a.host_blocked_us, 7.0);
  EXPECT_DOUBLE_EQ(a.host_other_us, 0.0);
  EXPECT_DOUBLE_EQ(a.gpu_activities, 1.0);
  EXPECT_DOUBLE_EQ(a.api_calls, 2.0);  // the nested driver calls are not counted again
  EXPECT_DOUBLE_EQ(a.blocking_calls, 1.0);
  EXPECT_EQ(a.bound, Bound::sync);
  EXPECT_EQ(name(a.bound), "sync");
}

TEST(Anatomy, AsyncStepsThatOutrunTheGpuEndWhenTheGpuDoes) {
  // Launches of 2 us each, kernels of 3 us back to back: the GPU finishes after the host.
  AnatomyTrace t;
  t.steps = 4;
  t.host_end_us = 9.0;
  for (int s = 0; s < 4; ++s) {
    const double o = 2.0 * s;
    t.step_starts_us.push_back(o + (s == 0 ? 0.0 : 0.25));
    t.events.push_back(host("cudaLaunchKernel_v7000", o + 0.25, o + 2.0, false, s + 1));
    t.events.push_back(gpu("k", 1.0 + 3.0 * s, 4.0 + 3.0 * s, s + 1));
  }
  const StepAnatomy a = analyze(t);
  EXPECT_DOUBLE_EQ(a.step_us, 13.0 / 4);  // the window ends with the last kernel at 13 us
  EXPECT_DOUBLE_EQ(a.gpu_active_us, 12.0 / 4);
  EXPECT_EQ(a.bound, Bound::gpu);  // 3 of 3.25 us active
  EXPECT_DOUBLE_EQ(a.host_blocked_us, 0.0);
  EXPECT_DOUBLE_EQ(a.host_api_us, 7.0 / 4);
  EXPECT_DOUBLE_EQ(a.host_other_us, 2.0 / 4);
  // Kernel s starts at 1 + 3s, its launch at 0.25 + 2s: latencies 0.75, 1.75, 2.75, 3.75.
  EXPECT_DOUBLE_EQ(a.launch_latency_us, 2.25);
}

TEST(Anatomy, AHostThatCannotFeedTheGpuIsHostBound) {
  AnatomyTrace t;
  t.steps = 2;
  t.step_starts_us = {0.0, 10.0};
  t.host_end_us = 20.0;
  for (int s = 0; s < 2; ++s) {
    t.events.push_back(host("cublasGemmEx", 10.0 * s, 10.0 * s + 8.0, false, s + 1));
    t.events.push_back(gpu("gemm", 10.0 * s + 6.0, 10.0 * s + 8.0, s + 1));
  }
  const StepAnatomy a = analyze(t);
  EXPECT_EQ(a.bound, Bound::host);
  EXPECT_DOUBLE_EQ(a.gpu_idle_us, 8.0);
  EXPECT_TRUE(std::isfinite(a.launch_latency_us));
}

TEST(Anatomy, AStepIsSyncBoundFromAFifthOfItSpentBlocked) {
  // 10 us steps: a 1 us launch, then a wait of w us, then host code.
  const auto steps_with_wait = [](double wait) {
    AnatomyTrace t;
    t.steps = 2;
    t.step_starts_us = {0.0, 10.0};
    t.host_end_us = 20.0;
    for (int s = 0; s < 2; ++s) {
      const double o = 10.0 * s;
      t.events.push_back(host("cudaLaunchKernel_v7000", o, o + 1.0, false, 2 * s + 1));
      t.events.push_back(gpu("k", o + 1.5, o + 2.0, 2 * s + 1));
      t.events.push_back(host("cudaStreamSynchronize_v3020", o + 1.0, o + 1.0 + wait, true));
    }
    return analyze(t);
  };
  EXPECT_EQ(steps_with_wait(1.9).bound, Bound::host);
  EXPECT_EQ(steps_with_wait(2.0).bound, Bound::sync);
  EXPECT_DOUBLE_EQ(steps_with_wait(2.0).host_other_us, 7.0);
}

TEST(Anatomy, NoGpuActivityLeavesLaunchLatencyUndefined) {
  AnatomyTrace t;
  t.steps = 1;
  t.step_starts_us = {0.0};
  t.host_end_us = 5.0;
  t.events.push_back(host("cudaEventQuery_v3020", 1.0, 2.0, false, 1));
  const StepAnatomy a = analyze(t);
  EXPECT_TRUE(std::isnan(a.launch_latency_us));
  EXPECT_DOUBLE_EQ(a.gpu_idle_us, 5.0);
}

TEST(Anatomy, BrokenTracesAreRefused) {
  AnatomyTrace none;
  EXPECT_THROW(analyze(none), std::invalid_argument);
  AnatomyTrace mismatched = device_sync_steps();
  mismatched.step_starts_us.pop_back();
  EXPECT_THROW(analyze(mismatched), std::invalid_argument);
  AnatomyTrace reversed = device_sync_steps();
  reversed.events[0].end_us = -1.0;
  EXPECT_THROW(analyze(reversed), std::invalid_argument);
  AnatomyTrace nan = device_sync_steps();
  nan.events[2].start_us = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(analyze(nan), std::invalid_argument);
}

TEST(Anatomy, TimelineJsonHoldsTheStepsAndEscapesNames) {
  AnatomyTrace t = device_sync_steps();
  t.events[2].name = "k<\"quoted\"\\>\n";
  const auto j = nlohmann::json::parse(timeline_json("NullKernel/DeviceSync", t));
  EXPECT_EQ(j.at("name"), "NullKernel/DeviceSync");
  EXPECT_EQ(j.at("steps"), 2);
  EXPECT_EQ(j.at("step_starts_us").size(), 2u);
  EXPECT_DOUBLE_EQ(j.at("window_us").get<double>(), 20.0);
  // Every event but the wait after the steps.
  EXPECT_EQ(j.at("events").size(), t.events.size() - 1);
  EXPECT_EQ(j.at("events").at(2).at("name"), "k<\"quoted\"\\>\n");
  EXPECT_EQ(j.at("events").at(2).at("lane"), "gpu");
  EXPECT_EQ(j.at("events").at(3).at("blocking"), true);
}

// Recorded on the H100 (results/h100/anatomy/): the timeline sync_bench wrote and the counters it
// reported for the same steps. The arithmetic run here on the recorded events must give the
// counters back, and the verdicts docs/step_anatomy.md states.
nlohmann::json read_fixture(const std::string& file) {
  std::ifstream in(std::string(SYNC_BENCH_FIXTURES) + "/" + file);
  return nlohmann::json::parse(in);
}

AnatomyTrace trace_of(const nlohmann::json& bench) {
  AnatomyTrace t;
  t.steps = bench.at("steps").get<std::int64_t>();
  t.step_starts_us = bench.at("step_starts_us").get<std::vector<double>>();
  t.host_end_us = bench.at("host_end_us").get<double>();
  for (const auto& e : bench.at("events")) {
    TraceEvent ev;
    ev.lane = e.at("lane") == "gpu" ? Lane::gpu : Lane::host;
    ev.name = e.at("name").get<std::string>();
    ev.kind = e.at("kind").get<std::string>();
    ev.start_us = e.at("start_us").get<double>();
    ev.end_us = e.at("end_us").get<double>();
    ev.blocking = e.value("blocking", false);
    ev.correlation = e.at("correlation").get<std::uint32_t>();
    t.events.push_back(std::move(ev));
  }
  return t;
}

TEST(Anatomy, RecordedH100StepsGiveBackWhatSyncBenchReported) {
  std::map<std::string, nlohmann::json> reported;
  const auto run = read_fixture("h100_anatomy_run.json");
  for (const auto& b : run.at("benchmarks")) {
    std::string name = b.at("name");
    reported[name.substr(0, name.rfind("/manual_time"))] = b;
  }
  const auto timeline = read_fixture("h100_anatomy_timeline.json");
  ASSERT_EQ(timeline.at("benchmarks").size(), 3u);
  std::map<std::string, StepAnatomy> got;
  for (const auto& bench : timeline.at("benchmarks")) {
    const std::string name = bench.at("name");
    const StepAnatomy a = analyze(trace_of(bench));
    const auto& r = reported.at(name);
    // The file keeps 3 decimals of each time: the per-step sums agree to well under 0.01 us.
    EXPECT_NEAR(a.step_us, r.at("anatomy_step_us").get<double>(), 0.01) << name;
    EXPECT_NEAR(a.gpu_active_us, r.at("gpu_active_us").get<double>(), 0.01) << name;
    EXPECT_NEAR(a.host_api_us, r.at("host_api_us").get<double>(), 0.01) << name;
    EXPECT_NEAR(a.host_blocked_us, r.at("host_blocked_us").get<double>(), 0.01) << name;
    EXPECT_NEAR(a.host_other_us, r.at("host_other_us").get<double>(), 0.01) << name;
    EXPECT_NEAR(a.launch_latency_us, r.at("launch_latency_us").get<double>(), 0.01) << name;
    EXPECT_EQ(static_cast<double>(a.bound), r.at("bound").get<double>()) << name;
    got[name] = a;
  }
  const StepAnatomy& sync = got.at("NullKernel/DeviceSync");
  EXPECT_EQ(sync.bound, Bound::sync);
  EXPECT_DOUBLE_EQ(sync.gpu_activities, 1.0);
  EXPECT_DOUBLE_EQ(sync.blocking_calls, 1.0);
  EXPECT_EQ(got.at("NullKernel/ScalarRead/pageable").blocking_calls, 2.0);
  EXPECT_EQ(got.at("SmallGemm/Async/fp16/cublas/n:512").bound, Bound::host);
  EXPECT_EQ(got.at("SmallGemm/Async/fp16/cublas/n:512").blocking_calls, 0.0);
}

}  // namespace
}  // namespace sync_bench
