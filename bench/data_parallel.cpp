// Registration of MultiGpu/DataParallel (data_parallel.hpp), and what stands in for it when NCCL
// was not found at configure time: the same names, each skipping with the reason.

#include "data_parallel.hpp"

#include <vector>

#include "families.hpp"
#include "multi_gpu_devices.hpp"
#include "names.hpp"
#include "unsupported.hpp"

namespace sync_bench {

#if !SYNC_BENCH_HAVE_NCCL
namespace {
constexpr const char* kNoNccl =
    "built without NCCL (nccl.h and libnccl were not found at configure time; set NCCL_ROOT)";
}
void run_data_parallel(benchmark::State&, const DataParallelCase&) {
  // With one GPU or a repeated one, that reason first, as with NCCL.
  require_distinct(chosen_devices().each, "DataParallel");
  throw Unsupported(kNoNccl);
}
std::string prepare_nccl() {
  return std::string("none: ") + kNoNccl;
}
#endif

namespace {
// Launch-bound (2 MiB all-reduced per step) and compute-bound (32 MiB) steps.
const std::vector<int> kSizes = {1024, 4096};
const std::vector<int> kReadEvery = {1, 10};
}  // namespace

void register_data_parallel() {
  for (int n : kSizes) {
    register_family_benchmark(
        bench_name({"MultiGpu", "DataParallel", "no_read", "bf16", "cublaslt"}, {{"n", n}}),
        [n](benchmark::State& state) {
          run_data_parallel(state, {n, 0});
        });
    for (int every : kReadEvery)
      register_family_benchmark(
          bench_name({"MultiGpu", "DataParallel", "loss_read", "bf16", "cublaslt"},
                     {{"n", n}, {"every", every}}),
          [n, every](benchmark::State& state) {
            run_data_parallel(state, {n, every});
          });
  }
}

}  // namespace sync_bench
