#include "graphs_kernels.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "cuda_check.hpp"
#include "device_helpers.cuh"
#include "device_kernels.cuh"
#include "gemm.hpp"

namespace sync_bench {
namespace {

constexpr int kThreads = 256;
constexpr int kLossBlocks = 128;
constexpr std::size_t kWorkspaceBytes = 32u << 20;  // set, so that cuBLAS can be captured
constexpr std::size_t kSamples = 512;               // per layer, against a float64 reference

int grid_for(std::size_t count) {
  const std::size_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < 65535 * 8 ? (blocks > 0 ? blocks : 1) : 65535 * 8);
}

struct Above {
  float threshold;
  __host__ __device__ bool operator()(const float& x) const { return x > threshold; }
};

__global__ void double_selected_kernel(const float* in, float* out,
                                       const std::int64_t* device_count, std::int64_t host_count) {
  const std::int64_t count = device_count ? *device_count : host_count;
  for (std::int64_t j = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; j < count;
       j += std::int64_t(gridDim.x) * blockDim.x)
    out[j] = 2.0f * in[j];
}

template <class T>
__global__ void relu_kernel(T* data, std::size_t count) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    if (to_float(data[i]) < 0.0f) data[i] = T(0.0f);
}

// Sums blockDim.x (a power of two, at most kThreads) values in a fixed order.
__device__ float block_sum(float value) {
  __shared__ float partial[kThreads];
  partial[threadIdx.x] = value;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  return partial[0];
}

template <class T>
__global__ void square_sum_kernel(const T* data, std::size_t count, float* partials) {
  float local = 0.0f;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const float v = to_float(data[i]);
    local += v * v;
  }
  const float total = block_sum(local);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

__global__ void finish_loss_kernel(const float* partials, float inv_count, LossState* state) {
  const float total = block_sum(partials[threadIdx.x]);
  if (threadIdx.x == 0) {
    const float loss = total * inv_count;
    state->loss = loss;
    state->sum += loss;
    state->steps += 1;
  }
}

// data[i] = max(data[i], 0).
void relu_inplace(void* data, Dtype dtype, std::size_t count, cudaStream_t stream) {
  with_storage_type(dtype, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    relu_kernel<<<grid_for(count), kThreads, 0, stream>>>(static_cast<T*>(data), count);
  });
  CUDA_CHECK_LAST_LAUNCH();
}

// state->loss = sum(data[i]^2) / count; state->sum += loss; ++state->steps, in a fixed order.
void mean_square_loss(const void* data, Dtype dtype, std::size_t count, float* partials,
                      LossState* state, cudaStream_t stream) {
  with_storage_type(dtype, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    square_sum_kernel<<<kLossBlocks, kThreads, 0, stream>>>(static_cast<const T*>(data), count,
                                                            partials);
  });
  CUDA_CHECK_LAST_LAUNCH();
  finish_loss_kernel<<<1, kLossBlocks, 0, stream>>>(partials, 1.0f / static_cast<float>(count),
                                                    state);
  CUDA_CHECK_LAST_LAUNCH();
}

}  // namespace

std::size_t select_above_temp_bytes(std::size_t count) {
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceSelect::If(
      nullptr, bytes, static_cast<const float*>(nullptr), static_cast<float*>(nullptr),
      static_cast<std::int64_t*>(nullptr), static_cast<std::int64_t>(count), Above{0.0f}));
  return bytes;
}

void select_above(const float* in, std::size_t count, float threshold, float* out,
                  std::int64_t* device_selected, void* temp, std::size_t temp_bytes,
                  cudaStream_t stream) {
  CUDA_CHECK(cub::DeviceSelect::If(temp, temp_bytes, in, out, device_selected,
                                   static_cast<std::int64_t>(count), Above{threshold}, stream));
  CUDA_CHECK_LAST_LAUNCH();
}

void double_selected(const float* in, float* out, const std::int64_t* device_count,
                     std::int64_t host_count, int blocks, cudaStream_t stream) {
  double_selected_kernel<<<blocks, kThreads, 0, stream>>>(in, out, device_count, host_count);
  CUDA_CHECK_LAST_LAUNCH();
}

