// NVML probe and host facts. Runs anywhere: the tests that need NVML or a GPU skip, saying why,
// where there is none.

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <string>

#include "host_info.hpp"
#include "nvml_probe.hpp"

namespace sync_bench {
namespace {

bool nvml_loadable() {
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) return false;
  dlclose(lib);
  return true;
}

// The PCI bus id of CUDA device 0, or "" when there is no usable GPU.
std::string first_gpu_bus_id() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the error of a machine without a driver
    return "";
  }
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof(bus_id), 0) != cudaSuccess) return "";
  return bus_id;
}

TEST(ThrottleReasons, EmptyMaskIsNone) {
  EXPECT_EQ(describe_throttle_reasons(0), "none");
  EXPECT_FALSE(is_throttled(0));
}

TEST(ThrottleReasons, IdleAndApplicationClocksAreNotThrottling) {
  const unsigned long long mask = kClocksEventGpuIdle | kClocksEventApplicationsClocksSetting;
  EXPECT_EQ(describe_throttle_reasons(mask), "none");
  EXPECT_FALSE(is_throttled(mask));
}

TEST(ThrottleReasons, NamesLimitersInBitOrder) {
  EXPECT_EQ(describe_throttle_reasons(0x4 | 0x8), "sw_power_cap,hw_slowdown");
  EXPECT_EQ(describe_throttle_reasons(0x1 | 0x4), "sw_power_cap");  // idle bit dropped
  EXPECT_TRUE(is_throttled(0x1 | 0x4));
  EXPECT_EQ(describe_throttle_reasons(0x40), "hw_thermal_slowdown");
}

TEST(ThrottleReasons, AllKnownBits) {
  EXPECT_EQ(describe_throttle_reasons(0x1ff),
            "sw_power_cap,hw_slowdown,sync_boost,sw_thermal_slowdown,hw_thermal_slowdown,"
            "hw_power_brake_slowdown,display_clock_setting");
}

TEST(ThrottleReasons, UnknownBitsAreNamedAndCounted) {
  EXPECT_EQ(describe_throttle_reasons(1ULL << 40), "unknown_0x10000000000");
  EXPECT_TRUE(is_throttled(1ULL << 40));
  EXPECT_EQ(describe_throttle_reasons(0x200 | 0x20), "sw_thermal_slowdown,unknown_0x200");
}

TEST(ThrottleReasons, DescribeAgreesWithIsThrottled) {
  for (unsigned long long mask = 0; mask < 0x400; ++mask)
    EXPECT_EQ(describe_throttle_reasons(mask) == "none", !is_throttled(mask)) << mask;
}

TEST(CpuModel, ReadsFirstModelName) {
  std::istringstream text(
      "processor\t: 0\n"
      "vendor_id\t: GenuineIntel\n"
      "model name\t: Intel(R) Xeon(R) Platinum 8480+\n"
      "cpu MHz\t\t: 2000.000\n"
      "\n"
      "processor\t: 1\n"
      "model name\t: Something Else\n");
  EXPECT_EQ(cpu_model(text), "Intel(R) Xeon(R) Platinum 8480+");
}

TEST(CpuModel, TrimsBlanks) {
  std::istringstream text("model name  \t:   AMD EPYC 9654 96-Core Processor  \r\n");
  EXPECT_EQ(cpu_model(text), "AMD EPYC 9654 96-Core Processor");
}

TEST(CpuModel, UnknownWithoutModelName) {
  std::istringstream aarch64(
      "processor\t: 0\n"
      "BogoMIPS\t: 2000.00\n"
      "CPU implementer\t: 0x41\n"
      "CPU part\t: 0xd4f\n");
  EXPECT_EQ(cpu_model(aarch64), "unknown");
  std::istringstream empty("");
  EXPECT_EQ(cpu_model(empty), "unknown");
  std::istringstream blank_value("model name\t:   \n");
  EXPECT_EQ(cpu_model(blank_value), "unknown");
  std::istringstream other_key("model\t\t: 143\n");
  EXPECT_EQ(cpu_model(other_key), "unknown");
}

