#pragma once
// Sync accounting through CUPTI callbacks: which CUDA runtime calls blocked the host, and for how
// long. The CUPTI subscription exists only for an untimed accounting pass after the timed loop
// (see bench/step_loop.hpp), so the timed numbers never carry its cost.
//
// A call counts as host-blocking when the CUDA documentation says it waits for the device:
// cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize, the synchronous cudaMemcpy,
// cudaFree and cudaFreeHost (implicit device syncs), and cudaMemcpyAsync whose host side is
// pageable memory (staged through a driver buffer, so the call returns only after the copy).

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace sync_bench {

struct SyncCounts {
  std::int64_t blocking_calls = 0;
  double blocked_seconds = 0.0;                 // host time inside the blocking calls
  std::map<std::string, std::int64_t> by_call;  // e.g. "cudaMemcpyAsync(pageable)" -> 3
};

class SyncAccounting {
 public:
  // Checks that CUPTI can be subscribed to (and unsubscribes again). Returns nullptr and sets *why
  // when it cannot (no driver, or another tool such as compute-sanitizer or Nsight holds CUPTI).
  static std::unique_ptr<SyncAccounting> create(std::string* why);
  ~SyncAccounting();  // unsubscribes if subscribed; never throws
  SyncAccounting(const SyncAccounting&) = delete;
  SyncAccounting& operator=(const SyncAccounting&) = delete;

  // Clears the counts, subscribes and enables the callbacks (this thread's). False, with *why,
  // when CUPTI would not: then nothing is counted, and end() must not be called.
  bool begin(std::string* why);
  SyncCounts end();  // unsubscribes and returns what the callbacks saw since begin()
  void abandon();    // unsubscribes after a failed pass; the counts are not wanted

  // "cudaStreamSynchronize x1, cudaMemcpyAsync(pageable) x1" per step, or "none".
  static std::string describe_per_step(const SyncCounts& counts, std::int64_t steps);

 private:
  struct Impl;
  explicit SyncAccounting(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// A CUPTI pass that could not detach leaves its hooks in every later call, and every later timed
// step slower: the pass says so here, and the step loop refuses to time anything after it.
void note_cupti_left_attached(const std::string& what);
// Empty, or what could not detach.
const std::string& cupti_left_attached();

// The process-wide accounting main() set up; nullptr when turned off or unavailable.
SyncAccounting* sync_accounting();
void set_sync_accounting(std::unique_ptr<SyncAccounting> accounting);

}  // namespace sync_bench
