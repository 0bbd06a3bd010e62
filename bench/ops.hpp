#pragma once
// The work between syncs. Every op writes a value the host can predict from the step index, so
// that every read-back of it can be checked: the null and spin kernels write step+1, a GEMM
// alternates the sign of its output (B or -B), so a read that did not wait for its step sees the
// wrong sign.

#include <cstddef>
#include <cstdint>
#include <memory>

#include <cuda_runtime_api.h>

#include "cuda_resources.hpp"
#include "dtype.hpp"
#include "gemm.hpp"

namespace sync_bench {

class Op {
 public:
  virtual ~Op() = default;
  virtual void enqueue(std::int64_t step) const = 0;  // on the stream given at construction
  virtual const std::byte* output() const = 0;        // device memory the op writes
  virtual std::size_t output_bytes() const = 0;
  virtual std::size_t probe_offset() const = 0;  // bytes into output() of the checked element
  virtual std::size_t probe_bytes() const = 0;
  virtual double expected_probe(std::int64_t step) const = 0;
  virtual double decode(const void* element) const = 0;
  virtual double flops() const { return 0.0; }

  // True when the element read back (host memory) is what step `step` wrote.
  bool read_matches(const void* element, std::int64_t step) const;
};

class NullKernelOp : public Op {
 public:
  explicit NullKernelOp(cudaStream_t stream);
  void enqueue(std::int64_t step) const override;
  const std::byte* output() const override;
  std::size_t output_bytes() const override { return sizeof(int); }
  std::size_t probe_offset() const override { return 0; }
  std::size_t probe_bytes() const override { return sizeof(int); }
  double expected_probe(std::int64_t step) const override;
  double decode(const void* element) const override;

 protected:
  cudaStream_t stream_;
  DeviceBuffer<int> out_;
};

// The null kernel's store after holding the GPU for a known time (the GPU's global timer, so the
// step's length does not move with the SM clock): a step of fixed GPU length with no power draw,
// for how a sync's cost depends on how long the host waits.
class SpinKernelOp final : public NullKernelOp {
 public:
  SpinKernelOp(cudaStream_t stream, std::uint64_t ns) : NullKernelOp(stream), ns_(ns) {}
  void enqueue(std::int64_t step) const override;

 private:
  std::uint64_t ns_;
};

class GemmOp final : public Op {
 public:
  explicit GemmOp(const Gemm& gemm) : gemm_(gemm) {}
  void enqueue(std::int64_t step) const override { gemm_.enqueue(step & 1); }
  const std::byte* output() const override { return static_cast<const std::byte*>(gemm_.c()); }
  std::size_t output_bytes() const override { return gemm_.c_bytes(); }
  std::size_t probe_offset() const override { return gemm_.probe_index() * probe_bytes(); }
  std::size_t probe_bytes() const override {
    return traits(output_dtype(gemm_.dtype())).element_bytes;
  }
  double expected_probe(std::int64_t step) const override {
    return sign(step) * gemm_.probe_value();
  }
  double decode(const void* element) const override;
  double flops() const override { return gemm_.flops(); }

 private:
  static float sign(std::int64_t step) { return (step & 1) ? -1.0f : 1.0f; }
  const Gemm& gemm_;
};

// Reads the probe element after everything on `stream` finished and throws unless it holds what
// `last_step` wrote. Setup/teardown only: it synchronizes.
void check_final_output(const Op& op, std::int64_t last_step, cudaStream_t stream);

}  // namespace sync_bench
