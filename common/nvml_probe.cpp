#include "nvml_probe.hpp"

#include <dlfcn.h>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <utility>

namespace sync_bench {
namespace {

// The slice of NVML's C ABI used here, declared by hand because nvml.h is not installed on the
// build machine. Values, symbol names and signatures are those of NVIDIA's nvml.h (as vendored in
// NVIDIA/go-nvml gen/nvml/nvml.h, NVML 12.2.140), checked against NVIDIA's cuda-python bindings
// (cuda_bindings cy_nvml.pxd, generated from the 12.9.1 to 13.x headers) and nvidia-ml-py's
// pynvml.py. The unversioned names in nvml.h are macros for the versioned symbols used below
// (nvmlInit -> nvmlInit_v2, nvmlDeviceGetHandleByPciBusId -> nvmlDeviceGetHandleByPciBusId_v2).
// C enums are int-sized, so enum parameters and enum out-pointers are declared as int here.
using nvmlReturn_t = int;                 // enum nvmlReturn_enum
constexpr nvmlReturn_t kNvmlSuccess = 0;  // NVML_SUCCESS
struct nvmlDevice_st;
using nvmlDevice_t = nvmlDevice_st*;

constexpr int kClockSm = 1;                        // NVML_CLOCK_SM (nvmlClockType_t)
constexpr int kClockMem = 2;                       // NVML_CLOCK_MEM
constexpr int kClockIdAppTarget = 1;               // NVML_CLOCK_ID_APP_CLOCK_TARGET (nvmlClockId_t)
constexpr int kFeatureEnabled = 1;                 // NVML_FEATURE_ENABLED (nvmlEnableState_t)
constexpr unsigned kMigEnable = 1;                 // NVML_DEVICE_MIG_ENABLE
constexpr unsigned kUuidBufferSize = 96;           // NVML_DEVICE_UUID_V2_BUFFER_SIZE
constexpr unsigned kDriverVersionBufferSize = 80;  // NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE
constexpr unsigned kVbiosVersionBufferSize = 32;   // NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE

constexpr const char* kNvmlLibrary = "libnvidia-ml.so.1";

// Function pointers resolved with dlsym. init, shutdown and the bus-id lookup are required; any
// other may be missing from an older driver, and then its fact is left out. All are read-only.
struct NvmlApi {
  nvmlReturn_t (*init)() = nullptr;
  nvmlReturn_t (*shutdown)() = nullptr;
  const char* (*error_string)(nvmlReturn_t) = nullptr;
  nvmlReturn_t (*handle_by_pci_bus_id)(const char*, nvmlDevice_t*) = nullptr;

  nvmlReturn_t (*driver_version)(char*, unsigned) = nullptr;
  nvmlReturn_t (*uuid)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*vbios_version)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*clock_info)(nvmlDevice_t, int, unsigned*) = nullptr;
  nvmlReturn_t (*max_clock_info)(nvmlDevice_t, int, unsigned*) = nullptr;
  nvmlReturn_t (*clock)(nvmlDevice_t, int, int, unsigned*) = nullptr;
  nvmlReturn_t (*clocks_event_reasons)(nvmlDevice_t, unsigned long long*) = nullptr;
  nvmlReturn_t (*pcie_gen_current)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*pcie_gen_max)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*pcie_width_current)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*pcie_width_max)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*persistence_mode)(nvmlDevice_t, int*) = nullptr;
  nvmlReturn_t (*ecc_mode)(nvmlDevice_t, int*, int*) = nullptr;
  nvmlReturn_t (*compute_mode)(nvmlDevice_t, int*) = nullptr;
  nvmlReturn_t (*mig_mode)(nvmlDevice_t, unsigned*, unsigned*) = nullptr;
  nvmlReturn_t (*power_limit_mw)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*enforced_power_limit_mw)(nvmlDevice_t, unsigned*) = nullptr;
};

template <typename Fn>
void resolve(void* lib, const char* symbol, Fn* fn) noexcept {
  *fn = reinterpret_cast<Fn>(dlsym(lib, symbol));
}

