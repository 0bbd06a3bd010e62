// DataDependent: the dynamic-shape sync (x[x > t], nonzero): select the elements above a
// threshold, then run the next kernel on exactly those. A step = the selection + that kernel.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_context.hpp"
#include "device_kernels.cuh"
#include "families.hpp"
#include "graphs_kernels.cuh"
#include "names.hpp"
#include "step_loop.hpp"

namespace sync_bench {
namespace {

enum class Pattern { HostSized, DeviceSized };

struct Spec {
  Pattern pattern;
  std::int64_t elements;
};

const std::vector<std::int64_t> kElements = {std::int64_t{1} << 20, std::int64_t{1} << 23,
                                             std::int64_t{1} << 26};
constexpr float kThreshold = 0.5f;  // keeps about a quarter of uniform [-1, 1) data
constexpr std::uint32_t kSeed = 3;
constexpr int kThreads = 256;  // per block of double_selected

void run(benchmark::State& state, const Spec& spec) {
  BenchContext& ctx = bench_context();
  const cudaStream_t stream = ctx.stream();
  const std::size_t n = static_cast<std::size_t>(spec.elements);
  // Even steps select from `data`, odd steps from a copy with one more element above the
  // threshold: the same work, but a count read before its step's selection (a missing wait)
  // is the other step's, off by one, and is caught at every step, not only the first.
  DeviceBuffer<float> data(n), data_odd(n), selected(n), doubled(n);
  DeviceBuffer<std::int64_t> count(1);
  DeviceBuffer<std::byte> temp(select_above_temp_bytes(n));
  PinnedBuffer<std::int64_t> host_count(1);
  fill_uniform(data.get(), Dtype::fp32, n, kSeed, stream);

  // The expected selections, from the same data copied to the host once.
  std::vector<float> host(n);
  CUDA_CHECK(
      cudaMemcpyAsync(host.data(), data.get(), data.bytes(), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  const auto raised = static_cast<std::size_t>(
      std::find_if(host.begin(), host.end(), [](float x) { return x <= kThreshold; }) -
      host.begin());
  if (raised == n) throw std::logic_error("DataDependent: no element under the threshold");
  const float above = 2.0f * kThreshold;  // above the threshold, and doubled exactly
  CUDA_CHECK(
      cudaMemcpyAsync(data_odd.get(), data.get(), data.bytes(), cudaMemcpyDeviceToDevice, stream));
  CUDA_CHECK(cudaMemcpyAsync(data_odd.get() + raised, &above, sizeof(float), cudaMemcpyHostToDevice,
                             stream));
  std::vector<float> expected[2];
  for (std::size_t j = 0; j < n; ++j) {
    if (host[j] > kThreshold) expected[0].push_back(host[j]);
    const float odd = j == raised ? above : host[j];
    if (odd > kThreshold) expected[1].push_back(odd);
  }
  // Zeroed, so that what is checked afterwards was written by the steps.
  CUDA_CHECK(cudaMemsetAsync(doubled.get(), 0, doubled.bytes(), stream));
  CUDA_CHECK(cudaMemsetAsync(count.get(), 0, count.bytes(), stream));

  int device = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  // One thread per element up to 8 blocks per SM, a grid-stride loop beyond: the same launch
  // shape for both patterns once the count is large.
  auto blocks_for = [&](std::int64_t elements) {
    return static_cast<int>(
        std::clamp<std::int64_t>((elements + kThreads - 1) / kThreads, 1, std::int64_t{8} * sms));
  };
  auto select = [&](std::int64_t i) {
    select_above(i % 2 ? data_odd.get() : data.get(), n, kThreshold, selected.get(), count.get(),
                 temp.get(), temp.bytes(), stream);
  };

  std::int64_t bad_counts = 0;
  StepStats stats;
  if (spec.pattern == Pattern::HostSized) {
    // As PyTorch sizes the output of nonzero/x[mask]: the count is copied to the host and waited
    // for, and the next launch is sized from it.
    stats = run_timed_steps(state, stream, [&](std::int64_t i) {
      select(i);
      CUDA_CHECK(cudaMemcpyAsync(host_count.get(), count.get(), sizeof(std::int64_t),
                                 cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
      const std::int64_t got = std::clamp<std::int64_t>(*host_count.get(), 0, spec.elements);
      if (got != static_cast<std::int64_t>(expected[i % 2].size())) ++bad_counts;
      double_selected(selected.get(), doubled.get(), nullptr, got, blocks_for(got), stream);
    });
  } else {
    // Fixed capacity, no sync: the launch is sized as if every element passed, and the kernel
    // reads the count from device memory.
    const int blocks = blocks_for(spec.elements);
    LoopConfig config;
    config.step_is_async = true;
    stats = run_timed_steps(
        state, stream,
        [&](std::int64_t i) {
          select(i);
          double_selected(selected.get(), doubled.get(), count.get(), 0, blocks, stream);
        },
        config);
  }

  // The last step's count, and every element it selected doubled, in order.
  const std::vector<float>& last = expected[stats.last_step % 2];
  CUDA_CHECK(cudaMemcpyAsync(host_count.get(), count.get(), sizeof(std::int64_t),
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaMemcpyAsync(host.data(), doubled.get(), last.size() * sizeof(float),
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  if (bad_counts > 0 || *host_count.get() != static_cast<std::int64_t>(last.size()))
    throw std::runtime_error("selected count " + std::to_string(*host_count.get()) + " (" +
                             std::to_string(bad_counts) + " wrong counts read), expected " +
                             std::to_string(last.size()));
  for (std::size_t j = 0; j < last.size(); ++j)
    if (host[j] != 2.0f * last[j])
      throw std::runtime_error("selected element " + std::to_string(j) + " is " +
                               std::to_string(host[j]) + ", expected " +
                               std::to_string(2.0f * last[j]));

  report_step_counters(state, stats);
  state.SetItemsProcessed(spec.elements);  // per step: input elements per second
  state.counters["selected"] = static_cast<double>(*host_count.get());  // the GPU's, checked above
}

}  // namespace

void register_data_dependent() {
  for (std::int64_t elements : kElements)
    for (Pattern p : {Pattern::HostSized, Pattern::DeviceSized}) {
      const Spec spec{p, elements};
      register_family_benchmark(
          bench_name({"DataDependent", p == Pattern::HostSized ? "HostSized" : "DeviceSized"},
                     {{"elements", elements}}),
          [spec](benchmark::State& state) { run(state, spec); });
    }
}

}  // namespace sync_bench
