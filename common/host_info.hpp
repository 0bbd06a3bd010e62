#pragma once
// Facts about the host CPU for the run's context.

#include <iosfwd>
#include <string>

namespace sync_bench {

// The first "model name" of a /proc/cpuinfo text, or "unknown" when there is none (as on most
// aarch64 kernels, which list CPU implementer/part numbers instead).
std::string cpu_model(std::istream& cpuinfo);
std::string cpu_model(const std::string& cpuinfo_path = "/proc/cpuinfo");

}  // namespace sync_bench
