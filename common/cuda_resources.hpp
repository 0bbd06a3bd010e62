#pragma once
// Move-only RAII owners for every CUDA resource sync_bench creates. Constructors throw on failure
// (Unsupported when an allocation does not fit); destructors never throw (a failure there is
// reported and ignored).

#include <cstddef>
#include <utility>

#include "cuda_check.hpp"

namespace sync_bench {

class Stream {
 public:
  explicit Stream(unsigned flags = cudaStreamNonBlocking) {
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, flags));
  }
  ~Stream() {
    if (stream_) CUDA_CHECK_NOEXCEPT(cudaStreamDestroy(stream_));
  }
  Stream(Stream&& o) noexcept : stream_(std::exchange(o.stream_, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept {
    std::swap(stream_, o.stream_);
    return *this;
  }
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

class Event {
 public:
  explicit Event(unsigned flags = cudaEventDefault) {
    CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags));
  }
  ~Event() {
    if (event_) CUDA_CHECK_NOEXCEPT(cudaEventDestroy(event_));
  }
  Event(Event&& o) noexcept : event_(std::exchange(o.event_, nullptr)) {}
  Event& operator=(Event&& o) noexcept {
    std::swap(event_, o.event_);
    return *this;
  }
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    CUDA_CHECK_ALLOCATION(cudaMalloc(reinterpret_cast<void**>(&ptr_), bytes()), Memory::device,
                          bytes());
  }
  ~DeviceBuffer() {
    if (ptr_) CUDA_CHECK_NOEXCEPT(cudaFree(ptr_));
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
    return *this;
  }
  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// Page-locked host memory (cudaMallocHost): the only host memory a copy engine reads directly.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count) : count_(count) {
    CUDA_CHECK_ALLOCATION(cudaMallocHost(reinterpret_cast<void**>(&ptr_), bytes()),
                          Memory::pinned_host, bytes());
  }
  ~PinnedBuffer() {
    if (ptr_) CUDA_CHECK_NOEXCEPT(cudaFreeHost(ptr_));
  }
  PinnedBuffer(PinnedBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
    return *this;
  }
  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

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

class CublasHandle {
 public:
  CublasHandle() { CUBLAS_CHECK(cublasCreate(&handle_)); }
  ~CublasHandle() {
    if (handle_) CUBLAS_CHECK_NOEXCEPT(cublasDestroy(handle_));
  }
  CublasHandle(CublasHandle&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)) {}
  CublasHandle& operator=(CublasHandle&& o) noexcept {
    std::swap(handle_, o.handle_);
    return *this;
  }
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

class CublasLtHandle {
 public:
  CublasLtHandle() { CUBLAS_CHECK(cublasLtCreate(&handle_)); }
  ~CublasLtHandle() {
    if (handle_) CUBLAS_CHECK_NOEXCEPT(cublasLtDestroy(handle_));
  }
  CublasLtHandle(CublasLtHandle&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)) {}
  CublasLtHandle& operator=(CublasLtHandle&& o) noexcept {
    std::swap(handle_, o.handle_);
    return *this;
  }
  cublasLtHandle_t get() const { return handle_; }

 private:
  cublasLtHandle_t handle_ = nullptr;
};

class GraphExec {
 public:
  GraphExec() = default;
  explicit GraphExec(cudaGraph_t graph) { CUDA_CHECK(cudaGraphInstantiate(&exec_, graph, 0)); }
  ~GraphExec() {
    if (exec_) CUDA_CHECK_NOEXCEPT(cudaGraphExecDestroy(exec_));
  }
  GraphExec(GraphExec&& o) noexcept : exec_(std::exchange(o.exec_, nullptr)) {}
  GraphExec& operator=(GraphExec&& o) noexcept {
    std::swap(exec_, o.exec_);
    return *this;
  }
  cudaGraphExec_t get() const { return exec_; }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

class Graph {
 public:
  Graph() = default;
  // Takes ownership of a graph returned by cudaStreamEndCapture.
  explicit Graph(cudaGraph_t graph) : graph_(graph) {}
  ~Graph() {
    if (graph_) CUDA_CHECK_NOEXCEPT(cudaGraphDestroy(graph_));
  }
  Graph(Graph&& o) noexcept : graph_(std::exchange(o.graph_, nullptr)) {}
  Graph& operator=(Graph&& o) noexcept {
    std::swap(graph_, o.graph_);
    return *this;
  }
  cudaGraph_t get() const { return graph_; }

 private:
  cudaGraph_t graph_ = nullptr;
};

}  // namespace sync_bench
