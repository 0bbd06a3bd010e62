#include "activity_trace.hpp"

#include <cupti.h>
#include <cxxabi.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <unordered_set>

#include "sync_accounting.hpp"

namespace sync_bench {
namespace {

constexpr std::size_t kBufferBytes = 8u << 20;
constexpr CUpti_ActivityKind kKinds[] = {
    CUPTI_ACTIVITY_KIND_RUNTIME,
    CUPTI_ACTIVITY_KIND_DRIVER,
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,  // not KIND_KERNEL: that one serializes kernels
    CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMCPY2,  // peer-to-peer copies (MultiGpu)
    CUPTI_ACTIVITY_KIND_MEMSET,
};

std::string cupti_error(CUptiResult result, const char* what) {
  const char* text = "unknown CUPTI error";
  if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS) text = "unknown CUPTI error";
  return std::string(what) + ": " + text;
}

void cupti_check(CUptiResult result, const char* what) {
  if (result != CUPTI_SUCCESS) throw std::runtime_error(cupti_error(result, what));
}

struct RawRecord {
  Lane lane;
  std::string name, kind;
  std::uint64_t start, end;
  std::uint32_t correlation;
  bool pageable;           // a copy with a pageable host side
  std::uint32_t thread{};  // host records: the calling thread (its system id)
};

// CUPTI hands buffers back through plain functions, possibly on its own thread.
struct Recorded {
  std::mutex mutex;
  std::vector<RawRecord> records;
  std::string error;  // the first failure inside a callback
};
Recorded& recorded() {
  static Recorded r;
  return r;
}

std::string api_name(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  const char* name = nullptr;
  if (cuptiGetCallbackName(domain, cbid, &name) != CUPTI_SUCCESS || name == nullptr)
    return "api#" + std::to_string(cbid);
  return name;
}

// "null_kernel(int*)" for "_Z11null_kernelPi"; the name itself where it is not mangled.
std::string kernel_name(const char* mangled) {
  if (mangled == nullptr) return "kernel";
  int status = 0;
  char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string out = status == 0 && demangled ? demangled : mangled;
  std::free(demangled);
  return out;
}

std::string copy_name(std::uint8_t copy_kind) {
  switch (copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
      return "memcpy HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
      return "memcpy DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      return "memcpy DtoD";
    default:
      return "memcpy";
  }
}

RawRecord parse(const CUpti_Activity* record, bool* known) {
  *known = true;
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
      const auto* a = reinterpret_cast<const CUpti_ActivityAPI*>(record);
      const bool runtime = record->kind == CUPTI_ACTIVITY_KIND_RUNTIME;
      return {Lane::host,
              api_name(runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API, a->cbid),
              runtime ? "runtime" : "driver",
              a->start,
              a->end,
              a->correlationId,
              false,
              a->threadId};
    }
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL: {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      return {Lane::gpu, kernel_name(k->name), "kernel", k->start, k->end, k->correlationId, false};
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      const bool pageable = m->srcKind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE ||
                            m->dstKind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
      return {Lane::gpu, copy_name(m->copyKind), "memcpy", m->start,
              m->end,    m->correlationId,       pageable};
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY2: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(record);
      return {Lane::gpu, "memcpy PtoP", "memcpy", m->start, m->end, m->correlationId, false};
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      return {Lane::gpu, "memset", "memset", m->start, m->end, m->correlationId, false};
    }
    default:
      *known = false;
      return {};
  }
}

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  // CUPTI requires 8-byte alignment; aligned_alloc needs a size that is a multiple of it.
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                               std::size_t valid) {
  Recorded& r = recorded();
  std::vector<RawRecord> parsed;
  CUpti_Activity* record = nullptr;
  CUptiResult status = CUPTI_SUCCESS;
  while ((status = cuptiActivityGetNextRecord(buffer, valid, &record)) == CUPTI_SUCCESS) {
    bool known = false;
    RawRecord raw = parse(record, &known);
    if (known) parsed.push_back(std::move(raw));
  }
  std::free(buffer);
  const std::lock_guard<std::mutex> lock(r.mutex);
  if (status != CUPTI_ERROR_MAX_LIMIT_REACHED && r.error.empty())
    r.error = cupti_error(status, "cuptiActivityGetNextRecord");
  r.records.insert(r.records.end(), std::make_move_iterator(parsed.begin()),
                   std::make_move_iterator(parsed.end()));
}

std::unique_ptr<ActivityTrace> g_trace;

}  // namespace

std::unique_ptr<ActivityTrace> ActivityTrace::create(std::string* why) {
  const CUptiResult result = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
  if (result != CUPTI_SUCCESS) {
    if (why) *why = cupti_error(result, "cuptiActivityRegisterCallbacks");
    return nullptr;
  }
  // Registering attached CUPTI to the process; detach until the first pass, so that the first
  // benchmark's timed steps run without it as every later one's do.
  const CUptiResult detached = cuptiFinalize();
  if (detached != CUPTI_SUCCESS) {
    if (why) *why = cupti_error(detached, "cuptiFinalize");
    return nullptr;
  }
  return std::unique_ptr<ActivityTrace>(new ActivityTrace());
}

