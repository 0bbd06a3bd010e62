// The MultiGpu family as --benchmark_list_tests shows it, on any machine (DataParallel too, with
// or without NCCL): the documented matrix, built here independently of the registration code,
// names that follow the grammar, and the --devices flag's refusals (made before the GPU is looked
// for). No GPU is needed.

#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "command.hpp"

namespace sync_bench::test {
namespace {

std::vector<std::string> multi_gpu(const std::string& extra_args = "") {
  return list_benchmarks("--benchmark_filter='^MultiGpu/' " + extra_args);
}

std::set<std::string> documented_matrix() {
  std::set<std::string> names;
  for (const char* wait : {"event_wait", "host_wait"})
    names.insert(std::string("MultiGpu/CrossDevice/") + wait + "/manual_time");
  for (const char* route : {"peer_on", "peer_off", "staged"})
    for (std::uint64_t bytes : {4096u, 1u << 20, 64u << 20, 256u << 20})
      names.insert(std::string("MultiGpu/PeerCopy/") + route + "/bytes:" + std::to_string(bytes) +
                   "/manual_time");
  for (const char* sync : {"device_sync_each", "event_each"})
    for (int k : {2, 4, 8})
      names.insert(std::string("MultiGpu/SyncAll/") + sync + "/devices:" + std::to_string(k) +
                   "/manual_time");
  for (const char* n : {"1024", "4096"}) {
    const std::string stem = "MultiGpu/DataParallel/";
    names.insert(stem + "no_read/bf16/cublaslt/n:" + n + "/manual_time");
    for (const char* every : {"1", "10"})
      names.insert(stem + "loss_read/bf16/cublaslt/n:" + n + "/every:" + every + "/manual_time");
  }
  return names;
}

TEST(MultiGpuNames, ListsTheDocumentedMatrixWithoutAGpu) {
  const std::vector<std::string> names = multi_gpu();
  const std::set<std::string> unique(names.begin(), names.end());
  EXPECT_EQ(names.size(), 26u);
  EXPECT_EQ(unique.size(), names.size()) << "duplicate names";
  EXPECT_EQ(unique, documented_matrix());
}

TEST(MultiGpuNames, NamesFollowTheGrammar) {
  // The grammar test_cli.cpp checks for every name, and MultiGpu's own words.
  const std::regex grammar(
      "[A-Z][A-Za-z0-9]*/[A-Z][A-Za-z0-9]*(/[a-z][a-z0-9_]*)*"
      "(/(fp16|bf16|fp32|tf32|fp8)/(cublas|cublaslt))?(/[a-z_]+:[0-9]+)*/manual_time");
  const std::regex own(
      "MultiGpu/(CrossDevice/(event_wait|host_wait)|"
      "PeerCopy/(peer_on|peer_off|staged)/bytes:[0-9]+|"
      "SyncAll/(device_sync_each|event_each)/devices:[0-9]+|"
      "DataParallel/(no_read|loss_read)/bf16/cublaslt/n:[0-9]+(/every:[0-9]+)?)/manual_time");
  const std::vector<std::string> names = multi_gpu();
  ASSERT_FALSE(names.empty());
  for (const auto& name : names) {
    EXPECT_TRUE(std::regex_match(name, grammar)) << name;
    EXPECT_TRUE(std::regex_match(name, own)) << name;
  }
}

TEST(MultiGpuNames, TheSameNamesWhateverDevicesAreChosen) {
  // Registration never looks at the GPUs: --devices changes what runs, not what is listed.
  const std::vector<std::string> plain = multi_gpu();
  EXPECT_EQ(multi_gpu("--devices=all"), plain);
  EXPECT_EQ(multi_gpu("--devices=1,0,3"), plain);
}

TEST(MultiGpuNames, BadDevicesAreRefusedBeforeTheGpu) {
  for (const char* arg : {"--devices=0", "--devices=a,b", "--devices=-1,2", "--devices=",
                          "--devices", "--devices=0,", "--devices=,0,0", "--devices=0,,1"}) {
    const CommandResult r = run_command("CUDA_VISIBLE_DEVICES=-1 " + sync_bench_exe() + " " + arg);
    EXPECT_EQ(r.exit_code, 2) << arg << "\n" << r.output;
    EXPECT_NE(r.output.find("--devices expects all, or two or more GPU indices"), std::string::npos)
        << arg << "\n"
        << r.output;
    EXPECT_EQ(r.output.find("no CUDA GPU"), std::string::npos) << "checked before the GPU";
  }
}

TEST(MultiGpuNames, GoodDevicesAreAcceptedThenTheGpuIsLookedFor) {
  // A repeated index is one GPU in two roles (CrossDevice and SyncAll across its streams).
  for (const char* arg :
       {"--devices=all", "--devices=0,1", "--devices=3,1,2", "--devices=0,0", "--devices=1,2,1"}) {
    const CommandResult r = run_command("CUDA_VISIBLE_DEVICES=-1 " + sync_bench_exe() + " " + arg +
                                        " --benchmark_filter='^MultiGpu/'");
    EXPECT_EQ(r.exit_code, 2) << arg << "\n" << r.output;
    EXPECT_EQ(r.output.rfind("sync_bench: no CUDA GPU available", 0), 0u) << arg << "\n"
                                                                          << r.output;
  }
}

TEST(MultiGpuNames, HelpDocumentsDevices) {
  const CommandResult r = run_command(sync_bench_exe() + " --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("--devices=all|"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace sync_bench::test
