// MultiGpu: what synchronization between two or more GPUs of one host costs.
//   CrossDevice: GPU B's kernel depends on GPU A's; the dependency by an event that B's stream
//     waits for (event_wait) or by the host waiting for A before it launches on B (host_wait),
//     paired with an Async baseline (the same kernels and memory traffic, no dependency).
//   PeerCopy: a copy from GPU A to GPU B with peer access on, off (the driver stages it), or
//     staged explicitly through pinned host memory.
//   SyncAll: a null kernel on each of K GPUs, then the host waits for each (cudaDeviceSynchronize
//     per device, or one event per device), paired with an Async baseline: the same calls
//     without the host waits.
// --devices may name one GPU twice: CrossDevice and SyncAll then run across streams of that GPU
// (what the device boundary adds is the difference); PeerCopy and DataParallel skip.
// Every benchmark is timed by events on one stream of its first GPU (step_loop.hpp), and every
// step leaves that stream behind all of its work: a cross-device cudaStreamWaitEvent, or a host
// wait for every GPU before the batch's stop event is recorded. With fewer GPUs than a benchmark
// needs (two, or K), it is skipped with the reason (Unsupported).

#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "copies_kernels.cuh"
#include "cuda_resources.hpp"
#include "device_kernels.cuh"
#include "families.hpp"
#include "multi_gpu_devices.hpp"
#include "multi_gpu_kernels.cuh"
#include "names.hpp"
#include "step_loop.hpp"
#include "unsupported.hpp"

namespace sync_bench {

MultiGpuSelection& multi_gpu_selection() {
  static MultiGpuSelection selection;
  return selection;
}

namespace {

constexpr std::uint32_t kSeed = 11;

int value_of(std::int64_t step) {
  return static_cast<int>(step % 1000000000 + 1);
}

// --- CrossDevice ---------------------------------------------------------------------------

enum class Wait { event, host };

void run_cross_device(benchmark::State& state, Wait wait) {
  const Devices devices = chosen_devices();
  const int a = devices.pair[0], b = devices.pair[1];
  DeviceScope main_device(a);  // until the end: the timing stream's device
  Stream stream_a(cudaStreamNonBlocking);
  Event done_a(cudaEventDisableTiming);
  OnDevice<GpuSide> side_b(b);
  // [0] A's value, [1] what B read of it, [2] B's misreads, [3] B's baseline value. Every kernel
  // reaches them over the bus (PCIe from each GPU), so B's baseline kernel reads [0] as the
  // step's does: its round trip is the op's, not the dependency's.
  MappedHost<int> slots(4);
  volatile int* const host = slots.get();
  for (int s = 0; s < 4; ++s) host[s] = 0;
  int* const slots_a = slots.on_device(a);
  int* const slots_b = slots.on_device(b);
  const cudaStream_t sa = stream_a.get(), sb = side_b->stream.get();

  // A step ends with A's stream waiting for B's work (B current until then, A after).
  auto join = [&] {
    CUDA_CHECK(cudaEventRecord(side_b->done.get(), sb));
    CUDA_CHECK(cudaSetDevice(a));
    CUDA_CHECK(cudaStreamWaitEvent(sa, side_b->done.get(), 0));
  };
  int last_read = 0, last_baseline = 0;
  LoopConfig config;
  config.baseline = [&](std::int64_t i) {
    const int v = value_of(i);
    launch_null_kernel(slots_a, v, sa);
    CUDA_CHECK(cudaSetDevice(b));
    launch_read_then_stamp_kernel(slots_b, v, slots_b + 3, sb);
    join();
    last_baseline = v;
  };
  const StepStats stats = run_timed_steps(
      state, sa,
      [&](std::int64_t i) {
        const int v = value_of(i);
        launch_null_kernel(slots_a, v, sa);
        if (wait == Wait::event) {
          CUDA_CHECK(cudaEventRecord(done_a.get(), sa));
          CUDA_CHECK(cudaSetDevice(b));
          CUDA_CHECK(cudaStreamWaitEvent(sb, done_a.get(), 0));
        } else {
          CUDA_CHECK(cudaStreamSynchronize(sa));
          CUDA_CHECK(cudaSetDevice(b));
        }
        launch_forward_kernel(slots_b, v, slots_b + 1, slots_b + 2, sb);
        join();
        last_read = v;
      },
      config);

  CUDA_CHECK(cudaSetDevice(b));
  CUDA_CHECK(cudaStreamSynchronize(sb));
  CUDA_CHECK(cudaSetDevice(a));
  CUDA_CHECK(cudaStreamSynchronize(sa));
  if (host[2] != 0)
    throw std::runtime_error("GPU " + std::to_string(b) + " read another value than GPU " +
                             std::to_string(a) + " wrote in " + std::to_string(host[2]) +
                             " steps: the dependency did not hold");
  if (host[1] != last_read || last_read == 0)
    throw std::runtime_error("the last step's value did not arrive on GPU " + std::to_string(b) +
                             " (read " + std::to_string(host[1]) + ", expected " +
                             std::to_string(last_read) + ")");
  if (host[3] != last_baseline)
    throw std::runtime_error("the last baseline step's kernel on GPU " + std::to_string(b) +
                             " did not run");
  report_step_counters(state, stats);
  report_devices(state, devices.pair);
}

// --- PeerCopy --------------------------------------------------------------------------------

enum class Route { peer_on, peer_off, staged };

bool can_access_peer(int from, int to) {
  int can = 0;
  CUDA_CHECK(cudaDeviceCanAccessPeer(&can, from, to));
  return can != 0;
}

// Peer access from `from` to `to`'s memory, on for its lifetime (it is per process and global:
// off again at the end, so that the next benchmark runs without it).
class PeerLink {
 public:
  PeerLink(int from, int to) : from_(from), to_(to) {
    DeviceScope scope(from_);
    const cudaError_t err = cudaDeviceEnablePeerAccess(to_, 0);
    if (err == cudaErrorPeerAccessAlreadyEnabled)
      (void)cudaGetLastError();  // on already: this link owns it now, and turns it off
    else
      CUDA_CHECK(err);
  }
  ~PeerLink() {
    int current = -1;
    CUDA_CHECK_NOEXCEPT(cudaGetDevice(&current));
    CUDA_CHECK_NOEXCEPT(cudaSetDevice(from_));
    CUDA_CHECK_NOEXCEPT(cudaDeviceDisablePeerAccess(to_));
    if (current >= 0) CUDA_CHECK_NOEXCEPT(cudaSetDevice(current));
  }
  PeerLink(const PeerLink&) = delete;
  PeerLink& operator=(const PeerLink&) = delete;

