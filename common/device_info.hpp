#pragma once
// What a run was measured on: the facts that go into the JSON context, so that two runs can be
// told apart and compared.

#include <string>
#include <utility>
#include <vector>

namespace sync_bench {

using ContextFields = std::vector<std::pair<std::string, std::string>>;

// Host wait modes (the cudaDeviceSchedule* flags cudaInitDevice takes), by the names the
// --sync_mode flag uses.
enum class WaitMode { automatic, spin, yield, blocking };
bool parse_wait_mode(const std::string& text, WaitMode* out);
unsigned wait_mode_flag(WaitMode mode);  // cudaDeviceScheduleAuto, ...
std::string current_wait_mode();         // read back from the current device's flags

// GPU, driver, runtime and library facts of `device`, which must be the current device (its wait
// mode is read from the current one); throws std::invalid_argument otherwise.
ContextFields device_context(int device);

class NvmlDevice;
// SM and memory clocks and throttle reasons now, as sm_clock_mhz<suffix>, ...
ContextFields clock_state(const NvmlDevice& nvml, const std::string& suffix);

}  // namespace sync_bench
