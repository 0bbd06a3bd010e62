#pragma once
// What the MultiGpu benchmarks share: which GPUs they run on (from --devices), and RAII for
// resources that belong to one GPU while another is current.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "cuda_check.hpp"
#include "cuda_resources.hpp"

namespace sync_bench {

std::string list_of(const std::vector<int>& devices);  // "0,1,3"

// The devices a MultiGpu benchmark runs on: `pair` for pairwise ones (A, then B), `each` for the
// per-device ones. Unsupported when the machine or the selection does not have them.
struct Devices {
  std::vector<int> pair;
  std::vector<int> each;
};

Devices chosen_devices();

// Unsupported, naming `benchmark`, when a GPU appears twice in `devices` (--devices=0,0).
void require_distinct(const std::vector<int>& devices, const char* benchmark);

// The devices' counters: how many, and the first two.
void report_devices(benchmark::State& state, const std::vector<int>& devices);

// A T (CUDA resources) created and destroyed with `device` current; in between, the device that
// was current before stays current.
template <class T>
class OnDevice {
 public:
  template <class... Args>
  explicit OnDevice(int device, Args&&... args)
      : device_(device), scope_(device), value_(std::forward<Args>(args)...) {
    scope_.restore();
  }
  // The body runs before value_ is destroyed, scope_'s destructor after: value_ goes with
  // device_ current, then the current device is put back.
  ~OnDevice() { scope_.reenter(device_); }
  OnDevice(const OnDevice&) = delete;
  OnDevice& operator=(const OnDevice&) = delete;
  T* operator->() { return &value_; }
  T& get() { return value_; }
  int device() const { return device_; }

 private:
  int device_;
  DeviceScope scope_;
  T value_;
};

// A stream of one GPU and an event recorded on it (no timing: only waited for).
struct GpuSide {
  Stream stream{cudaStreamNonBlocking};
  Event done{cudaEventDisableTiming};
};

}  // namespace sync_bench
