// Where a fast host's extra wait in TrainLoop/ItemEveryStep bf16 n=512 goes. One training step
// (MlpStep, as TrainLoop enqueues it), then a host spin of X us, then the step's end (the .item()
// copy and its stream sync, or variants), timed with host timestamps only (no CUPTI, which slows
// the host). If the GPU is still working through the step's tail when the host reaches the copy,
// a spin before it shortens the wait by about X, down to a floor; a fixed cost of the sync's path
// would not shrink.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "cuda_check.hpp"
#include "cuda_resources.hpp"
#include "dtype.hpp"
#include "graphs_kernels.cuh"

namespace {

using Clock = std::chrono::steady_clock;

double us(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

void spin_us(double x) {
  const auto end = Clock::now() + std::chrono::nanoseconds(static_cast<long long>(x * 1000));
  while (Clock::now() < end) {
  }
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

}  // namespace

int main() {
  using namespace sync_bench;
  const Stream stream;
  const MlpStep mlp(Dtype::bf16, 512, stream.get());
  mlp.validate();
  PinnedBuffer<LossState> host(1);
  constexpr int kSteps = 3000;

  // The host's speed: enqueue time per step with no read (the Async loop), queue drained after.
  std::vector<double> enqueue_async;
  for (int i = 0; i < kSteps; ++i) {
    const auto t0 = Clock::now();
    mlp.enqueue();
    enqueue_async.push_back(us(Clock::now() - t0));
    if (i % 100 == 99) CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  }
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  std::printf("async_enqueue_us %.2f\n", median(enqueue_async));
  // What ends the step: the .item() copy then a sync (copy), a sync alone (sync), or a sync, then
  // the copy on the idle GPU, then a sync (sync_copy).
  enum class End { copy, sync, sync_copy };
  std::printf("end spin_us enqueue_us end_call_us sync_wait_us step_us\n");
  for (End end : {End::copy, End::sync, End::sync_copy}) {
    for (double x : {0.0, 2.0, 4.0, 6.0, 8.0, 12.0}) {
      std::vector<double> enqueue, end_call, wait, step;
      for (int i = 0; i < kSteps + 300; ++i) {
        const auto t0 = Clock::now();
        mlp.enqueue();
        const auto t1 = Clock::now();
        spin_us(x);
        const auto t2 = Clock::now();
        if (end == End::sync_copy) CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        if (end != End::sync)
          CUDA_CHECK(cudaMemcpyAsync(host.get(), mlp.state(), sizeof(LossState),
                                     cudaMemcpyDeviceToHost, stream.get()));
        const auto t3 = Clock::now();
        CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        const auto t4 = Clock::now();
        if (i < 300) continue;  // warm-up
        enqueue.push_back(us(t1 - t0));
        end_call.push_back(us(t3 - t2));
        wait.push_back(us(t4 - t3));
        step.push_back(us(t4 - t0));
      }
      const char* name = end == End::copy ? "copy" : end == End::sync ? "sync" : "sync_copy";
      std::printf("%s %.0f %.2f %.2f %.2f %.2f\n", name, x, median(enqueue), median(end_call),
                  median(wait), median(step));
    }
  }
  return 0;
}
