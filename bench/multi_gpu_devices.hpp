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

// Makes `device` current; restore() (or the end of its scope) makes the one current before
// current again.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    CUDA_CHECK(cudaGetDevice(&previous_));
    CUDA_CHECK(cudaSetDevice(device));
  }
  ~DeviceScope() { restore(); }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;
  void restore() noexcept {
    if (previous_ >= 0) CUDA_CHECK_NOEXCEPT(cudaSetDevice(std::exchange(previous_, -1)));
  }
  // For destructors: makes `device` current, remembering the current one for restore().
  void reenter(int device) noexcept {
    int current = -1;
    CUDA_CHECK_NOEXCEPT(cudaGetDevice(&current));
    previous_ = current;
    CUDA_CHECK_NOEXCEPT(cudaSetDevice(device));
  }

 private:
  int previous_ = -1;
};

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

// Page-locked host memory mapped into every GPU's address space (portable, mapped): what a kernel
// on any GPU writes there the host and the other GPUs read, and a copy engine reads directly.
template <class T>
class MappedHost {
 public:
  explicit MappedHost(std::size_t count) : count_(count) {
    // A size that does not fit in pinned host memory skips its benchmark (Unsupported).
    if (count_ > 0)
      CUDA_CHECK_ALLOCATION(cudaHostAlloc(reinterpret_cast<void**>(&ptr_), count_ * sizeof(T),
                                          cudaHostAllocPortable | cudaHostAllocMapped),
                            Memory::pinned_host, count_ * sizeof(T));
  }
  ~MappedHost() {
    if (ptr_) CUDA_CHECK_NOEXCEPT(cudaFreeHost(ptr_));
  }
  MappedHost(const MappedHost&) = delete;
  MappedHost& operator=(const MappedHost&) = delete;
  T* get() const { return ptr_; }
  // The address a kernel on `device` uses (the host's under unified addressing; asked anyway).
  T* on_device(int device) const {
    DeviceScope scope(device);
    void* mapped = nullptr;
    CUDA_CHECK(cudaHostGetDevicePointer(&mapped, ptr_, 0));
    return static_cast<T*>(mapped);
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace sync_bench
