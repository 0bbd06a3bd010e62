// RankThreads (bench/rank_threads.hpp) on the CPU: the workers run every posted command in order,
// rank 0 waits when a worker is a full ring behind, a worker's failure reaches rank 0 with its
// rank and message (and the abort hook runs once), and a rank 0 that fails mid-sequence can still
// join workers that wait for it, through the abort hook.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "rank_threads.hpp"

namespace sync_bench {
namespace {

struct Seen {
  std::mutex mutex;
  std::vector<std::vector<RankCommand>> by_rank;
  explicit Seen(int ranks) : by_rank(static_cast<std::size_t>(ranks)) {}
  void add(int rank, const RankCommand& c) {
    const std::lock_guard<std::mutex> lock(mutex);
    by_rank.at(static_cast<std::size_t>(rank)).push_back(c);
  }
};

TEST(RankThreads, EveryWorkerRunsEveryCommandInOrderAfterItsStart) {
  constexpr int kRanks = 4;
  Seen seen(kRanks);
  std::atomic<int> started{0};
  std::vector<std::thread::id> start_thread(kRanks), body_thread(kRanks);
  RankThreads threads(
      kRanks,
      [&](int r) {
        start_thread[static_cast<std::size_t>(r)] = std::this_thread::get_id();
        ++started;
      },
      [&](int r, const RankCommand& c) {
        body_thread[static_cast<std::size_t>(r)] = std::this_thread::get_id();
        seen.add(r, c);
      },
      nullptr);
  EXPECT_EQ(threads.ranks(), kRanks);
  // More commands than the ring holds: rank 0 must wait for the workers, not overwrite.
  const std::int64_t kCommands = 3 * static_cast<std::int64_t>(RankThreads::kRingCommands) + 7;
  for (std::int64_t i = 0; i < kCommands; ++i) threads.post({i, static_cast<int>(i % 3)});
  threads.finish();
  EXPECT_EQ(started.load(), kRanks - 1);
  EXPECT_TRUE(seen.by_rank[0].empty()) << "rank 0 is the caller's thread, not a worker";
  for (int r = 1; r < kRanks; ++r) {
    const auto& got = seen.by_rank[static_cast<std::size_t>(r)];
    ASSERT_EQ(got.size(), static_cast<std::size_t>(kCommands)) << "rank " << r;
    for (std::int64_t i = 0; i < kCommands; ++i) {
      ASSERT_EQ(got[static_cast<std::size_t>(i)].step, i) << "rank " << r;
      ASSERT_EQ(got[static_cast<std::size_t>(i)].kind, i % 3) << "rank " << r;
    }
    EXPECT_EQ(start_thread[static_cast<std::size_t>(r)], body_thread[static_cast<std::size_t>(r)]);
    EXPECT_NE(body_thread[static_cast<std::size_t>(r)], std::this_thread::get_id());
  }
}

TEST(RankThreads, OneRankHasNoWorkers) {
  int bodies = 0;
  RankThreads threads(
      1, nullptr, [&](int, const RankCommand&) { ++bodies; }, nullptr);
  threads.post({0, 0});
  threads.finish();
  EXPECT_EQ(bodies, 0);
  EXPECT_THROW(RankThreads(0, nullptr, nullptr, nullptr), std::invalid_argument);
}

TEST(RankThreads, AWorkersFailureReachesRankZeroAndAbortsOnce) {
  std::atomic<int> aborts{0};
  RankThreads threads(
      3, nullptr,
      [&](int r, const RankCommand& c) {
        if (r == 2 && c.step == 5) throw std::runtime_error("all-reduce failed");
      },
      [&] { ++aborts; });
  bool thrown = false;
  try {
    for (std::int64_t i = 0; i < 100000; ++i) threads.post({i, 0});
    threads.finish();
  } catch (const std::runtime_error& e) {
    thrown = true;
    EXPECT_STREQ(e.what(), "rank 2: all-reduce failed");
  }
  EXPECT_TRUE(thrown);
  EXPECT_THROW(threads.finish(), std::runtime_error) << "the failure stays";
  EXPECT_EQ(aborts.load(), 1);
}

TEST(RankThreads, UnwindingRankZeroReleasesWorkersThatWaitForIt) {
  // The worker's step waits for rank 0's part (as an all-reduce would on the GPU); rank 0 throws
  // before doing it. The abort hook releases the wait, so the destructor can join.
  std::atomic<bool> released{false};
  std::atomic<int> aborts{0};
  const auto start = std::chrono::steady_clock::now();
  try {
    RankThreads threads(
        2, nullptr,
        [&](int, const RankCommand&) {
          while (!released.load()) std::this_thread::yield();
        },
        [&] {
          ++aborts;
          released = true;
        });
    threads.post({0, 0});
    throw std::runtime_error("rank 0 failed");
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "rank 0 failed");
  }
  EXPECT_EQ(aborts.load(), 1);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(RankThreads, ANormalEndDoesNotAbort) {
  std::atomic<int> aborts{0};
  {
    RankThreads threads(
        2, nullptr, [](int, const RankCommand&) {}, [&] { ++aborts; });
    threads.post({0, 0});
    threads.finish();
  }
  EXPECT_EQ(aborts.load(), 0);
}

}  // namespace
}  // namespace sync_bench