 private:
  int from_, to_;
};

// Throws unless peer access from `from` to `to` is off (it is, unless a PeerLink leaked it).
void expect_peer_access_off(int from, int to) {
  DeviceScope scope(from);
  const cudaError_t err = cudaDeviceDisablePeerAccess(to);
  if (err == cudaErrorPeerAccessNotEnabled) {
    (void)cudaGetLastError();  // the expected answer; not an error for the next launch to see
    return;
  }
  CUDA_CHECK(err);
  throw std::runtime_error("peer access from device " + std::to_string(from) + " to " +
                           std::to_string(to) +
                           " was on before this benchmark (turned off now): a bug in MultiGpu");
}

struct CopyTarget {
  explicit CopyTarget(std::size_t words) : dst(words) {}
  GpuSide side;
  DeviceBuffer<std::uint32_t> dst;
};

void run_peer_copy(benchmark::State& state, Route route, std::size_t bytes) {
  const Devices devices = chosen_devices();
  require_distinct(devices.pair, "PeerCopy");
  const int a = devices.pair[0], b = devices.pair[1];
  DeviceScope main_device(a);
  const bool peer_possible = can_access_peer(a, b) && can_access_peer(b, a);
  std::optional<PeerLink> a_to_b, b_to_a;  // destroyed last: after every copy has finished
  if (route == Route::peer_on) {
    if (!peer_possible)
      throw Unsupported("no peer access between devices " + std::to_string(a) + " and " +
                        std::to_string(b) + " (cudaDeviceCanAccessPeer)");
    a_to_b.emplace(a, b);
    b_to_a.emplace(b, a);
  } else {
    expect_peer_access_off(a, b);
    expect_peer_access_off(b, a);
  }
  const std::size_t words = bytes / sizeof(std::uint32_t);
  Stream stream_a(cudaStreamNonBlocking);
  Event staged_a(cudaEventDisableTiming);
  DeviceBuffer<std::uint32_t> src(words);
  OnDevice<CopyTarget> target(b, words);
  MappedHost<std::uint32_t> staging(route == Route::staged ? words : 0);
  const cudaStream_t sa = stream_a.get(), sb = target->side.stream.get();
  std::uint32_t* const dst = target->dst.get();

  // The source holds the pattern, the destination poison.
  fill_pattern(src.get(), words, kSeed, sa);
  CUDA_CHECK(cudaSetDevice(b));
  CUDA_CHECK(cudaMemsetAsync(dst, 0xff, bytes, sb));
  CUDA_CHECK(cudaStreamSynchronize(sb));
  CUDA_CHECK(cudaSetDevice(a));
  CUDA_CHECK(cudaStreamSynchronize(sa));

  StepStats stats;
  if (route == Route::staged) {
    // D2H on A, then H2D on B once it has landed; A's stream waits for the H2D, so that the next
    // step's D2H does not overwrite the staging buffer before B has read it.
    stats = run_timed_steps(state, sa, [&](std::int64_t) {
      CUDA_CHECK(cudaMemcpyAsync(staging.get(), src.get(), bytes, cudaMemcpyDeviceToHost, sa));
      CUDA_CHECK(cudaEventRecord(staged_a.get(), sa));
      CUDA_CHECK(cudaSetDevice(b));
      CUDA_CHECK(cudaStreamWaitEvent(sb, staged_a.get(), 0));
      CUDA_CHECK(cudaMemcpyAsync(dst, staging.get(), bytes, cudaMemcpyHostToDevice, sb));
      CUDA_CHECK(cudaEventRecord(target->side.done.get(), sb));
      CUDA_CHECK(cudaSetDevice(a));
      CUDA_CHECK(cudaStreamWaitEvent(sa, target->side.done.get(), 0));
    });
  } else {
    // On A's stream: the batch's stop event follows the copy.
    LoopConfig config;
    config.step_is_async = true;
    stats = run_timed_steps(
        state, sa,
        [&](std::int64_t) { CUDA_CHECK(cudaMemcpyPeerAsync(dst, b, src.get(), a, bytes, sa)); },
        config);
  }

  // Every word of the destination, checked on B after everything has landed.
  CUDA_CHECK(cudaStreamSynchronize(sa));
  CUDA_CHECK(cudaSetDevice(b));
  CUDA_CHECK(cudaStreamSynchronize(sb));
  const std::uint64_t wrong = pattern_mismatches(dst, 0, words, kSeed, sb);
  CUDA_CHECK(cudaSetDevice(a));
  if (wrong > 0)
    throw std::runtime_error(std::to_string(wrong) + " of " + std::to_string(words) +
                             " words copied wrong from GPU " + std::to_string(a) + " to GPU " +
                             std::to_string(b));
  report_step_counters(state, stats);
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));  // per step
  report_devices(state, devices.pair);
  state.counters["peer_capable"] = peer_possible ? 1.0 : 0.0;
}

