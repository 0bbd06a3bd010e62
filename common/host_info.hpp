#pragma once
// Facts about the host CPU for the run's context.

#include <iosfwd>
#include <optional>
#include <string>

namespace sync_bench {

// The first "model name" of a /proc/cpuinfo text, or "unknown" when there is none (as on most
// aarch64 kernels, which list CPU implementer/part numbers instead).
std::string cpu_model(std::istream& cpuinfo);
std::string cpu_model(const std::string& cpuinfo_path = "/proc/cpuinfo");

// The clock the calling thread's core runs at, in GHz, measured: the fastest of a few timings of
// a chain of dependent 64-bit multiply-adds, 4 cycles a step (imul 3 + add 1, on Intel's cores
// since Nehalem and AMD's since Zen). nullopt off x86-64, where a step's cycles are not known.
// Why measure it: on a VM, /proc/cpuinfo's "model name" and Google Benchmark's mhz_per_cpu say
// nothing of the core's real clock. Every H200 VM reported 2100 MHz and "Intel(R) Xeon(R)
// Processor" while its cores ran at 2.31-2.97 GHz; between machines its launches took 3.3-4.5
// us in step with that clock (results/h200/host_cause/, host_clock/). Takes about 10 ms.
std::optional<double> host_clock_ghz();

}  // namespace sync_bench