void resolve_api(void* lib, NvmlApi* api) noexcept {
  resolve(lib, "nvmlInit_v2", &api->init);
  resolve(lib, "nvmlShutdown", &api->shutdown);
  resolve(lib, "nvmlErrorString", &api->error_string);
  resolve(lib, "nvmlDeviceGetHandleByPciBusId_v2", &api->handle_by_pci_bus_id);
  resolve(lib, "nvmlSystemGetDriverVersion", &api->driver_version);
  resolve(lib, "nvmlDeviceGetUUID", &api->uuid);
  resolve(lib, "nvmlDeviceGetVbiosVersion", &api->vbios_version);
  resolve(lib, "nvmlDeviceGetClockInfo", &api->clock_info);
  resolve(lib, "nvmlDeviceGetMaxClockInfo", &api->max_clock_info);
  resolve(lib, "nvmlDeviceGetClock", &api->clock);
  // Renamed in NVML 12.2 (driver 535); the old name is the fallback for older drivers.
  resolve(lib, "nvmlDeviceGetCurrentClocksEventReasons", &api->clocks_event_reasons);
  if (api->clocks_event_reasons == nullptr)
    resolve(lib, "nvmlDeviceGetCurrentClocksThrottleReasons", &api->clocks_event_reasons);
  resolve(lib, "nvmlDeviceGetCurrPcieLinkGeneration", &api->pcie_gen_current);
  resolve(lib, "nvmlDeviceGetMaxPcieLinkGeneration", &api->pcie_gen_max);
  resolve(lib, "nvmlDeviceGetCurrPcieLinkWidth", &api->pcie_width_current);
  resolve(lib, "nvmlDeviceGetMaxPcieLinkWidth", &api->pcie_width_max);
  resolve(lib, "nvmlDeviceGetPersistenceMode", &api->persistence_mode);
  resolve(lib, "nvmlDeviceGetEccMode", &api->ecc_mode);
  resolve(lib, "nvmlDeviceGetComputeMode", &api->compute_mode);
  resolve(lib, "nvmlDeviceGetMigMode", &api->mig_mode);
  resolve(lib, "nvmlDeviceGetPowerManagementLimit", &api->power_limit_mw);
  resolve(lib, "nvmlDeviceGetEnforcedPowerLimit", &api->enforced_power_limit_mw);
}

const char* first_missing_required(const NvmlApi& api) noexcept {
  if (api.init == nullptr) return "nvmlInit_v2";
  if (api.shutdown == nullptr) return "nvmlShutdown";
  if (api.handle_by_pci_bus_id == nullptr) return "nvmlDeviceGetHandleByPciBusId_v2";
  return nullptr;
}

struct DlClose {
  void operator()(void* lib) const noexcept { dlclose(lib); }
};
using LibraryHandle = std::unique_ptr<void, DlClose>;

std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

std::string nvml_error_text(const NvmlApi& api, nvmlReturn_t code) {
  const char* text = api.error_string != nullptr ? api.error_string(code) : nullptr;
  return std::string(text != nullptr ? text : "NVML error") + " (" + std::to_string(code) + ")";
}

// Sets *why without letting an allocation failure escape; returns nullptr for open() to return.
std::nullptr_t fail(std::string* why, const std::string& reason) noexcept {
  if (why != nullptr) {
    try {
      *why = one_line(reason);
    } catch (...) {
      why->clear();
    }
  }
  return nullptr;
}

// One NVML getter of the form fn(device, extra..., &out); empty unless it returned NVML_SUCCESS.
template <typename T, typename Fn, typename... Extra>
std::optional<T> query(Fn fn, nvmlDevice_t device, Extra... extra) noexcept {
  if (fn == nullptr) return std::nullopt;
  T value{};
  if (fn(device, extra..., &value) != kNvmlSuccess) return std::nullopt;
  return value;
}

// A string getter of the form fn([device,] buffer, length).
template <typename Fn, typename... Lead>
std::optional<std::string> query_text(Fn fn, unsigned buffer_size, Lead... lead) {
  if (fn == nullptr) return std::nullopt;
  std::vector<char> buffer(buffer_size, '\0');
  if (fn(lead..., buffer.data(), buffer_size) != kNvmlSuccess) return std::nullopt;
  return std::string(buffer.data(), strnlen(buffer.data(), buffer_size));
}

