#include "device_info.hpp"

#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include "cuda_check.hpp"
#include "host_info.hpp"
#include "nvml_probe.hpp"
#include "sync_bench_version.h"

namespace sync_bench {
namespace {

std::string cuda_version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace

bool parse_wait_mode(const std::string& text, WaitMode* out) {
  if (text == "auto")
    *out = WaitMode::automatic;
  else if (text == "spin")
    *out = WaitMode::spin;
  else if (text == "yield")
    *out = WaitMode::yield;
  else if (text == "blocking")
    *out = WaitMode::blocking;
  else
    return false;
  return true;
}

unsigned wait_mode_flag(WaitMode mode) {
  switch (mode) {
    case WaitMode::spin:
      return cudaDeviceScheduleSpin;
    case WaitMode::yield:
      return cudaDeviceScheduleYield;
    case WaitMode::blocking:
      return cudaDeviceScheduleBlockingSync;
    case WaitMode::automatic:
      break;
  }
  return cudaDeviceScheduleAuto;
}

std::string current_wait_mode() {
  unsigned flags = 0;
  CUDA_CHECK(cudaGetDeviceFlags(&flags));
  switch (flags & cudaDeviceScheduleMask) {
    case cudaDeviceScheduleSpin:
      return "spin";
    case cudaDeviceScheduleYield:
      return "yield";
    case cudaDeviceScheduleBlockingSync:
      return "blocking";
    default:
      return "auto";
  }
}

ContextFields clock_state(const NvmlDevice& nvml, const std::string& suffix) {
  ContextFields fields;
  if (const auto mhz = nvml.sm_clock_mhz())
    fields.emplace_back("sm_clock_mhz" + suffix, std::to_string(*mhz));
  if (const auto mhz = nvml.memory_clock_mhz())
    fields.emplace_back("memory_clock_mhz" + suffix, std::to_string(*mhz));
  if (const auto mask = nvml.throttle_reasons())
    fields.emplace_back("throttle_reasons" + suffix, describe_throttle_reasons(*mask));
  return fields;
}

ContextFields device_context(int device) {
  int current = 0;
  CUDA_CHECK(cudaGetDevice(&current));
  if (current != device)
    throw std::invalid_argument("device_context: device " + std::to_string(device) +
                                " is not the current device " + std::to_string(current));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  int driver = 0, runtime = 0, max_clock_khz = 0;
  CUDA_CHECK(cudaDriverGetVersion(&driver));
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  CUDA_CHECK(cudaDeviceGetAttribute(&max_clock_khz, cudaDevAttrClockRate, device));
  char bus_id[32] = {};
  CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, sizeof(bus_id), device));
  char memory_gib[32];
  std::snprintf(memory_gib, sizeof(memory_gib), "%.1f", prop.totalGlobalMem / double(1 << 30));

  ContextFields fields = {
      {"sync_bench_version", SYNC_BENCH_VERSION},
      // The source fingerprint; scripts/source_hash.sh REV gives a commit's, to match it with.
      {"sync_bench_source", SYNC_BENCH_SOURCE},
      {"gpu_index", std::to_string(device)},
      {"gpu_name", prop.name},
      {"gpu_cc", std::to_string(prop.major) + "." + std::to_string(prop.minor)},
      {"gpu_sm_count", std::to_string(prop.multiProcessorCount)},
      {"gpu_memory_gib", memory_gib},
      {"gpu_l2_mib", std::to_string(prop.l2CacheSize >> 20)},
      {"gpu_pci_bus_id", bus_id},
      {"driver_version", cuda_version_text(driver)},
      {"runtime_version", cuda_version_text(runtime)},
      {"cublas_version", std::to_string(cublasLtGetVersion())},
      {"sm_clock_max_mhz", std::to_string(max_clock_khz / 1000)},
      {"host_wait_mode", current_wait_mode()},
      {"cpu_model", cpu_model()},
  };
  if (const auto ghz = host_clock_ghz()) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.2f", *ghz);
    fields.emplace_back("host_clock_ghz", text);
  }
  std::string why;
  if (const auto nvml = NvmlDevice::open(bus_id, &why)) {
    for (auto& kv : clock_state(*nvml, "_start")) fields.push_back(std::move(kv));
    for (auto& kv : nvml->fingerprint()) fields.push_back(std::move(kv));
  } else {
    fields.emplace_back("nvml", "unavailable: " + why);
  }
  return fields;
}

}  // namespace sync_bench