std::uint64_t ActivityTrace::now_ns() {
  std::uint64_t t = 0;
  cupti_check(cuptiGetTimestamp(&t), "cuptiGetTimestamp");
  return t;
}

void ActivityTrace::begin() {
  {
    Recorded& r = recorded();
    const std::lock_guard<std::mutex> lock(r.mutex);
    r.records.clear();
    r.error.clear();
  }
  // Registered again each time: cuptiFinalize in end() forgot them.
  cupti_check(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
              "cuptiActivityRegisterCallbacks");
  // Host records name their thread by its system id, so that end() keeps this thread's only.
  cupti_check(cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM), "cuptiSetThreadIdType");
  owner_thread_ = static_cast<std::uint32_t>(syscall(SYS_gettid));
  for (const CUpti_ActivityKind kind : kKinds)
    cupti_check(cuptiActivityEnable(kind), "cuptiActivityEnable");
}

AnatomyTrace ActivityTrace::end(const std::vector<std::uint64_t>& step_starts_ns,
                                std::uint64_t host_end_ns) {
  for (const CUpti_ActivityKind kind : kKinds)
    cupti_check(cuptiActivityDisable(kind), "cuptiActivityDisable");
  cupti_check(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
  std::size_t dropped = 0;
  cupti_check(cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped),
              "cuptiActivityGetNumDroppedRecords");
  // Detach CUPTI until the next pass (the caller waited for the GPU, the buffers are flushed):
  // with the kinds merely disabled it kept hooks in the launch path that made every later
  // benchmark's timed steps slower (NullKernel/DeviceSync 12.3 against 10.9 us on the H100). The
  // next begin() attaches again (milliseconds, absorbed by the pass's warm-up steps).
  cupti_check(cuptiFinalize(), "cuptiFinalize");
  std::vector<RawRecord> records;
  {
    Recorded& r = recorded();
    const std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.error.empty()) throw std::runtime_error(r.error);
    records.swap(r.records);
  }
  if (dropped > 0)
    throw std::runtime_error("CUPTI dropped " + std::to_string(dropped) + " activity records");
  if (step_starts_ns.empty()) throw std::invalid_argument("anatomy: no steps were recorded");

  const std::uint64_t t0 = step_starts_ns.front();
  const auto us = [t0](std::uint64_t t) { return microseconds_since(t0, t); };
  // An async copy whose host side is pageable waits for the copy: mark the calls that made it.
  std::unordered_set<std::uint32_t> pageable_copies;
  for (const RawRecord& r : records)
    if (r.pageable) pageable_copies.insert(r.correlation);

  AnatomyTrace trace;
  trace.steps = static_cast<std::int64_t>(step_starts_ns.size());
  for (const std::uint64_t s : step_starts_ns) trace.step_starts_us.push_back(us(s));
  trace.host_end_us = us(host_end_ns);
  for (RawRecord& r : records) {
    if (r.end < t0) continue;  // before the first step (enabling CUPTI itself)
    // Another thread's calls (the other ranks of a one-thread-per-GPU step) are not the step's
    // host path; its GPU work stays in the GPU lane.
    if (r.lane == Lane::host && r.thread != owner_thread_) continue;
    TraceEvent e;
    e.lane = r.lane;
    e.start_us = us(r.start);
    e.end_us = us(r.end);
    e.correlation = r.correlation;
    e.blocking = r.lane == Lane::host &&
                 (is_blocking_call(r.name) || pageable_copies.count(r.correlation) > 0);
    e.name = std::move(r.name);
    e.kind = std::move(r.kind);
    trace.events.push_back(std::move(e));
  }
  return trace;
}

void ActivityTrace::abandon() noexcept {
  // The error path: what failed before is the error, and is reported; a failure here is said on
  // stderr, and a CUPTI left attached is noted.
  for (const CUpti_ActivityKind kind : kKinds)
    if (const CUptiResult r = cuptiActivityDisable(kind); r != CUPTI_SUCCESS)
      std::fprintf(stderr, "sync_bench: %s\n", cupti_error(r, "cuptiActivityDisable").c_str());
  if (const CUptiResult r = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
      r != CUPTI_SUCCESS)
    std::fprintf(stderr, "sync_bench: %s\n", cupti_error(r, "cuptiActivityFlushAll").c_str());
  if (cuptiFinalize() != CUPTI_SUCCESS) note_cupti_left_attached("cuptiFinalize");
  const std::lock_guard<std::mutex> lock(recorded().mutex);
  recorded().records.clear();
}

ActivityTrace* activity_trace() {
  return g_trace.get();
}
void set_activity_trace(std::unique_ptr<ActivityTrace> trace) {
  g_trace = std::move(trace);
}

}  // namespace sync_bench
