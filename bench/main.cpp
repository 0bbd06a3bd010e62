// sync_bench: Google Benchmark's runner over every registered sync-pattern family, with
// sync_bench's own flags, a clear refusal where there is no GPU, and the machine in the context.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include "activity_trace.hpp"
#include "anatomy_timeline.hpp"
#include "bench_context.hpp"
#include "cli.hpp"
#include "cuda_check.hpp"
#include "data_parallel.hpp"
#include "device_info.hpp"
#include "end_state_reporter.hpp"
#include "families.hpp"
#include "measure_config.hpp"
#include "multi_gpu_devices.hpp"
#include "sync_accounting.hpp"
#include "sync_map.hpp"

namespace {

void print_help() {
  sync_bench::print_usage();
  benchmark::PrintDefaultHelp();
}

// Why CUDA sees no GPU, in words a user can act on: the runtime's error alone ("driver version is
// insufficient") is what it says when there is no driver at all.
std::string no_gpu_cause(cudaError_t err) {
  const bool driver_loaded = access("/proc/driver/nvidia/version", F_OK) == 0;
  if (err == cudaSuccess || err == cudaErrorNoDevice)
    return "no CUDA device is visible (check nvidia-smi and CUDA_VISIBLE_DEVICES)";
  if (err == cudaErrorInsufficientDriver)
    return driver_loaded ? "the NVIDIA driver is older than this CUDA runtime needs"
                         : "no NVIDIA driver is loaded on this machine";
  return driver_loaded ? "CUDA cannot use the GPU" : "no NVIDIA driver is loaded on this machine";
}

// The other GPUs MultiGpu may use (--devices, else --device's neighbour) get --sync_mode too,
// before their contexts exist: host_wait_mode, recorded from --device, then holds for every device.
void init_multi_gpu_devices(const sync_bench::Options& options, int count) {
  std::vector<int> devices = options.devices;
  if (options.all_devices)
    for (int d = 0; d < count; ++d) devices.push_back(d);
  if (devices.empty()) devices.push_back(options.device + 1);
  std::sort(devices.begin(), devices.end());
  devices.erase(std::unique(devices.begin(), devices.end()), devices.end());  // --devices=1,1
  for (int d : devices) {
    if (d == options.device || d < 0 || d >= count) continue;
    const cudaError_t err = cudaInitDevice(d, sync_bench::wait_mode_flag(options.wait_mode),
                                           cudaInitDeviceFlagsAreValid);
    if (err != cudaSuccess)
      std::fprintf(stderr,
                   "sync_bench: cannot initialise device %d (%s: %s): MultiGpu rows on it will "
                   "not wait in --sync_mode's mode\n",
                   d, cudaGetErrorName(err), cudaGetErrorString(err));
  }
}

// Exit code 2 with one line when the GPU cannot be used; nothing is run.
int choose_device(const sync_bench::Options& options) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::fprintf(stderr,
                 "sync_bench: no CUDA GPU available: %s (cudaGetDeviceCount: %s: %s); without "
                 "one, --benchmark_list_tests lists the benchmarks and `sync_summary report "
                 "results/h100/sweep.json` reads a stored run\n",
                 no_gpu_cause(err).c_str(), cudaGetErrorName(err),
                 err == cudaSuccess ? "0 devices" : cudaGetErrorString(err));
    return 2;
  }
  if (options.device >= count) {
    std::fprintf(stderr, "sync_bench: --device=%d, but only %d CUDA device(s) are visible\n",
                 options.device, count);
    return 2;
  }
  // The wait mode must be set before the device's context exists; cudaInitDevice creates it.
  const cudaError_t init = cudaInitDevice(
      options.device, sync_bench::wait_mode_flag(options.wait_mode), cudaInitDeviceFlagsAreValid);
  if (init != cudaSuccess) {
    std::fprintf(stderr, "sync_bench: cannot initialise device %d: %s: %s\n", options.device,
                 cudaGetErrorName(init), cudaGetErrorString(init));
    return 2;
  }
  init_multi_gpu_devices(options, count);
  CUDA_CHECK(cudaSetDevice(options.device));
  return 0;
}

// Context fields, the shared benchmark context and (if asked for) CUPTI sync accounting.
void prepare_run(const sync_bench::Options& options) {
  const sync_bench::ContextFields context = sync_bench::device_context(options.device);
  for (const auto& [key, value] : context) benchmark::AddCustomContext(key, value);
  std::string accounting = "off";
  if (options.sync_accounting) {
    std::string why;
    auto subscription = sync_bench::SyncAccounting::create(&why);
    accounting = subscription ? "on" : "unavailable: " + why;
    sync_bench::set_sync_accounting(std::move(subscription));
  }
  benchmark::AddCustomContext("sync_accounting", accounting);
  benchmark::AddCustomContext("stopping_rule", sync_bench::describe(options.stopping));
  benchmark::AddCustomContext("nccl", sync_bench::prepare_nccl());
  // --devices as given (absent: the default, --device and the next one): MultiGpu on other GPUs,
  // or on one GPU named twice, is another setting, which merge refuses to mix and compare names.
  if (options.all_devices)
    benchmark::AddCustomContext("multi_gpu_devices", "all");
  else if (!options.devices.empty())
    benchmark::AddCustomContext("multi_gpu_devices", sync_bench::list_of(options.devices));
  std::string anatomy = "off";
  if (options.anatomy) {
    std::string why;
    auto trace = sync_bench::ActivityTrace::create(&why);
    anatomy = trace ? "on" : "unavailable: " + why;
    sync_bench::set_activity_trace(std::move(trace));
  }
  benchmark::AddCustomContext("anatomy", anatomy);
  if (!options.anatomy_timeline.empty() && sync_bench::activity_trace())
    sync_bench::set_anatomy_timeline(
        std::make_unique<sync_bench::AnatomyTimeline>(options.anatomy_timeline, context));
  sync_bench::create_bench_context(options.device);
}