std::string enabled_text(bool on) {
  return on ? "enabled" : "disabled";
}

// 700000 mW -> "700", 699500 mW -> "699.5".
std::string watts_text(unsigned milliwatts) {
  char text[32];
  std::snprintf(text, sizeof(text), "%u.%03u", milliwatts / 1000, milliwatts % 1000);
  std::string s = text;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

std::string compute_mode_text(int mode) {
  switch (mode) {  // nvmlComputeMode_t
    case 0:
      return "default";
    case 1:
      return "exclusive_thread";
    case 2:
      return "prohibited";
    case 3:
      return "exclusive_process";
  }
  return std::to_string(mode);  // a mode this code does not know: the raw value, not a guess
}

// The reasons counted as throttling, in NVML's bit order.
struct NamedReason {
  unsigned long long bit;
  const char* name;
};
constexpr NamedReason kThrottlingReasons[] = {
    {kClocksEventSwPowerCap, "sw_power_cap"},
    {kClocksEventHwSlowdown, "hw_slowdown"},
    {kClocksEventSyncBoost, "sync_boost"},
    {kClocksEventSwThermalSlowdown, "sw_thermal_slowdown"},
    {kClocksEventHwThermalSlowdown, "hw_thermal_slowdown"},
    {kClocksEventHwPowerBrakeSlowdown, "hw_power_brake_slowdown"},
    {kClocksEventDisplayClockSetting, "display_clock_setting"},
};
constexpr unsigned long long kNotThrottling =
    kClocksEventGpuIdle | kClocksEventApplicationsClocksSetting;

}  // namespace

bool is_throttled(unsigned long long mask) noexcept {
  return (mask & ~kNotThrottling) != 0;
}

std::string describe_throttle_reasons(unsigned long long mask) {
  std::string text;
  auto append = [&text](const std::string& name) { text += (text.empty() ? "" : ",") + name; };
  unsigned long long known = kNotThrottling;
  for (const NamedReason& reason : kThrottlingReasons) {
    known |= reason.bit;
    if (mask & reason.bit) append(reason.name);
  }
  for (int i = 0; i < 64; ++i) {
    const unsigned long long bit = 1ULL << i;
    if ((mask & bit) && !(known & bit)) {
      char name[32];
      std::snprintf(name, sizeof(name), "unknown_0x%llx", bit);
      append(name);
    }
  }
  return text.empty() ? "none" : text;
}

struct NvmlDevice::Impl {
  LibraryHandle library;  // declared first, so destroyed last: dlclose after nvmlShutdown
  NvmlApi api;
  nvmlDevice_t device = nullptr;
  bool initialized = false;

  ~Impl() {
    // A destructor: a failure is said, not thrown.
    if (initialized && api.shutdown() != kNvmlSuccess)
      std::fprintf(stderr, "sync_bench: nvmlShutdown failed (ignored at exit)\n");
  }
};

