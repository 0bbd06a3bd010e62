#pragma once
// What state the GPU is in, read through NVML: clocks, clock-event (throttle) reasons and the
// static facts that tell two runs' machines apart. NVML is loaded at run time with dlopen and never
// linked, so a machine without the NVIDIA driver still builds and runs; there open() just says why
// not. Only read-only queries are made: nothing here changes a clock, a limit or a mode of the GPU.

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sync_bench {

// NVML's clock-event reason bits (nvmlClocksEventReason*, formerly nvmlClocksThrottleReason*).
// Values from NVIDIA's nvml.h, group nvmlClocksEventReasons (the same bits in both spellings).
inline constexpr unsigned long long kClocksEventGpuIdle = 0x1ULL;
inline constexpr unsigned long long kClocksEventApplicationsClocksSetting = 0x2ULL;
inline constexpr unsigned long long kClocksEventSwPowerCap = 0x4ULL;
inline constexpr unsigned long long kClocksEventHwSlowdown = 0x8ULL;
inline constexpr unsigned long long kClocksEventSyncBoost = 0x10ULL;
inline constexpr unsigned long long kClocksEventSwThermalSlowdown = 0x20ULL;
inline constexpr unsigned long long kClocksEventHwThermalSlowdown = 0x40ULL;
inline constexpr unsigned long long kClocksEventHwPowerBrakeSlowdown = 0x80ULL;
inline constexpr unsigned long long kClocksEventDisplayClockSetting = 0x100ULL;

// The reasons in `mask` that hold the clock below what the workload asks for, comma-separated
// ("sw_power_cap,hw_slowdown"), or "none". GPU idle and the application-clocks setting are not
// counted: idle means nothing asked for a clock, and application clocks are a configured target.
// Bits NVML may add later are named "unknown_0x..." and counted, so that a new limiter is seen.
// describe_throttle_reasons(mask) == "none" exactly when !is_throttled(mask).
std::string describe_throttle_reasons(unsigned long long mask);
bool is_throttled(unsigned long long mask) noexcept;

class NvmlDevice {
 public:
  // Loads NVML and finds the GPU with this PCI bus id (as cudaDeviceGetPCIBusId writes it, e.g.
  // "0000:1A:00.0"). Returns nullptr and sets *why (one line, if why is not null) when NVML or the
  // device is unavailable. Never throws.
  static std::unique_ptr<NvmlDevice> open(const std::string& pci_bus_id, std::string* why);
  ~NvmlDevice();  // nvmlShutdown, then dlclose; never throws

  NvmlDevice(const NvmlDevice&) = delete;
  NvmlDevice& operator=(const NvmlDevice&) = delete;

  // Current clocks in MHz and the current clock-event reason mask; empty when NVML cannot say.
  std::optional<unsigned> sm_clock_mhz() const noexcept;
  std::optional<unsigned> memory_clock_mhz() const noexcept;
  std::optional<unsigned long long> throttle_reasons() const noexcept;

  // Static facts as key/value pairs for benchmark::AddCustomContext: gpu_uuid, nvml_driver_version,
  // vbios_version, pcie_gen_current, pcie_gen_max, pcie_width_current, pcie_width_max,
  // persistence_mode, ecc_mode, compute_mode, mig_mode, power_limit_w, power_limit_enforced_w,
  // memory_clock_max_mhz, sm_clock_app_mhz, memory_clock_app_mhz. A value NVML does not give is
  // left out, never guessed. Never throws (on failure the list is cut short).
  std::vector<std::pair<std::string, std::string>> fingerprint() const;

 private:
  struct Impl;
  explicit NvmlDevice(std::unique_ptr<Impl> impl) noexcept;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sync_bench