// The checks that need no GPU, made before the GPU is touched: a filter that is no regex or
// selects nothing, an output file that cannot be written. Exit code 2 with one line, or 0.
int check_request(const sync_bench::Options& options) {
  std::string error;
  const auto selected = options.sync_map ? std::optional<std::size_t>(1)
                                         : sync_bench::count_filtered(
                                               benchmark::GetBenchmarkFilter(),
                                               sync_bench::registered_benchmark_names(), &error);
  if (!selected) {
    std::fprintf(stderr, "sync_bench: %s\n", error.c_str());
    return 2;
  }
  if (*selected == 0) {
    std::fprintf(stderr,
                 "sync_bench: --benchmark_filter='%s' selects no benchmark (list them with "
                 "--benchmark_list_tests)\n",
                 benchmark::GetBenchmarkFilter().c_str());
    return 2;
  }
  if (options.list_only) return 0;
  if (!options.anatomy_timeline.empty() && !options.anatomy) {
    std::fprintf(stderr, "sync_bench: --anatomy_timeline needs --anatomy=on\n");
    return 2;
  }
  const std::string map = options.sync_map_prefix;
  for (const std::string& path :
       {options.out_path, options.anatomy_timeline, map.empty() ? std::string() : map + ".json",
        map.empty() ? std::string() : map + ".md"}) {
    if (!path.empty() && !sync_bench::output_writable(path, &error)) {
      std::fprintf(stderr, "sync_bench: %s\n", error.c_str());
      return 2;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  sync_bench::Options options;
  std::string error;
  if (!sync_bench::parse_options(&argc, argv, &options, &error)) {
    std::fprintf(stderr, "sync_bench: %s\n", error.c_str());
    return 2;
  }
  sync_bench::stopping_rule() = options.stopping;
  sync_bench::injection() = options.inject;
  sync_bench::multi_gpu_selection() = {options.device, options.all_devices, options.devices};
  argv = sync_bench::with_single_iteration(&argc, argv);
  benchmark::Initialize(&argc, argv, print_help);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  sync_bench::register_all_families();
  int rc = 0;
  if ((rc = check_request(options)) != 0) return rc;
  if (options.list_only) {
    benchmark::RunSpecifiedBenchmarks();
    return 0;
  }
  try {
    if ((rc = choose_device(options)) != 0) return rc;
    if (options.sync_map) return sync_bench::run_sync_map(options.sync_map_prefix);
    prepare_run(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sync_bench: %s\n", e.what());
    return 2;
  }
  bool json_complete = true;
  if (!options.out_path.empty() && options.out_format == "json") {
    sync_bench::EndStateJsonReporter file_reporter(sync_bench::gpu_end_state);
    benchmark::RunSpecifiedBenchmarks(nullptr, &file_reporter);
    json_complete = file_reporter.complete();
  } else {
    benchmark::RunSpecifiedBenchmarks();
  }
  sync_bench::destroy_bench_context();
  sync_bench::set_sync_accounting(nullptr);
  sync_bench::set_activity_trace(nullptr);
  benchmark::Shutdown();
  // The benchmarks ran: whatever goes wrong from here is exit 1, each problem said, and what was
  // written is kept. The outputs were checked writable before the run; a full disk can still fail
  // them (Google Benchmark writes --benchmark_out without looking: file_reporter looked).
  int status = 0;
  if (!json_complete) {
    std::fprintf(stderr,
                 "sync_bench: could not write all of %s (a full disk?): its JSON is incomplete; "
                 "the console output above has every result\n",
                 options.out_path.c_str());
    status = 1;
  }
  const std::string kept_in = !json_complete             ? " on the console only"
                              : options.out_path.empty() ? ""
                                                         : " in " + options.out_path;
  if (sync_bench::AnatomyTimeline* timeline = sync_bench::anatomy_timeline()) {
    if (!timeline->write(&error)) {
      std::fprintf(stderr, "sync_bench: %s (the results were kept%s)\n", error.c_str(),
                   kept_in.c_str());
      status = 1;
    }
  }
  if (const int failed = sync_bench::failed_benchmarks(); failed > 0) {
    std::fprintf(stderr,
                 "sync_bench: %d benchmark(s) failed (ERROR OCCURRED above); every other result "
                 "was kept%s\n",
                 failed, kept_in.c_str());
    status = 1;
  }
  return status;
}
