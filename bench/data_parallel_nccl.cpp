// MultiGpu/DataParallel with NCCL (data_parallel.hpp); compiled only where NCCL was found.
//
// Each rank (GPU) has its own thread, stream, cuBLASLt GEMM and NCCL communicator, as one process
// per GPU would (torchrun), but in one process so that one Google Benchmark run times them: rank
// 0 is the benchmark's thread and its stream carries the timing events; ranks 1..k-1 are worker
// threads that run the same steps (rank_threads.hpp). A step on every rank:
//   GEMM (bf16, C = A * +-B, the sign alternating by step) -> ncclAllReduce(C -> reduced, sum)
//   -> on a read step: copy one element of `reduced` (the loss) to pinned memory, wait for it.
// Every rank reads its own loss, as every rank of a training loop calls .item() on its own.
// Every read is checked: it must hold k times this step's (signed) GEMM element, which a read
// that did not wait for this step's all-reduce cannot see.

#include <nccl.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_resources.hpp"
#include "data_parallel.hpp"
#include "gemm.hpp"
#include "multi_gpu_devices.hpp"
#include "ops.hpp"
#include "rank_threads.hpp"
#include "step_loop.hpp"
#include "unsupported.hpp"

#define NCCL_CHECK(expr)                                                                          \
  do {                                                                                            \
    const ncclResult_t sync_bench_nccl_ = (expr);                                                 \
    if (sync_bench_nccl_ != ncclSuccess)                                                          \
      throw std::runtime_error(std::string(#expr) + ": " + ncclGetErrorString(sync_bench_nccl_) + \
                               " (" + ncclGetLastError(nullptr) + ")");                           \
  } while (0)

namespace sync_bench {

std::string prepare_nccl() {
  setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0);
  int version = 0;
  if (ncclGetVersion(&version) != ncclSuccess) return "unavailable: ncclGetVersion failed";
  return std::to_string(version / 10000) + "." + std::to_string(version % 10000 / 100) + "." +
         std::to_string(version % 100) + ", NCCL_NVLS_ENABLE=" + std::getenv("NCCL_NVLS_ENABLE");
}

namespace {

constexpr Dtype kDtype = Dtype::bf16;
constexpr Backend kBackend = Backend::cublaslt;
// The all-reduced value is a sum of k bf16 copies of one element: exact for k = 2 and 4, within a
// bf16 rounding (2^-8) otherwise. A stale read has the other sign.
constexpr double kReduceTolerance = 1e-2;

// kRead: a measured step that reads the loss; kSetup: the one step before timing, which reads it
// whatever `every` is.
enum Kind : int { kBaseline = 0, kMeasured = 1, kSetup = 2, kRead = 3 };

// One communicator per device, rank r on devices[r], created together from this thread.
class NcclClique {
 public:
  explicit NcclClique(const std::vector<int>& devices) : comms_(devices.size(), nullptr) {
    prepare_nccl();
    ncclUniqueId id;
    NCCL_CHECK(ncclGetUniqueId(&id));
    DeviceScope scope(devices[0]);
    NCCL_CHECK(ncclGroupStart());
    for (std::size_t r = 0; r < devices.size(); ++r) {
      CUDA_CHECK(cudaSetDevice(devices[r]));
      NCCL_CHECK(
          ncclCommInitRank(&comms_[r], static_cast<int>(devices.size()), id, static_cast<int>(r)));
    }
    // A failed init leaves the communicators made (this object is not constructed, so its
    // destructor will not run): abort them before throwing. A failure before the group ends
    // (an argument NCCL refuses) is not handled so: ending a group that lacks a rank would wait
    // for that rank forever.
    const ncclResult_t ended = ncclGroupEnd();
    if (ended != ncclSuccess) {
      const std::string why = std::string("ncclGroupEnd after ncclCommInitRank: ") +
                              ncclGetErrorString(ended) + " (" + ncclGetLastError(nullptr) + ")";
      abort();
      throw std::runtime_error(why);
    }
  }
  ~NcclClique() {
    if (aborted_.load()) return;  // ncclCommAbort freed them
    for (ncclComm_t comm : comms_)
      if (comm) {
        const ncclResult_t result = ncclCommDestroy(comm);
        if (result != ncclSuccess)
          std::fprintf(stderr, "sync_bench: ncclCommDestroy: %s\n", ncclGetErrorString(result));
      }
  }
  NcclClique(const NcclClique&) = delete;
  NcclClique& operator=(const NcclClique&) = delete;

  // Ends every communicator's pending work (a rank waiting on the GPU for a peer that stopped).
  void abort() noexcept {
    if (aborted_.exchange(true)) return;
    for (ncclComm_t comm : comms_)
      if (comm)
        if (const ncclResult_t result = ncclCommAbort(comm); result != ncclSuccess)
          std::fprintf(stderr, "sync_bench: ncclCommAbort: %s\n", ncclGetErrorString(result));
  }
  ncclComm_t comm(int rank) const { return comms_.at(static_cast<std::size_t>(rank)); }

 private:
  std::vector<ncclComm_t> comms_;
  std::atomic<bool> aborted_{false};
};

// What one rank owns, made and freed with its device current (OnDevice).
struct Rank {
  explicit Rank(int n)
      : gemm(kDtype, kBackend, n, stream.get()),
        op(gemm),
        reduced(gemm.c_bytes()),
        loss(op.probe_bytes()) {}
  Stream stream{cudaStreamNonBlocking};
  Gemm gemm;
  GemmOp op;
  DeviceBuffer<std::byte> reduced;
  PinnedBuffer<std::byte> loss;
  // Touched only by the rank's own thread while steps run.
  std::int64_t reads = 0, misreads = 0, last_step = -1;
  double last_wrong = 0.0;
};

bool reduced_matches(double got, double one_rank, int ranks) {
  const double expected = one_rank * ranks;
  return std::abs(got - expected) <= kReduceTolerance * std::abs(expected);
}

class DataParallelStep {
 public:
  DataParallelStep(std::vector<Rank*> ranks, const NcclClique& clique)
      : ranks_(std::move(ranks)), clique_(clique) {}

  // Rank `r`'s part of step `step`, on rank r's thread with its device current.
  void run(int r, std::int64_t step, int kind) const {
    Rank& rank = *ranks_[static_cast<std::size_t>(r)];
    const cudaStream_t stream = rank.stream.get();
    rank.op.enqueue(step);
    NCCL_CHECK(ncclAllReduce(rank.gemm.c(), rank.reduced.get(), rank.gemm.c_elements(),
                             ncclBfloat16, ncclSum, clique_.comm(r), stream));
    rank.last_step = step;
    if (kind != kSetup && kind != kRead) return;
    CUDA_CHECK(cudaMemcpyAsync(rank.loss.get(), rank.reduced.get() + rank.op.probe_offset(),
                               rank.op.probe_bytes(), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    ++rank.reads;
    const double got = rank.op.decode(rank.loss.get());
    if (!reduced_matches(got, rank.op.expected_probe(step), ranks())) {
      ++rank.misreads;
      rank.last_wrong = got;
    }
  }
  int ranks() const { return static_cast<int>(ranks_.size()); }

 private:
  std::vector<Rank*> ranks_;
  const NcclClique& clique_;
};

// Setup check of the collective itself: every element of `reduced` is k times the rank's GEMM
// output (all ranks compute the same GEMM from the same inputs).
void check_all_reduced(Rank& rank, int ranks, int rank_index) {
  CUDA_CHECK(cudaStreamSynchronize(rank.stream.get()));
  const std::size_t bytes = rank.gemm.c_bytes(), element = rank.op.probe_bytes();
  std::vector<std::byte> c(bytes), reduced(bytes);
  CUDA_CHECK(cudaMemcpy(c.data(), rank.gemm.c(), bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(reduced.data(), rank.reduced.get(), bytes, cudaMemcpyDeviceToHost));
  std::size_t wrong = 0;
  for (std::size_t at = 0; at < bytes; at += element)
    if (!reduced_matches(rank.op.decode(&reduced[at]), rank.op.decode(&c[at]), ranks)) ++wrong;
  if (wrong > 0)
    throw std::runtime_error("ncclAllReduce on rank " + std::to_string(rank_index) + ": " +
                             std::to_string(wrong) + " of " + std::to_string(bytes / element) +
                             " elements are not the sum over " + std::to_string(ranks) + " ranks");
}

}  // namespace

void run_data_parallel(benchmark::State& state, const DataParallelCase& c) {
  const std::vector<int> devices = chosen_devices().each;
  require_distinct(devices, "DataParallel");  // NCCL refuses a rank per repeated GPU
  const int k = static_cast<int>(devices.size());
  DeviceScope main_device(devices[0]);  // until the end: rank 0's, the timing stream's device

  std::vector<std::unique_ptr<OnDevice<Rank>>> owned;
  std::vector<Rank*> ranks;
  for (int r = 0; r < k; ++r) {
    owned.push_back(std::make_unique<OnDevice<Rank>>(devices[r], c.n));
    ranks.push_back(&owned.back()->get());
    DeviceScope validating(devices[r]);
    ranks.back()->gemm.validate();
  }
  NcclClique clique(devices);
  const DataParallelStep step(ranks, clique);
  RankThreads threads(
      k, [&](int r) { CUDA_CHECK(cudaSetDevice(devices[r])); },
      [&](int r, const RankCommand& command) { step.run(r, command.step, command.kind); },
      [&] { clique.abort(); });
  auto on_every_rank = [&](std::int64_t i, int kind) {
    threads.post({i, kind});
    step.run(0, i, kind);
  };

  // One step that reads on every rank, then the whole all-reduced output checked on each.
  on_every_rank(0, kSetup);
  threads.finish();
  for (int r = 0; r < k; ++r) {
    DeviceScope checking(devices[r]);
    check_all_reduced(*ranks[r], k, r);
    if (ranks[r]->misreads > 0 || ranks[r]->reads != 1)
      throw std::runtime_error("rank " + std::to_string(r) + " read a wrong loss at setup (" +
                               std::to_string(ranks[r]->last_wrong) + ")");
    ranks[r]->reads = 0;
  }

  LoopConfig config;
  config.settle = [&] { threads.finish(); };
  if (c.every > 0) {
    config.baseline = [&](std::int64_t i) { on_every_rank(i, kBaseline); };
    config.period = c.every;
  } else {
    config.step_is_async = true;
  }
  // The reads close periods counted from the first timed step, as SyncEvery's syncs do: batches
  // are whole periods, so that each holds the same number of reads and ends on one.
  const PeriodEnds reads_at(config);
  std::int64_t steps_from_first = 0, reads_from_first = 0;
  const StepStats stats = run_timed_steps(
      state, ranks[0]->stream.get(),
      [&](std::int64_t i) {
        const bool read = c.every > 0 && reads_at(i);
        if (i >= reads_at.first) {
          ++steps_from_first;
          reads_from_first += read ? 1 : 0;
        }
        on_every_rank(i, read ? kRead : kMeasured);
      },
      config);
  threads.finish();

  for (int r = 0; r < k; ++r) {
    Rank& rank = *ranks[r];
    DeviceScope checking(devices[r]);
    CUDA_CHECK(cudaStreamSynchronize(rank.stream.get()));
    if (rank.misreads > 0)
      throw std::runtime_error("rank " + std::to_string(r) + " read a wrong loss in " +
                               std::to_string(rank.misreads) + " of " + std::to_string(rank.reads) +
                               " reads (last wrong: " + std::to_string(rank.last_wrong) + ")");
    if (rank.last_step != stats.last_step)
      throw std::runtime_error("rank " + std::to_string(r) + " ran up to step " +
                               std::to_string(rank.last_step) + ", rank 0 to " +
                               std::to_string(stats.last_step));
    std::vector<std::byte> element(rank.op.probe_bytes());
    CUDA_CHECK(cudaMemcpy(element.data(), rank.reduced.get() + rank.op.probe_offset(),
                          element.size(), cudaMemcpyDeviceToHost));
    if (!reduced_matches(rank.op.decode(element.data()), rank.op.expected_probe(stats.last_step),
                         k))
      throw std::runtime_error("rank " + std::to_string(r) + "'s all-reduced output after step " +
                               std::to_string(stats.last_step) + " is not the sum over " +
                               std::to_string(k) + " ranks");
  }
  if (c.every > 0 && ranks[0]->reads == 0) throw std::runtime_error("no step read the loss");

  report_step_counters(state, stats, ranks[0]->op.flops());
  report_devices(state, devices);
  state.counters["allreduce_bytes"] = static_cast<double>(ranks[0]->gemm.c_bytes());
  // Counted over the steps run (timed and untimed passes), not assumed from `every`.
  state.counters["reads_per_step"] =
      steps_from_first > 0 ? static_cast<double>(reads_from_first) / steps_from_first : 0.0;
}

}  // namespace sync_bench
