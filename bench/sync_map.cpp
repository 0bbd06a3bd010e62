#include "sync_map.hpp"

#include <cublasLt.h>
#include <cublas_v2.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cuda_check.hpp"
#include "cuda_resources.hpp"
#include "device_info.hpp"
#include "device_kernels.cuh"
#include "gemm.hpp"

namespace sync_bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kBytes = 64 << 10;  // small: a copy's own time is far below the spin
constexpr std::uint64_t kSpinNs = 2'000'000;
constexpr int kRepeats = 3;

// Everything the probes touch, made once. `busy` is an ordinary (blocking) stream, so the legacy
// default stream waits for it; `other` is non-blocking and idle.
struct Env {
  Stream busy{cudaStreamDefault};
  Stream other{cudaStreamNonBlocking};
  DeviceBuffer<std::byte> device{kBytes};
  std::vector<std::byte> pageable = std::vector<std::byte>(kBytes, std::byte{1});
  PinnedBuffer<std::byte> pinned{kBytes};
  std::vector<std::byte> registered_storage = std::vector<std::byte>(kBytes);
  std::byte* managed = nullptr;
  Event after_spin{cudaEventDisableTiming};
  Gemm blas{Dtype::fp16, Backend::cublas, 256, busy.get()};
  Gemm lt{Dtype::fp16, Backend::cublaslt, 256, busy.get()};
  cudaGraph_t graph = nullptr;
  DeviceBuffer<int> scalar{1};

  bool registered = false;

  Env() {
    try {
      CUDA_CHECK(cudaHostRegister(registered_storage.data(), kBytes, cudaHostRegisterDefault));
      registered = true;
      CUDA_CHECK(cudaMallocManaged(reinterpret_cast<void**>(&managed), kBytes));
      blas.validate();
      lt.validate();
      Stream capture;  // a one-kernel graph to instantiate and launch
      CUDA_CHECK(cudaStreamBeginCapture(capture.get(), cudaStreamCaptureModeThreadLocal));
      launch_null_kernel(scalar.get(), 1, capture.get());
      CUDA_CHECK(cudaStreamEndCapture(capture.get(), &graph));
    } catch (...) {
      release();  // the destructor does not run for a constructor that throws
      throw;
    }
  }
  ~Env() { release(); }
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  void release() noexcept {
    CUDA_CHECK_NOEXCEPT(cudaDeviceSynchronize());
    if (graph) CUDA_CHECK_NOEXCEPT(cudaGraphDestroy(graph));
    if (managed) CUDA_CHECK_NOEXCEPT(cudaFree(managed));
    if (registered) CUDA_CHECK_NOEXCEPT(cudaHostUnregister(registered_storage.data()));
  }
};

// A probe returns the host seconds spent in the call under test; setup and cleanup around the
// call are its own business and untimed.
using Probe = std::function<double(Env&)>;