// --- SyncAll ---------------------------------------------------------------------------------

enum class SyncEach { device_sync, event };

void run_sync_all(benchmark::State& state, SyncEach sync, int k) {
  const Devices devices = chosen_devices();
  if (static_cast<int>(devices.each.size()) < k)
    throw Unsupported("SyncAll/devices:" + std::to_string(k) + " needs " + std::to_string(k) +
                      " CUDA devices; " + std::to_string(devices.each.size()) + " selected (" +
                      list_of(devices.each) + "; --devices=all or --devices=i,j,... for more)");
  const std::vector<int> used(devices.each.begin(), devices.each.begin() + k);
  DeviceScope main_device(used[0]);
  std::vector<std::unique_ptr<OnDevice<GpuSide>>> sides;
  for (int d : used) sides.push_back(std::make_unique<OnDevice<GpuSide>>(d));
  // [j]: what the step's kernel on used[j] wrote last; [k + j]: the baseline's.
  MappedHost<int> values(2 * static_cast<std::size_t>(k));
  volatile int* const host = values.get();
  std::vector<int*> slot;
  for (int j = 0; j < 2 * k; ++j) {
    host[j] = 0;
    slot.push_back(values.on_device(used[j % k]) + j);
  }
  const cudaStream_t timing = (*sides[0])->stream.get();

  // The op, in the step and in its Async baseline alike: a null kernel on every GPU, each
  // followed by an event; then the first GPU's stream waits for the others' events, so that the
  // batch's stop event follows every GPU's work. The step's host waits come between the two.
  const auto launch_all = [&](int v, std::size_t first_slot) {
    for (int j = 0; j < k; ++j) {
      CUDA_CHECK(cudaSetDevice(used[j]));
      launch_null_kernel(slot[first_slot + j], v, (*sides[j])->stream.get());
      CUDA_CHECK(cudaEventRecord((*sides[j])->done.get(), (*sides[j])->stream.get()));
    }
  };
  const auto join_all = [&] {
    CUDA_CHECK(cudaSetDevice(used[0]));
    for (int j = 1; j < k; ++j) CUDA_CHECK(cudaStreamWaitEvent(timing, (*sides[j])->done.get(), 0));
  };
  int last_baseline = 0;
  LoopConfig config;
  config.baseline = [&](std::int64_t i) {
    const int v = value_of(i);
    launch_all(v, k);
    join_all();
    last_baseline = v;
  };

  std::int64_t bad = 0;
  const auto step = [&](std::int64_t i) {
    const int v = value_of(i);
    launch_all(v, 0);
    for (int j = 0; j < k; ++j) {
      if (sync == SyncEach::device_sync) {
        CUDA_CHECK(cudaSetDevice(used[j]));
        CUDA_CHECK(cudaDeviceSynchronize());
      } else {
        CUDA_CHECK(cudaEventSynchronize((*sides[j])->done.get()));
      }
    }
    join_all();  // on events that have completed: the baseline's calls, nothing to wait for
    for (int j = 0; j < k; ++j)
      if (host[j] != v) ++bad;
  };
  const StepStats stats = run_timed_steps(state, timing, step, config);
  if (bad > 0)
    throw std::runtime_error(std::to_string(bad) +
                             " per-device values were not there when the host's waits returned");
  CUDA_CHECK(cudaStreamSynchronize(timing));  // behind every baseline kernel (the joins)
  for (int j = 0; j < k; ++j)
    if (host[k + j] != last_baseline || last_baseline == 0)
      throw std::runtime_error("the last baseline step's kernel on GPU " + std::to_string(used[j]) +
                               " did not run");
  report_step_counters(state, stats);
  report_devices(state, used);
}

