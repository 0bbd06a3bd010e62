#pragma once
// One thread per rank for a step that runs on several GPUs at once, as a data-parallel training
// loop runs one process (here: one thread) per GPU. Rank 0 is the caller's thread: the benchmark
// loop times it. Ranks 1..k-1 are worker threads that run the same sequence of steps, which rank 0
// posts one at a time; they follow as fast as they can and never wait for rank 0 otherwise, so
// the only coupling between ranks is the one in their GPU work (a collective), as between
// processes.
//
// No GPU here: what a step does is the Body given at construction, so this is tested on the CPU.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sync_bench {

struct RankCommand {
  std::int64_t step = 0;
  int kind = 0;  // the body's to interpret (e.g. measured step or baseline step)
};

class RankThreads {
 public:
  // Runs on a worker at its start (e.g. cudaSetDevice), then for each posted command.
  using Start = std::function<void(int rank)>;
  using Body = std::function<void(int rank, const RankCommand& command)>;
  // Called once, on the thread that saw the first failure, and by the destructor when it runs
  // while an exception unwinds: it must release whatever a worker may be blocked on (for NCCL,
  // abort the communicators), so that the workers can be joined.
  using Abort = std::function<void()>;

  // The ring a worker reads its commands from: rank 0 waits when a worker is this far behind.
  static constexpr std::size_t kRingCommands = 1u << 13;

  // Starts ranks 1..ranks-1 (none when ranks is 1).
  RankThreads(int ranks, Start start, Body body, Abort abort);
  ~RankThreads();  // stops and joins the workers (see Abort)
  RankThreads(const RankThreads&) = delete;
  RankThreads& operator=(const RankThreads&) = delete;

  // Posts a command to every worker, in order. Throws std::runtime_error naming the rank when a
  // worker has failed (it then runs nothing more, and the abort hook has run).
  void post(const RankCommand& command);
  // Waits until every worker has run every command posted so far; throws as post() does.
  void finish();

  int ranks() const { return static_cast<int>(workers_.size()) + 1; }

 private:
  struct Worker;
  void run(Worker& worker);
  void fail(int rank, const std::string& what);
  void throw_if_failed() const;

  Start start_;
  Body body_;
  Abort abort_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> failed_{false};
  mutable std::mutex error_mutex_;
  std::string error_;
  std::once_flag abort_once_;
  int uncaught_at_start_;
};

}  // namespace sync_bench