MlpStep::MlpStep(Dtype dtype, int n, cudaStream_t stream)
    : dtype_(dtype),
      n_(n),
      stream_(stream),
      alpha_(static_cast<float>(std::sqrt(6.0 / n))),
      workspace_(kWorkspaceBytes),
      partials_(kLossBlocks),
      state_(1) {
  // Its GEMMs are cublasGemmEx calls of its own: skipped where a Gemm of the dtype would be.
  require_gemm_support(dtype, Backend::cublas);
  const std::size_t bytes = elements() * traits(dtype).element_bytes;
  for (int l = 0; l <= kLayers; ++l) act_.emplace_back(bytes);
  for (int l = 0; l < kLayers; ++l) weight_.emplace_back(bytes);
  fill_uniform(act_[0].get(), dtype, elements(), 11, stream);
  for (int l = 0; l < kLayers; ++l)
    fill_uniform(weight_[l].get(), dtype, elements(), 12 + l, stream);
  CUBLAS_CHECK(cublasSetStream(blas_.get(), stream));
  CUBLAS_CHECK(cublasSetWorkspace(blas_.get(), workspace_.get(), kWorkspaceBytes));
  reset();
}

void MlpStep::enqueue() const {
  const DtypeTraits t = traits(dtype_);
  const float beta = 0.0f;
  for (int l = 0; l < kLayers; ++l) {
    CUBLAS_CHECK(cublasGemmEx(blas_.get(), CUBLAS_OP_N, CUBLAS_OP_N, n_, n_, n_, &alpha_,
                              act_[l].get(), t.storage, n_, weight_[l].get(), t.storage, n_, &beta,
                              act_[l + 1].get(), t.storage, n_, t.compute, CUBLAS_GEMM_DEFAULT));
    if (l + 1 < kLayers) relu_inplace(act_[l + 1].get(), dtype_, elements(), stream_);
  }
  mean_square_loss(act_[kLayers].get(), dtype_, elements(), partials_.get(), state_.get(), stream_);
}

void MlpStep::reset() const {
  CUDA_CHECK(cudaMemsetAsync(state_.get(), 0, state_.bytes(), stream_));
}

float MlpStep::validate() const {
  std::vector<std::int64_t> idx(kSamples);
  std::uint64_t lcg = 0x2545f4914f6cdd1dULL;
  for (auto& i : idx)
    i = ((lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL) >> 17) % elements();
  DeviceBuffer<std::int64_t> d_idx(kSamples);
  DeviceBuffer<double> d_ref(kLayers * kSamples), d_got(kLayers * kSamples);
  CUDA_CHECK(
      cudaMemcpyAsync(d_idx.get(), idx.data(), d_idx.bytes(), cudaMemcpyHostToDevice, stream_));
  enqueue();
  for (int l = 0; l < kLayers; ++l) {
    gemm_reference_at(act_[l].get(), weight_[l].get(), dtype_, n_, false, d_idx.get(),
                      d_ref.get() + l * kSamples, kSamples, stream_);
    gather_to_double(act_[l + 1].get(), dtype_, d_idx.get(), d_got.get() + l * kSamples, kSamples,
                     stream_);
  }
  std::vector<double> ref(d_ref.size()), got(d_got.size());
  std::vector<std::byte> out(act_[kLayers].bytes());
  LossState state{};
  const auto to_host = [&](void* dst, const void* src, std::size_t bytes) {
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream_));
  };
  to_host(ref.data(), d_ref.get(), d_ref.bytes());
  to_host(got.data(), d_got.get(), d_got.bytes());
  to_host(out.data(), act_[kLayers].get(), out.size());
  to_host(&state, state_.get(), sizeof(state));
  CUDA_CHECK(cudaStreamSynchronize(stream_));
  for (int l = 0; l < kLayers; ++l) {
    double err2 = 0.0, ref2 = 0.0;
    for (std::size_t s = l * kSamples; s < (l + 1) * kSamples; ++s) {
      const double r = l + 1 < kLayers ? std::max(alpha_ * ref[s], 0.0) : alpha_ * ref[s];
      err2 += (got[s] - r) * (got[s] - r);
      ref2 += r * r;
    }
    if (!(std::sqrt(err2 / ref2) <= traits(dtype_).tolerance))
      throw std::runtime_error("layer " + std::to_string(l) + ": relative error " +
                               std::to_string(std::sqrt(err2 / ref2)) +
                               " against a float64 reference");
  }
  double sum = 0.0;
  for (std::size_t i = 0; i < elements(); ++i)
    sum += std::pow(element_to_double(out.data() + i * traits(dtype_).element_bytes, dtype_), 2);
  const double host_loss = sum / elements();
  if (state.steps != 1 || !(std::abs(state.loss - host_loss) <= 1e-3 * host_loss))
    throw std::runtime_error("loss " + std::to_string(state.loss) + " after " +
                             std::to_string(state.steps) + " steps; the host computes " +
                             std::to_string(host_loss));
  reset();
  return state.loss;
}

}  // namespace sync_bench
