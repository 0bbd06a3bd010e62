#include "rank_threads.hpp"

#include <array>
#include <exception>
#include <stdexcept>

namespace sync_bench {
namespace {

// A spinning wait's pause: cheaper for the sibling hyperthread than a bare loop; after many turns
// the thread yields, so that a long wait (rank 0 in a sync) does not starve the machine.
void relax(std::uint32_t& spins) {
  if (++spins < (1u << 14)) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    return;
  }
  spins = 0;
  std::this_thread::yield();
}

}  // namespace

// A single-producer (rank 0), single-consumer (the worker) ring: rank 0 writes a slot, then
// publishes it by advancing `posted`; the worker runs it, then advances `done`.
struct RankThreads::Worker {
  int rank = 0;
  std::array<RankCommand, kRingCommands> ring{};
  std::atomic<std::uint64_t> posted{0};
  std::atomic<std::uint64_t> done{0};
  std::thread thread;
};

RankThreads::RankThreads(int ranks, Start start, Body body, Abort abort)
    : start_(std::move(start)),
      body_(std::move(body)),
      abort_(std::move(abort)),
      uncaught_at_start_(std::uncaught_exceptions()) {
  if (ranks < 1) throw std::invalid_argument("RankThreads: at least one rank");
  for (int r = 1; r < ranks; ++r) {
    workers_.push_back(std::make_unique<Worker>());
    workers_.back()->rank = r;
  }
  for (auto& w : workers_) w->thread = std::thread([this, &worker = *w] { run(worker); });
}

RankThreads::~RankThreads() {
  // Unwinding: rank 0 stopped mid-sequence, and a worker may wait on the GPU for rank 0's part
  // of a collective that will never come.
  if (std::uncaught_exceptions() > uncaught_at_start_ && abort_)
    std::call_once(abort_once_, abort_);
  stopping_.store(true, std::memory_order_release);
  for (auto& w : workers_)
    if (w->thread.joinable()) w->thread.join();
}

void RankThreads::run(Worker& worker) {
  try {
    if (start_) start_(worker.rank);
    std::uint64_t next = 0;
    std::uint32_t spins = 0;
    while (!stopping_.load(std::memory_order_acquire)) {
      if (next == worker.posted.load(std::memory_order_acquire)) {
        relax(spins);
        continue;
      }
      spins = 0;
      body_(worker.rank, worker.ring[next % kRingCommands]);
      worker.done.store(++next, std::memory_order_release);
    }
  } catch (const std::exception& e) {
    fail(worker.rank, e.what());
  } catch (...) {
    fail(worker.rank, "unknown exception");
  }
}

void RankThreads::fail(int rank, const std::string& what) {
  {
    const std::lock_guard<std::mutex> lock(error_mutex_);
    if (error_.empty()) error_ = "rank " + std::to_string(rank) + ": " + what;
  }
  // Abort first, then tell rank 0: once rank 0 sees the failure, what could block it is released.
  if (abort_) std::call_once(abort_once_, abort_);
  failed_.store(true, std::memory_order_release);
}

void RankThreads::throw_if_failed() const {
  if (!failed_.load(std::memory_order_acquire)) return;
  const std::lock_guard<std::mutex> lock(error_mutex_);
  throw std::runtime_error(error_);
}

void RankThreads::post(const RankCommand& command) {
  for (auto& w : workers_) {
    const std::uint64_t slot = w->posted.load(std::memory_order_relaxed);
    std::uint32_t spins = 0;
    while (slot - w->done.load(std::memory_order_acquire) >= kRingCommands) {
      throw_if_failed();
      relax(spins);
    }
    w->ring[slot % kRingCommands] = command;
    w->posted.store(slot + 1, std::memory_order_release);
  }
  throw_if_failed();
}

void RankThreads::finish() {
  for (auto& w : workers_) {
    const std::uint64_t target = w->posted.load(std::memory_order_relaxed);
    std::uint32_t spins = 0;
    while (w->done.load(std::memory_order_acquire) < target) {
      throw_if_failed();
      relax(spins);
    }
  }
  throw_if_failed();
}

}  // namespace sync_bench
