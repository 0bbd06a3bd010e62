#include "sync_accounting.hpp"

#include <cuda_runtime_api.h>
#include <cupti.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>
#include <vector>

namespace sync_bench {
namespace {

using Clock = std::chrono::steady_clock;

// The runtime calls whose blocking we look at (the per-thread-stream variants included).
constexpr CUpti_CallbackId kWatched[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaFreeHost_v3020,
};

bool is_async_copy(CUpti_CallbackId cbid) {
  return cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020 ||
         cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000;
}

// Host memory the copy engine cannot read directly: neither pinned nor registered nor managed.
bool is_pageable(const void* ptr) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, ptr) != cudaSuccess) {
    (void)cudaGetLastError();
    return true;
  }
  return attributes.type == cudaMemoryTypeUnregistered;
}

// The host side of an async copy, by its direction; nullptr for device-to-device.
const void* host_side(const cudaMemcpyAsync_v3020_params& p) {
  switch (p.kind) {
    case cudaMemcpyHostToDevice:
      return p.src;
    case cudaMemcpyDeviceToHost:
      return p.dst;
    case cudaMemcpyDefault: {
      cudaPointerAttributes a{};
      if (cudaPointerGetAttributes(&a, p.src) == cudaSuccess && a.type == cudaMemoryTypeDevice)
        return p.dst;
      (void)cudaGetLastError();
      return p.src;
    }
    default:
      return nullptr;
  }
}

}  // namespace

struct SyncAccounting::Impl {
  CUpti_SubscriberHandle subscriber = nullptr;
  SyncCounts counts;
  Clock::time_point entered;  // calls being watched do not nest
  bool watched_call_blocks = false;
  // The thread that called begin(): the benchmark's. Other threads' calls (the other ranks of a
  // one-thread-per-GPU step) are not this step's host path and are not counted.
  std::thread::id owner;

  static void CUPTIAPI callback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                const void* data) {
    if (domain != CUPTI_CB_DOMAIN_RUNTIME_API) return;
    auto* self = static_cast<Impl*>(userdata);
    if (std::this_thread::get_id() != self->owner) return;
    const auto* info = static_cast<const CUpti_CallbackData*>(data);
    if (info->callbackSite == CUPTI_API_ENTER) {
      self->watched_call_blocks = true;
      if (is_async_copy(cbid)) {
        const auto* p = static_cast<const cudaMemcpyAsync_v3020_params*>(info->functionParams);
        const void* host = host_side(*p);
        self->watched_call_blocks = host != nullptr && is_pageable(host);
      }
      self->entered = Clock::now();  // last, so the pointer query is not counted as blocked
      return;
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - self->entered).count();
    if (!self->watched_call_blocks) return;
    ++self->counts.blocking_calls;
    self->counts.blocked_seconds += seconds;
    std::string name = info->functionName;
    if (is_async_copy(cbid)) name += "(pageable)";
    ++self->counts.by_call[name];
  }

  // Subscribed only around an accounting pass: a subscription held through the timed loop, even
  // with every callback disabled, made the timed steps 1-3% slower on the H100; subscribing per
  // pass removes that and costs about 2 ms a benchmark (results/h100/README.md).
  bool subscribe(std::string* why) {
    // Subscribing over a live subscription would lose its handle, and with it any way to detach.
    if (subscriber) {
      if (why) *why = "cuptiSubscribe: the last accounting pass is still subscribed";
      return false;
    }
    const CUptiResult result = cuptiSubscribe(&subscriber, &Impl::callback, this);
    if (result == CUPTI_SUCCESS) return true;
    subscriber = nullptr;
    if (why) *why = cupti_text("cuptiSubscribe", result);
    return false;
  }
  static std::string cupti_text(const char* call, CUptiResult result) {
    const char* text = "unknown CUPTI error";
    if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS) text = "unknown CUPTI error";
    return std::string(call) + ": " + text;
  }
  void unsubscribe() {
    if (!subscriber) return;
    const CUptiResult result = cuptiUnsubscribe(subscriber);
    subscriber = nullptr;
    if (result != CUPTI_SUCCESS) note_cupti_left_attached(cupti_text("cuptiUnsubscribe", result));
  }

  bool enable(bool on, std::string* why) {
    if (!subscriber) return false;
    for (CUpti_CallbackId cbid : kWatched)
      if (const CUptiResult result =
              cuptiEnableCallback(on ? 1 : 0, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, cbid);
          result != CUPTI_SUCCESS) {
        *why = cupti_text("cuptiEnableCallback", result);
        return false;
      }
    return true;
  }
};

SyncAccounting::SyncAccounting(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

std::unique_ptr<SyncAccounting> SyncAccounting::create(std::string* why) {
  auto impl = std::make_unique<Impl>();
  if (!impl->subscribe(why)) return nullptr;
  impl->unsubscribe();
  return std::unique_ptr<SyncAccounting>(new SyncAccounting(std::move(impl)));
}

SyncAccounting::~SyncAccounting() {
  if (impl_ && impl_->subscriber) impl_->unsubscribe();
}

bool SyncAccounting::begin(std::string* why) {
  impl_->counts = SyncCounts{};
  impl_->owner = std::this_thread::get_id();
  if (!impl_->subscribe(why)) return false;
  if (impl_->enable(true, why)) return true;
  impl_->unsubscribe();
  return false;
}

SyncCounts SyncAccounting::end() {
  std::string why;
  // Unsubscribing takes the callbacks away too; a failure to disable them only needs saying.
  if (!impl_->enable(false, &why))
    std::fprintf(stderr, "sync_bench: sync accounting: %s\n", why.c_str());
  impl_->unsubscribe();
  return impl_->counts;
}

void SyncAccounting::abandon() {
  impl_->unsubscribe();
}

std::string SyncAccounting::describe_per_step(const SyncCounts& counts, std::int64_t steps) {
  if (counts.by_call.empty() || steps <= 0) return "none";
  std::string text;
  for (const auto& [call, n] : counts.by_call) {
    char per_step[32];
    std::snprintf(per_step, sizeof(per_step), "%g", double(n) / double(steps));
    text += (text.empty() ? "" : ", ") + call + " x" + per_step;
  }
  return text;
}

namespace {
std::unique_ptr<SyncAccounting> g_accounting;
std::string g_left_attached;
}  // namespace

void note_cupti_left_attached(const std::string& what) {
  if (g_left_attached.empty())
    g_left_attached = "CUPTI stayed attached after an untimed pass (" + what +
                      "): every later step would be timed with its hooks in it";
  std::fprintf(stderr, "sync_bench: %s\n", g_left_attached.c_str());
}
const std::string& cupti_left_attached() {
  return g_left_attached;
}

SyncAccounting* sync_accounting() {
  return g_accounting.get();
}
void set_sync_accounting(std::unique_ptr<SyncAccounting> accounting) {
  g_accounting = std::move(accounting);
}

}  // namespace sync_bench
