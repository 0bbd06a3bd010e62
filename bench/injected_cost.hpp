#pragma once
// The cost --sync_inject adds to each timed step of the benchmarks it chose (measure_config.hpp).

#include <cstdint>

#include <cuda_runtime_api.h>

#include "measure_config.hpp"

namespace sync_bench {

class InjectedCost {
 public:
  // seconds <= 0: no cost at all (pay() returns at once).
  InjectedCost(Injection::Kind kind, double seconds, cudaStream_t stream);

  // host: busy-waits `seconds` on the host's steady clock; gpu: enqueues a spin kernel of
  // `seconds` on the stream.
  void pay() const {
    if (kind_ != Injection::Kind::none) pay_now();
  }

 private:
  void pay_now() const;

  Injection::Kind kind_;
  double seconds_;
  cudaStream_t stream_;
};

}  // namespace sync_bench