// The measured clock of the core: a plausible figure that a second measurement repeats. A chain
// the compiler had shortened, or a wrong cycle count, would read 2x or more off.
TEST(HostClock, PlausibleAndRepeatable) {
#if defined(__x86_64__)
  const auto first = host_clock_ghz();
  const auto second = host_clock_ghz();
  ASSERT_TRUE(first && second);
  EXPECT_GT(*first, 0.8);
  EXPECT_LT(*first, 6.5);
  EXPECT_NEAR(*second / *first, 1.0, 0.15);
#else
  EXPECT_FALSE(host_clock_ghz());  // a step's cycles are not known here
#endif
}

TEST(CpuModel, UnknownForMissingFile) {
  EXPECT_EQ(cpu_model(std::string("/nonexistent/cpuinfo")), "unknown");
}

TEST(CpuModel, ThisHostGivesSomething) {
  EXPECT_FALSE(cpu_model().empty());
}

TEST(NvmlDevice, OpenWithoutNvmlSaysWhy) {
  if (nvml_loadable()) GTEST_SKIP() << "libnvidia-ml.so.1 is present on this machine";
  std::string why;
  const auto device = NvmlDevice::open("0000:1A:00.0", &why);
  EXPECT_EQ(device, nullptr);
  EXPECT_NE(why.find("libnvidia-ml.so.1"), std::string::npos) << why;
  EXPECT_EQ(why.find('\n'), std::string::npos) << why;
}

TEST(NvmlDevice, NonsenseBusIdFailsCleanly) {
  std::string why;
  const auto device = NvmlDevice::open("not-a-bus-id", &why);
  EXPECT_EQ(device, nullptr);
  EXPECT_FALSE(why.empty());
  EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  if (!nvml_loadable()) GTEST_SKIP() << "no NVML here, so only the load failure was seen: " << why;
  EXPECT_NE(why.find("not-a-bus-id"), std::string::npos) << why;
}

TEST(NvmlDevice, NullWhyIsAllowed) {
  EXPECT_EQ(NvmlDevice::open("ffff:ff:1f.7", nullptr), nullptr);
}

// Needs NVML and a GPU: the real bus id format of CUDA, the queries and the fingerprint.
TEST(NvmlDevice, ReadsCudaDevice0) {
  const std::string bus_id = first_gpu_bus_id();
  if (bus_id.empty() || !nvml_loadable()) GTEST_SKIP() << "needs a GPU and libnvidia-ml.so.1";
  std::string why;
  const auto device = NvmlDevice::open(bus_id, &why);
  ASSERT_NE(device, nullptr) << why;
  ASSERT_TRUE(device->sm_clock_mhz().has_value());
  ASSERT_TRUE(device->memory_clock_mhz().has_value());
  ASSERT_TRUE(device->throttle_reasons().has_value());
  std::cout << "bus id " << bus_id << ": sm " << *device->sm_clock_mhz() << " MHz, memory "
            << *device->memory_clock_mhz() << " MHz, reasons 0x" << std::hex
            << *device->throttle_reasons() << std::dec << " ("
            << describe_throttle_reasons(*device->throttle_reasons()) << ")\n";

  const auto fields = device->fingerprint();
  std::string uuid, driver;
  for (const auto& [key, value] : fields) {
    std::cout << "  " << key << " = " << value << "\n";
    EXPECT_FALSE(value.empty()) << key;
    if (key == "gpu_uuid") uuid = value;
    if (key == "nvml_driver_version") driver = value;
  }
  EXPECT_EQ(uuid.rfind("GPU-", 0), 0u) << uuid;
  EXPECT_FALSE(driver.empty());
}

// nvmlInit/nvmlShutdown are reference counted: closing one handle leaves another working.
TEST(NvmlDevice, TwoHandlesCloseIndependently) {
  const std::string bus_id = first_gpu_bus_id();
  if (bus_id.empty() || !nvml_loadable()) GTEST_SKIP() << "needs a GPU and libnvidia-ml.so.1";
  std::string why;
  auto first = NvmlDevice::open(bus_id, &why);
  auto second = NvmlDevice::open(bus_id, &why);
  ASSERT_NE(first, nullptr) << why;
  ASSERT_NE(second, nullptr) << why;
  first.reset();
  EXPECT_TRUE(second->sm_clock_mhz().has_value());
  EXPECT_FALSE(second->fingerprint().empty());
}

}  // namespace
}  // namespace sync_bench
