#include "ops.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "device_kernels.cuh"

namespace sync_bench {

bool Op::read_matches(const void* element, std::int64_t step) const {
  const double expected = expected_probe(step);
  // Exact for the null kernel; a GEMM's value is deterministic, the slack only tolerates a
  // library that reorders its reduction, never a sign flip (a stale read).
  return std::abs(decode(element) - expected) <= 1e-3 * std::abs(expected);
}

NullKernelOp::NullKernelOp(cudaStream_t stream) : stream_(stream), out_(1) {}

void NullKernelOp::enqueue(std::int64_t step) const {
  launch_null_kernel(out_.get(), static_cast<int>(expected_probe(step)), stream_);
}

void SpinKernelOp::enqueue(std::int64_t step) const {
  launch_spin_kernel(ns_, stream_, out_.get(), static_cast<int>(expected_probe(step)));
}

const std::byte* NullKernelOp::output() const {
  return reinterpret_cast<const std::byte*>(out_.get());
}

double NullKernelOp::expected_probe(std::int64_t step) const {
  return static_cast<double>(step % 1000000000 + 1);
}

double NullKernelOp::decode(const void* element) const {
  return *static_cast<const int*>(element);
}

double GemmOp::decode(const void* element) const {
  return element_to_double(element, output_dtype(gemm_.dtype()));
}

void check_final_output(const Op& op, std::int64_t last_step, cudaStream_t stream) {
  alignas(16) std::byte element[16];
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaMemcpy(element, op.output() + op.probe_offset(), op.probe_bytes(),
                        cudaMemcpyDeviceToHost));
  if (!op.read_matches(element, last_step))
    throw std::runtime_error("output after step " + std::to_string(last_step) + " holds " +
                             std::to_string(op.decode(element)) + ", expected " +
                             std::to_string(op.expected_probe(last_step)));
}

}  // namespace sync_bench