template <class F>
double timed(F&& call) {
  const auto t0 = Clock::now();
  call();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The probe of a query (cudaEventQuery, cudaStreamQuery): it answers done (cudaSuccess) or not yet
// (cudaErrorNotReady); anything else is an error, checked outside the timed call.
template <class Query>
Probe query_probe(Query query, const char* what) {
  return [query, what](Env& e) {
    cudaError_t status = cudaSuccess;
    const double seconds = timed([&] { status = query(e); });
    if (status != cudaSuccess && status != cudaErrorNotReady)
      throw_cuda_error(status, what, __FILE__, __LINE__);
    return seconds;
  };
}

struct Row {
  std::string call;
  std::string seen_in;  // the PyTorch idiom (from the seeds) that issues this call
  Probe probe;
};

std::vector<Row> probes() {
  auto copy = [](cudaMemcpyKind kind, bool async, auto host_of) {
    return [=](Env& e) {
      void* host = host_of(e);
      void* dst = kind == cudaMemcpyDeviceToHost ? host : e.device.get();
      const void* src = kind == cudaMemcpyDeviceToHost ? static_cast<void*>(e.device.get()) : host;
      return timed([&] {
        if (async)
          CUDA_CHECK(cudaMemcpyAsync(dst, src, kBytes, kind, e.busy.get()));
        else
          CUDA_CHECK(cudaMemcpy(dst, src, kBytes, kind));
      });
    };
  };
  auto pageable = [](Env& e) -> void* { return e.pageable.data(); };
  auto pinned = [](Env& e) -> void* { return e.pinned.get(); };
  auto registered = [](Env& e) -> void* { return e.registered_storage.data(); };
  auto managed = [](Env& e) -> void* { return e.managed; };
  const auto d2h = cudaMemcpyDeviceToHost, h2d = cudaMemcpyHostToDevice;
  return {
      {"cudaDeviceSynchronize", "torch.cuda.synchronize()",
       [](Env&) { return timed([] { CUDA_CHECK(cudaDeviceSynchronize()); }); }},
      {"cudaStreamSynchronize (the busy stream)", "torch.cuda.current_stream().synchronize()",
       [](Env& e) { return timed([&] { CUDA_CHECK(cudaStreamSynchronize(e.busy.get())); }); }},
      {"cudaStreamSynchronize (another, idle stream)", "other_stream.synchronize()",
       [](Env& e) { return timed([&] { CUDA_CHECK(cudaStreamSynchronize(e.other.get())); }); }},
      {"cudaEventSynchronize (event after the work)", "event.synchronize()",
       [](Env& e) { return timed([&] { CUDA_CHECK(cudaEventSynchronize(e.after_spin.get())); }); }},
      {"cudaEventQuery", "event.query()",
       query_probe([](Env& e) { return cudaEventQuery(e.after_spin.get()); }, "cudaEventQuery")},
      {"cudaStreamQuery", "stream.query()",
       query_probe([](Env& e) { return cudaStreamQuery(e.busy.get()); }, "cudaStreamQuery")},
      {"cudaMemcpyAsync D2H, pageable", ".item(), .cpu(), print(t), nonzero() size read",
       copy(d2h, true, pageable)},
      {"cudaMemcpyAsync D2H, pinned", ".to('cpu', non_blocking=True) into pinned memory",
       copy(d2h, true, pinned)},
      {"cudaMemcpyAsync D2H, registered", "copy into cudaHostRegister'ed memory",
       copy(d2h, true, registered)},
      {"cudaMemcpyAsync D2H, managed", "copy into managed memory", copy(d2h, true, managed)},
      {"cudaMemcpyAsync H2D, pageable", ".to('cuda', non_blocking=True) from pageable memory",
       copy(h2d, true, pageable)},
      {"cudaMemcpyAsync H2D, pinned", ".to('cuda', non_blocking=True) from pinned memory",
       copy(h2d, true, pinned)},
      {"cudaMemcpyAsync H2D, registered", "copy from cudaHostRegister'ed memory",
       copy(h2d, true, registered)},
      {"cudaMemcpyAsync H2D, managed", "copy from managed memory", copy(h2d, true, managed)},
      {"cudaMemcpy D2H, pageable", "a blocking copy on the legacy default stream",
       copy(d2h, false, pageable)},
      {"cudaMemcpy D2H, pinned", "", copy(d2h, false, pinned)},
      {"cudaMemcpy D2H, registered", "", copy(d2h, false, registered)},
      {"cudaMemcpy D2H, managed", "", copy(d2h, false, managed)},
      {"cudaMemcpy H2D, pageable", ".to('cuda') from pageable memory", copy(h2d, false, pageable)},
      {"cudaMemcpy H2D, pinned", "", copy(h2d, false, pinned)},
      {"cudaMemcpy H2D, registered", "", copy(h2d, false, registered)},
      {"cudaMemcpy H2D, managed", "", copy(h2d, false, managed)},
      {"cudaMemset (legacy stream)", "",
       [](Env& e) { return timed([&] { CUDA_CHECK(cudaMemset(e.device.get(), 0, kBytes)); }); }},
      {"cudaMemsetAsync", "tensor.zero_()",
       [](Env& e) {
         return timed(
             [&] { CUDA_CHECK(cudaMemsetAsync(e.device.get(), 0, kBytes, e.busy.get())); });
       }},
      {"cudaMalloc", "caching-allocator miss",
       [](Env&) {
         void* p = nullptr;
         const double s = timed([&] { CUDA_CHECK(cudaMalloc(&p, kBytes)); });
         CUDA_CHECK(cudaFree(p));
         return s;
       }},
      {"cudaFree", "torch.cuda.empty_cache()",
       [](Env&) {
         void* p = nullptr;
         CUDA_CHECK(cudaMalloc(&p, kBytes));
         return timed([&] { CUDA_CHECK(cudaFree(p)); });
       }},
      {"cudaMallocAsync + cudaFreeAsync", "stream-ordered allocator",
       [](Env& e) {
         return timed([&] {
           void* p = nullptr;
           CUDA_CHECK(cudaMallocAsync(&p, kBytes, e.busy.get()));
           CUDA_CHECK(cudaFreeAsync(p, e.busy.get()));
         });
       }},
      {"cudaMallocHost", "pin_memory()",
       [](Env&) {
         void* p = nullptr;
         const double s = timed([&] { CUDA_CHECK(cudaMallocHost(&p, kBytes)); });
         CUDA_CHECK(cudaFreeHost(p));
         return s;
       }},
      {"cudaFreeHost", "freeing pinned memory",
       [](Env&) {
         void* p = nullptr;
         CUDA_CHECK(cudaMallocHost(&p, kBytes));
         return timed([&] { CUDA_CHECK(cudaFreeHost(p)); });
       }},
      {"cudaHostRegister + cudaHostUnregister", "",
       [](Env&) {
         std::vector<std::byte> host(kBytes);
         return timed([&] {
           CUDA_CHECK(cudaHostRegister(host.data(), kBytes, cudaHostRegisterDefault));
           CUDA_CHECK(cudaHostUnregister(host.data()));
         });
       }},
      {"kernel launch", "any CUDA op",
       [](Env& e) { return timed([&] { launch_null_kernel(e.scalar.get(), 2, e.busy.get()); }); }},
      {"cublasCreate + cublasDestroy", "first matmul on a new stream/handle",
       [](Env&) { return timed([] { CublasHandle h; }); }},
      {"cublasGemmEx", "torch.matmul", [](Env& e) { return timed([&] { e.blas.enqueue(); }); }},
      {"cublasLtCreate + cublasLtDestroy", "",
       [](Env&) { return timed([] { CublasLtHandle h; }); }},
      {"cublasLtMatmul", "torch.matmul (Lt path)",
       [](Env& e) { return timed([&] { e.lt.enqueue(); }); }},
      {"cudaGraphInstantiate", "torch.cuda.graph capture",
       [](Env& e) {
         cudaGraphExec_t exec = nullptr;
         const double s = timed([&] { CUDA_CHECK(cudaGraphInstantiate(&exec, e.graph, 0)); });
         CUDA_CHECK(cudaGraphExecDestroy(exec));
         return s;
       }},
  };
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Host seconds in the probe's call, with the busy stream idle or running the spin kernel.
double measure(const Probe& probe, Env& env, std::uint64_t spin_ns) {
  std::vector<double> samples;
  for (int r = 0; r < kRepeats; ++r) {
    CUDA_CHECK(cudaDeviceSynchronize());
    if (spin_ns > 0) launch_spin_kernel(spin_ns, env.busy.get());
    CUDA_CHECK(cudaEventRecord(env.after_spin.get(), env.busy.get()));
    samples.push_back(probe(env));
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  return median(samples);
}

}  // namespace

int run_sync_map(const std::string& prefix) {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  Env env;
  for (const Row& row : probes()) measure(row.probe, env, 0);  // warm-up: first-call costs
  const double spin = measure(
      [](Env& e) { return timed([&] { CUDA_CHECK(cudaStreamSynchronize(e.busy.get())); }); }, env,
      kSpinNs);

  nlohmann::json json;
  for (const auto& [key, value] : device_context(device)) json["context"][key] = value;
  json["spin_us"] = spin * 1e6;
  std::ostringstream md;
  char line[512];
  std::snprintf(line, sizeof(line),
                "Host time inside each call, GPU idle vs. busy with a %.0f us kernel on the "
                "stream (median of %d).\n\n",
                spin * 1e6, kRepeats);
  md << line
     << "| CUDA call | PyTorch idiom behind it | idle (us) | busy (us) | host waits for GPU |\n"
     << "|---|---|---:|---:|---|\n";
  for (const Row& row : probes()) {
    const double idle = measure(row.probe, env, 0);
    const double busy = measure(row.probe, env, kSpinNs);
    const bool waits = busy - idle >= 0.5 * spin;
    std::snprintf(line, sizeof(line), "| %s | %s | %.1f | %.1f | %s |\n", row.call.c_str(),
                  row.seen_in.c_str(), idle * 1e6, busy * 1e6, waits ? "**yes**" : "no");
    md << line;
    json["calls"].push_back({{"call", row.call},
                             {"seen_in", row.seen_in},
                             {"idle_us", idle * 1e6},
                             {"busy_us", busy * 1e6},
                             {"waits_for_gpu", waits}});
  }
  std::fputs(md.str().c_str(), stdout);
  if (!prefix.empty()) {
    for (const auto& [path, text] :
         {std::pair{prefix + ".md", md.str()}, std::pair{prefix + ".json", json.dump(2) + "\n"}}) {
      std::ofstream file(path);
      file << text;
      file.close();
      if (!file) {
        std::fprintf(stderr, "sync_bench: could not write %s\n", path.c_str());
        return 2;
      }
    }
  }
  return 0;
}

}  // namespace sync_bench