// --- Registration ----------------------------------------------------------------------------

const std::vector<std::size_t> kCopySizes = {4 << 10, 1 << 20, 64 << 20, 256 << 20};
const std::vector<int> kSyncDevices = {2, 4, 8};

}  // namespace

void register_multi_gpu() {
  for (Wait wait : {Wait::event, Wait::host})
    register_family_benchmark(
        bench_name({"MultiGpu", "CrossDevice", wait == Wait::event ? "event_wait" : "host_wait"}),
        [wait](benchmark::State& state) { run_cross_device(state, wait); });
  for (Route route : {Route::peer_on, Route::peer_off, Route::staged}) {
    const char* variant = route == Route::peer_on    ? "peer_on"
                          : route == Route::peer_off ? "peer_off"
                                                     : "staged";
    for (std::size_t bytes : kCopySizes)
      register_family_benchmark(
          bench_name({"MultiGpu", "PeerCopy", variant},
                     {{"bytes", static_cast<std::int64_t>(bytes)}}),
          [route, bytes](benchmark::State& state) { run_peer_copy(state, route, bytes); });
  }
  for (SyncEach sync : {SyncEach::device_sync, SyncEach::event})
    for (int k : kSyncDevices)
      register_family_benchmark(
          bench_name({"MultiGpu", "SyncAll",
                      sync == SyncEach::device_sync ? "device_sync_each" : "event_each"},
                     {{"devices", k}}),
          [sync, k](benchmark::State& state) { run_sync_all(state, sync, k); });
}

}  // namespace sync_bench
