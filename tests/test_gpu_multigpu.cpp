// MultiGpu on the GPU. With one GPU visible (on a machine with more, all but one are hidden with
// CUDA_VISIBLE_DEVICES): every MultiGpu benchmark is skipped with its reason and the run exits 0;
// with that GPU named twice (--devices=0,0), CrossDevice and SyncAll run and validate across two
// of its streams, paired with their baselines, and the benchmarks that need two GPUs skip.
// With two or more: every benchmark runs and validates, and the numbers have the expected shape:
// an event dependency costs less than a host round trip, a peer copy beats staging through host
// memory, SyncAll's waits return only once every GPU's value is there (the benchmark checks each
// step, and fails otherwise), and in a data-parallel step (NCCL) reading the
// loss every step costs more than every tenth step, with one blocking call per read on the
// benchmark's own thread (the other ranks' threads are not counted).

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "command.hpp"
#include "gpu_guard.hpp"

namespace sync_bench::test {
namespace {

constexpr std::size_t kMultiGpuBenchmarks = 26;

int visible_devices() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

// Why a row was skipped (Unsupported, see bench/families.cpp): Google Benchmark 1.8 writes
// "skipped" and "skip_message", 1.7 an error whose message starts "skipped: ". Empty if it was not.
std::string skip_reason(const nlohmann::json& b) {
  if (b.value("skipped", false)) return b.value("skip_message", std::string("(no message)"));
  const std::string error = b.value("error_message", std::string());
  if (b.value("error_occurred", false) && error.rfind("skipped: ", 0) == 0) return error.substr(9);
  return "";
}

bool failed(const nlohmann::json& b) {
  return b.value("error_occurred", false) && skip_reason(b).empty();
}

// Runs `env sync_bench args` with JSON output; the iteration rows by name (without
// /manual_time), and the run's context into *context if given. Expects exit code 0 (no benchmark
// failed).
Rows run_rows(const std::string& env, const std::string& args, nlohmann::json* context = nullptr) {
  char path[] = "/tmp/sync_bench_multigpu_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) {
    ADD_FAILURE() << "mkstemp failed";
    return {};
  }
  close(fd);
  const std::string command = env + " " + sync_bench_exe() + " " + args +
                              " --benchmark_out=" + path + " --benchmark_out_format=json";
  const CommandResult run = run_command(command);
  std::ifstream in(path);
  const nlohmann::json json = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  std::remove(path);
  EXPECT_EQ(run.exit_code, 0) << command << "\n" << run.output;
  if (json.is_discarded() || !json.contains("benchmarks")) {
    ADD_FAILURE() << "no JSON from " << command << "\n" << run.output;
    return {};
  }
  if (context != nullptr) *context = json.value("context", nlohmann::json::object());
  return iteration_rows(json);
}

double field(const Rows& rows, const std::string& name, const std::string& key = "real_time") {
  const auto it = rows.find(name);
  if (it == rows.end() || !it->second.contains(key)) {
    ADD_FAILURE() << name << ": no " << key;
    return 0.0;
  }
  return it->second.at(key).get<double>();
}

// A row that ran to the end, without an error or a skip, with positive numbers.
void expect_ran(const Rows& rows, const std::string& name) {
  const auto it = rows.find(name);
  ASSERT_NE(it, rows.end()) << name << " did not run";
  const nlohmann::json& b = it->second;
  EXPECT_FALSE(failed(b)) << name << ": " << b.value("error_message", std::string());
  EXPECT_EQ(skip_reason(b), "") << name << " was skipped";
  EXPECT_GT(b.value("real_time", 0.0), 0.0) << name;
  EXPECT_GT(b.value("host_us", 0.0), 0.0) << name;
  EXPECT_GE(b.value("batch", 0.0), 1.0) << name;
}

void expect_skipped(const Rows& rows, const std::string& name, const std::string& reason) {
  const auto it = rows.find(name);
  ASSERT_NE(it, rows.end()) << name << " is not in the JSON";
  EXPECT_FALSE(failed(it->second))
      << name << ": " << it->second.value("error_message", std::string());
  EXPECT_NE(skip_reason(it->second).find(reason), std::string::npos)
      << name << ": skip reason '" << skip_reason(it->second) << "', expected '" << reason << "'";
}

// The first GPU visible now (the first entry of CUDA_VISIBLE_DEVICES, if set): the one GPU that
// the one-GPU tests leave visible.
std::string first_visible() {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (visible == nullptr || *visible == '\0') return "0";
  const std::string list = visible;
  return list.substr(0, list.find(','));
}

std::string sync_all(const char* sync, int k) {
  return std::string("MultiGpu/SyncAll/") + sync + "/devices:" + std::to_string(k);
}

void print_rows(const Rows& rows) {
  for (const auto& [name, b] : rows) {
    std::printf("  %-48s %10.2f us", name.c_str(), b.value("real_time", 0.0));
    if (b.contains("overhead_us")) std::printf("  overhead %8.2f us", b.value("overhead_us", 0.0));
    if (b.contains("bytes_per_second"))
      std::printf("  %8.2f GB/s", b.value("bytes_per_second", 0.0) * 1e-9);
    const std::string skip = skip_reason(b);
    if (!skip.empty()) std::printf("  skipped: %s", skip.c_str());
    std::printf("\n");
  }
}

TEST(GpuMultiGpu, WithOneGpuEveryBenchmarkIsSkippedWithItsReason) {
  SKIP_WITHOUT_GPU();
  nlohmann::json context;
  const Rows rows =
      run_rows("CUDA_VISIBLE_DEVICES=" + first_visible(),
               "--benchmark_filter='^MultiGpu/' --benchmark_min_time=0.005", &context);
  EXPECT_EQ(rows.size(), kMultiGpuBenchmarks);
  for (const auto& [name, b] : rows)
    expect_skipped(rows, name, "MultiGpu needs two CUDA devices; this machine has 1");
  EXPECT_FALSE(context.contains("multi_gpu_devices")) << "no --devices: the default, unrecorded";
  EXPECT_TRUE(context.contains("gpu_name")) << context.dump();  // the context was read
}

TEST(GpuMultiGpu, OneGpuNamedTwiceRunsCrossDeviceAndSyncAllAcrossItsStreams) {
  SKIP_WITHOUT_GPU();
  nlohmann::json context;
  const Rows rows = run_rows("CUDA_VISIBLE_DEVICES=" + first_visible(),
                             "--devices=0,0 --benchmark_filter='^MultiGpu/' "
                             "--benchmark_min_time=0.02",
                             &context);
  print_rows(rows);
  // The setting is the run's: merge refuses to mix it with runs on two GPUs.
  EXPECT_EQ(context.value("multi_gpu_devices", std::string()), "0,0");
  EXPECT_EQ(rows.size(), kMultiGpuBenchmarks);
  for (const auto& [name, b] : rows) {
    if (name.rfind("MultiGpu/PeerCopy/", 0) == 0)
      expect_skipped(rows, name,
                     "PeerCopy needs distinct GPUs: it would run on 0,0 (--devices names device "
                     "0 twice)");
    if (name.rfind("MultiGpu/DataParallel/", 0) == 0)
      expect_skipped(rows, name, "DataParallel needs distinct GPUs");
  }

  // CrossDevice, both GPUs' roles on one: the step checked every value B read (the benchmark
  // fails otherwise), and a wait on the GPU still costs less than a round trip through the host.
  const std::string event_wait = "MultiGpu/CrossDevice/event_wait";
  const std::string host_wait = "MultiGpu/CrossDevice/host_wait";
  for (const std::string& name : {event_wait, host_wait}) {
    expect_ran(rows, name);
    EXPECT_EQ(field(rows, name, "device_a"), 0.0) << name;
    EXPECT_EQ(field(rows, name, "device_b"), 0.0) << name;
    EXPECT_GT(field(rows, name, "baseline_us"), 0.0) << name;
  }
  EXPECT_LT(field(rows, event_wait, "overhead_us"), field(rows, host_wait, "overhead_us"));
  EXPECT_GT(field(rows, host_wait, "overhead_us"), 0.0);

  // SyncAll over two streams of the GPU, paired with the same calls without the host waits:
  // waiting on the host for both streams costs more than CrossDevice's wait on the GPU.
  for (const char* sync : {"device_sync_each", "event_each"}) {
    const std::string stem = std::string("MultiGpu/SyncAll/") + sync + "/devices:";
    expect_ran(rows, stem + "2");
    EXPECT_EQ(field(rows, stem + "2", "devices"), 2.0) << stem;
    EXPECT_EQ(field(rows, stem + "2", "device_b"), 0.0) << stem;
    EXPECT_GT(field(rows, stem + "2", "overhead_us"), field(rows, event_wait, "overhead_us"))
        << stem;
    for (const char* k : {"4", "8"})
      expect_skipped(rows, stem + k, std::string("needs ") + k + " CUDA devices; 2 selected");
  }
}

// SyncAll over K = 2, 4 and 8 streams of one GPU: the per-device loops and slots past the
// first two, which no machine of fewer than four GPUs runs otherwise, run and validate.
TEST(GpuMultiGpu, OneGpuNamedEightTimesRunsSyncAllOverEveryK) {
  SKIP_WITHOUT_GPU();
  const Rows rows = run_rows("CUDA_VISIBLE_DEVICES=" + first_visible(),
                             "--devices=0,0,0,0,0,0,0,0 --benchmark_filter='^MultiGpu/SyncAll/' "
                             "--benchmark_min_time=0.02");
  print_rows(rows);
  EXPECT_EQ(rows.size(), 6u);
  for (const char* sync : {"device_sync_each", "event_each"})
    for (int k : {2, 4, 8}) {
      const std::string name = sync_all(sync, k);
      expect_ran(rows, name);
      EXPECT_EQ(field(rows, name, "devices"), k) << name;
      EXPECT_GT(field(rows, name, "overhead_us"), 0.0) << name;
    }
}

TEST(GpuMultiGpu, WithTwoGpusEveryBenchmarkRunsAndHasTheExpectedShape) {
  SKIP_WITHOUT_GPU();
  const int count = visible_devices();
  if (count < 2) GTEST_SKIP() << "needs two CUDA devices; " << count << " visible (skipped)";
  const Rows rows = run_rows("", "--benchmark_filter='^MultiGpu/' --benchmark_min_time=0.02");
  print_rows(rows);
  EXPECT_EQ(rows.size(), kMultiGpuBenchmarks);

  // CrossDevice: both ran, paired with the Async baseline; an event dependency is cheaper than
  // the host waiting for GPU A before it launches on GPU B.
  const std::string event_wait = "MultiGpu/CrossDevice/event_wait";
  const std::string host_wait = "MultiGpu/CrossDevice/host_wait";
  for (const std::string& name : {event_wait, host_wait}) {
    expect_ran(rows, name);
    EXPECT_GT(field(rows, name, "baseline_us"), 0.0) << name;
  }
  // On the paired overheads: the two rows' step times are measured apart, and a slow stretch of
  // the host over the event-wait row alone (its step 0.65-0.73x the host-wait step on an H200 x2)
  // would invert them.
  EXPECT_LT(field(rows, event_wait, "overhead_us"), field(rows, host_wait, "overhead_us"));

  // PeerCopy: every route and size ran and validated (peer_on skips where the GPUs cannot reach
  // each other's memory); with peer access the big copy beats staging through host memory.
  bool peer = true;
  for (const char* route : {"peer_on", "peer_off", "staged"})
    for (const char* bytes : {"4096", "1048576", "67108864", "268435456"}) {
      const std::string name = std::string("MultiGpu/PeerCopy/") + route + "/bytes:" + bytes;
      const auto it = rows.find(name);
      ASSERT_NE(it, rows.end()) << name;
      if (std::string(route) == "peer_on" && !skip_reason(it->second).empty()) {
        expect_skipped(rows, name, "no peer access between devices");
        peer = false;
        continue;
      }
      expect_ran(rows, name);
      EXPECT_GT(field(rows, name, "bytes_per_second"), 0.0) << name;
    }
  if (peer) {
    EXPECT_GT(field(rows, "MultiGpu/PeerCopy/peer_on/bytes:268435456", "bytes_per_second"),
              field(rows, "MultiGpu/PeerCopy/staged/bytes:268435456", "bytes_per_second"));
  } else {
    std::printf("  no peer access between devices 0 and 1: peer_on skipped, not compared\n");
  }

  // SyncAll: two devices by default (--device and the next one); more are skipped.
  for (const char* sync : {"device_sync_each", "event_each"}) {
    const std::string stem = std::string("MultiGpu/SyncAll/") + sync + "/devices:";
    expect_ran(rows, stem + "2");
    EXPECT_GT(field(rows, stem + "2", "overhead_us"), 0.0) << stem;  // paired
    for (const char* k : {"4", "8"})
      expect_skipped(rows, stem + k, std::string("needs ") + k + " CUDA devices");
  }
}

TEST(GpuMultiGpu, DataParallelStepsRunValidatedAndReadsCostWhatTheyRead) {
  SKIP_WITHOUT_GPU();
  const int count = visible_devices();
  if (count < 2) GTEST_SKIP() << "needs two CUDA devices; " << count << " visible (skipped)";
  const Rows rows = run_rows("NCCL_NVLS_ENABLE=0",
                             "--benchmark_filter='^MultiGpu/DataParallel/' "
                             "--benchmark_min_time=0.02");
  print_rows(rows);
  ASSERT_EQ(rows.size(), 6u);
  const auto it = rows.find("MultiGpu/DataParallel/no_read/bf16/cublaslt/n:1024");
  ASSERT_NE(it, rows.end());
  const std::string skip = skip_reason(it->second);
  if (skip.find("built without NCCL") != std::string::npos) GTEST_SKIP() << skip;
  for (const char* n : {"1024", "4096"}) {
    const std::string stem = std::string("MultiGpu/DataParallel/");
    const std::string never = stem + "no_read/bf16/cublaslt/n:" + n;
    const std::string each = stem + "loss_read/bf16/cublaslt/n:" + n + "/every:1";
    const std::string tenth = stem + "loss_read/bf16/cublaslt/n:" + n + "/every:10";
    for (const std::string& name : {never, each, tenth}) {
      expect_ran(rows, name);
      EXPECT_EQ(field(rows, name, "devices"), 2) << name;
      EXPECT_GT(field(rows, name, "TFLOPS"), 0.0) << name;
    }
    EXPECT_EQ(field(rows, never, "reads_per_step"), 0.0);
    EXPECT_EQ(field(rows, each, "reads_per_step"), 1.0);
    // Paired with the step that never reads: a read every step waits for the whole step (GEMM
    // and all-reduce) each time; every tenth step, a tenth as often.
    EXPECT_GT(field(rows, each, "overhead_us"), 0.0) << each;
    EXPECT_GT(field(rows, each, "overhead_us"), field(rows, tenth, "overhead_us")) << n;
    // Sync accounting sees rank 0's thread only: one blocking call (the read's stream sync) per
    // read, none without reads, although every rank reads.
    EXPECT_NEAR(field(rows, each, "syncs_per_step"), 1.0, 1e-9) << each;
    EXPECT_NEAR(field(rows, never, "syncs_per_step"), 0.0, 1e-9) << never;
    // Every tenth step reads, in the timed batches (whole periods) and in the accounting pass.
    // Batches of 4 steps at n=4096 held 0 or 1 read, and the median round often none: the
    // overhead read -0.02 to 1.4 us against 18.6-22.8 us for every step (results/h200x2/).
    EXPECT_NEAR(field(rows, tenth, "syncs_per_step"), 0.1, 1e-9) << tenth;
    EXPECT_DOUBLE_EQ(field(rows, tenth, "reads_per_step"), 0.1) << tenth;
    EXPECT_EQ(static_cast<std::int64_t>(field(rows, tenth, "batch")) % 10, 0) << tenth;
    EXPECT_GT(field(rows, tenth, "overhead_us"), 0.0) << tenth;
    EXPECT_LT(field(rows, tenth, "overhead_us"), 0.5 * field(rows, each, "overhead_us")) << n;
  }
}

TEST(GpuMultiGpu, DevicesAllSyncsEveryVisibleGpu) {
  SKIP_WITHOUT_GPU();
  const int count = visible_devices();
  if (count < 2) GTEST_SKIP() << "needs two CUDA devices; " << count << " visible (skipped)";
  const Rows rows = run_rows(
      "", "--devices=all --benchmark_filter='^MultiGpu/SyncAll/' --benchmark_min_time=0.005");
  print_rows(rows);
  EXPECT_EQ(rows.size(), 6u);
  for (const char* sync : {"device_sync_each", "event_each"})
    for (int k : {2, 4, 8}) {
      const std::string name = sync_all(sync, k);
      if (k <= count) {
        expect_ran(rows, name);
        EXPECT_EQ(field(rows, name, "devices"), k) << name;
      } else {
        expect_skipped(rows, name, "needs " + std::to_string(k) + " CUDA devices");
      }
    }
}

TEST(GpuMultiGpu, DevicesBeyondTheVisibleOnesAreSkipped) {
  SKIP_WITHOUT_GPU();
  const int count = visible_devices();
  if (count < 2) GTEST_SKIP() << "needs two CUDA devices; " << count << " visible (skipped)";
  const Rows rows = run_rows(
      "", "--devices=0,99 --benchmark_filter='^MultiGpu/CrossDevice/' --benchmark_min_time=0.005");
  EXPECT_EQ(rows.size(), 2u);
  for (const auto& [name, b] : rows) expect_skipped(rows, name, "names device 99");
}

}  // namespace
}  // namespace sync_bench::test