NvmlDevice::NvmlDevice(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
NvmlDevice::~NvmlDevice() = default;

std::unique_ptr<NvmlDevice> NvmlDevice::open(const std::string& pci_bus_id, std::string* why) {
  try {
    auto impl = std::make_unique<Impl>();
    dlerror();  // clear a stale message
    impl->library.reset(dlopen(kNvmlLibrary, RTLD_NOW | RTLD_LOCAL));
    if (!impl->library) {
      const char* error = dlerror();
      return fail(why, std::string("cannot load ") + kNvmlLibrary + ": " +
                           (error != nullptr ? error : "dlopen failed"));
    }
    resolve_api(impl->library.get(), &impl->api);
    if (const char* missing = first_missing_required(impl->api))
      return fail(why, std::string(kNvmlLibrary) + " has no " + missing);

    const nvmlReturn_t init = impl->api.init();
    if (init != kNvmlSuccess)
      return fail(why, "nvmlInit_v2 failed: " + nvml_error_text(impl->api, init));
    impl->initialized = true;

    const nvmlReturn_t found = impl->api.handle_by_pci_bus_id(pci_bus_id.c_str(), &impl->device);
    if (found != kNvmlSuccess || impl->device == nullptr)
      return fail(why, "NVML finds no GPU at PCI bus id \"" + pci_bus_id +
                           "\": " + nvml_error_text(impl->api, found));
    return std::unique_ptr<NvmlDevice>(new NvmlDevice(std::move(impl)));
  } catch (...) {  // only an allocation can throw here
    return fail(why, "NVML probe failed: out of memory");
  }
}

std::optional<unsigned> NvmlDevice::sm_clock_mhz() const noexcept {
  return query<unsigned>(impl_->api.clock_info, impl_->device, kClockSm);
}

std::optional<unsigned> NvmlDevice::memory_clock_mhz() const noexcept {
  return query<unsigned>(impl_->api.clock_info, impl_->device, kClockMem);
}

std::optional<unsigned long long> NvmlDevice::throttle_reasons() const noexcept {
  return query<unsigned long long>(impl_->api.clocks_event_reasons, impl_->device);
}

std::vector<std::pair<std::string, std::string>> NvmlDevice::fingerprint() const {
  std::vector<std::pair<std::string, std::string>> fields;
  try {
    const NvmlApi& api = impl_->api;
    const nvmlDevice_t dev = impl_->device;
    auto add = [&fields](const char* key, const std::optional<std::string>& value) {
      if (value) fields.emplace_back(key, *value);
    };
    auto add_number = [&fields](const char* key, const std::optional<unsigned>& value) {
      if (value) fields.emplace_back(key, std::to_string(*value));
    };

    add("gpu_uuid", query_text(api.uuid, kUuidBufferSize, dev));
    add("nvml_driver_version", query_text(api.driver_version, kDriverVersionBufferSize));
    add("vbios_version", query_text(api.vbios_version, kVbiosVersionBufferSize, dev));
    // The current link may train down while the GPU idles (power saving) and come back up under
    // load, so a low pcie_gen_current read before a run is not by itself a fault.
    add_number("pcie_gen_current", query<unsigned>(api.pcie_gen_current, dev));
    add_number("pcie_gen_max", query<unsigned>(api.pcie_gen_max, dev));
    add_number("pcie_width_current", query<unsigned>(api.pcie_width_current, dev));
    add_number("pcie_width_max", query<unsigned>(api.pcie_width_max, dev));

    if (const auto mode = query<int>(api.persistence_mode, dev))
      fields.emplace_back("persistence_mode", enabled_text(*mode == kFeatureEnabled));
    if (api.ecc_mode != nullptr) {
      int current = 0, pending = 0;
      if (api.ecc_mode(dev, &current, &pending) == kNvmlSuccess)
        fields.emplace_back("ecc_mode", enabled_text(current == kFeatureEnabled));
    }
    if (const auto mode = query<int>(api.compute_mode, dev))
      fields.emplace_back("compute_mode", compute_mode_text(*mode));
    if (api.mig_mode != nullptr) {
      unsigned current = 0, pending = 0;
      if (api.mig_mode(dev, &current, &pending) == kNvmlSuccess)
        fields.emplace_back("mig_mode", enabled_text(current == kMigEnable));
    }

    if (const auto mw = query<unsigned>(api.power_limit_mw, dev))
      fields.emplace_back("power_limit_w", watts_text(*mw));
    if (const auto mw = query<unsigned>(api.enforced_power_limit_mw, dev))
      fields.emplace_back("power_limit_enforced_w", watts_text(*mw));

    // No SM maximum here: device_info takes it from CUDA as sm_clock_max_mhz.
    add_number("memory_clock_max_mhz", query<unsigned>(api.max_clock_info, dev, kClockMem));
    add_number("sm_clock_app_mhz", query<unsigned>(api.clock, dev, kClockSm, kClockIdAppTarget));
    add_number("memory_clock_app_mhz",
               query<unsigned>(api.clock, dev, kClockMem, kClockIdAppTarget));
  } catch (...) {  // an allocation failed: keep what was gathered
  }
  return fields;
}

}  // namespace sync_bench
