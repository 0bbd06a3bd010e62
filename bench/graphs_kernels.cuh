#pragma once
// What the graph-group families (GraphReplay, DataDependent, SyncEvery, TrainLoop) add to
// common/: the device work of a dynamic-shape selection and of a small training step, and graph
// capture. Enqueuing never synchronizes.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"
#include "cuda_resources.hpp"
#include "dtype.hpp"

namespace sync_bench {

// --- DataDependent: x[x > threshold], then a kernel on what was selected.

// Bytes of temporary storage select_above needs for `count` inputs (CUB's DeviceSelect::If).
std::size_t select_above_temp_bytes(std::size_t count);

// Stable compaction: out[0 .. *device_selected) = the elements of in greater than threshold, in
// order; the count stays in device memory.
void select_above(const float* in, std::size_t count, float threshold, float* out,
                  std::int64_t* device_selected, void* temp, std::size_t temp_bytes,
                  cudaStream_t stream);

// out[j] = 2 * in[j] for j < count, where count is *device_count when that is not null (read on
// the device) and host_count otherwise. A grid-stride loop over `blocks` blocks of 256 threads.
void double_selected(const float* in, float* out, const std::int64_t* device_count,
                     std::int64_t host_count, int blocks, cudaStream_t stream);

// --- TrainLoop: a small training-like step.

// What the step's loss kernels leave on the device: this step's loss, the sum of every loss and
// the number of steps since the state was zeroed (what a read of the loss checks).
struct LossState {
  float loss;
  std::int32_t steps;
  double sum;
};

// x -> relu(a x W1) -> relu(a . W2) -> a . W3 -> loss = mean(.^2), n x n matrices of `dtype`
// through cublasGemmEx (its own handle and workspace, so that the step can be captured); a =
// sqrt(6/n) keeps the activations' variance at 2/3 from layer to layer. The loss is reduced in a
// fixed order, so every step writes the same value.
class MlpStep {
 public:
  static constexpr int kLayers = 3;
  MlpStep(Dtype dtype, int n, cudaStream_t stream);
  void enqueue() const;  // one step: 3 GEMMs, 2 ReLUs, 2 loss kernels
  // Setup only (it synchronizes): one step; each layer's sampled outputs against a float64
  // reference from its actual inputs, the loss against the host's mean. Returns the loss and
  // zeroes the state.
  float validate() const;
  void reset() const;  // zeroes the state (on the stream)
  const LossState* state() const { return state_.get(); }
  double flops() const { return kLayers * 2.0 * n_ * double(n_) * n_; }

 private:
  std::size_t elements() const { return std::size_t(n_) * n_; }

  Dtype dtype_;
  int n_;
  cudaStream_t stream_;
  float alpha_;
  std::vector<DeviceBuffer<std::byte>> act_, weight_;  // act_[0] = x, act_[l+1] = layer l's output
  DeviceBuffer<std::byte> workspace_;
  DeviceBuffer<float> partials_;
  DeviceBuffer<LossState> state_;
  CublasHandle blas_;
};

// --- CUDA graphs and step times measured in a benchmark's setup.

// What enqueue() puts on `stream` (non-blocking, not capturing), captured into a graph in
// thread-local mode. Should enqueue() throw, the capture is ended and its partial graph dropped.
template <class Enqueue>
Graph capture_graph(cudaStream_t stream, Enqueue&& enqueue) {
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  cudaGraph_t graph = nullptr;
  try {
    enqueue();
  } catch (...) {
    CUDA_CHECK_NOEXCEPT(cudaStreamEndCapture(stream, &graph));
    if (graph) CUDA_CHECK_NOEXCEPT(cudaGraphDestroy(graph));
    throw;
  }
  CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  return Graph(graph);
}

inline std::size_t graph_nodes(const Graph& graph) {
  std::size_t count = 0;
  CUDA_CHECK(cudaGraphGetNodes(graph.get(), nullptr, &count));
  return count;
}

}  // namespace sync_bench
