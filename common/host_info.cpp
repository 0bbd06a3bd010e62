#include "host_info.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <istream>

namespace sync_bench {
namespace {

std::string trim(const std::string& text) {
  const char* blank = " \t\r";
  const auto first = text.find_first_not_of(blank);
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(blank) - first + 1);
}

}  // namespace

std::string cpu_model(std::istream& cpuinfo) {
  // Lines look like "model name\t: AMD EPYC 9654 96-Core Processor".
  std::string line;
  while (std::getline(cpuinfo, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos || trim(line.substr(0, colon)) != "model name") continue;
    std::string model = trim(line.substr(colon + 1));
    if (!model.empty()) return model;
  }
  return "unknown";
}

std::string cpu_model(const std::string& cpuinfo_path) {
  std::ifstream file(cpuinfo_path);
  if (!file) return "unknown";
  return cpu_model(file);
}

std::optional<double> host_clock_ghz() {
#if defined(__x86_64__)
  // Written in assembly so that no compiler can shorten the chain (two steps of an LCG fold into
  // one multiply-add); the loop's own counter runs beside the chain, not in it.
  constexpr int kStepsPerLoop = 8, kLoops = 1 << 17, kTimings = 7;
  constexpr double kCyclesPerStep = 4;
  const std::uint64_t a = 6364136223846793005ull, b = 1442695040888963407ull;
  std::uint64_t x = 1;
  double fastest_s = 0;
  for (int timing = 0; timing < kTimings; ++timing) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kLoops; ++i) {
      asm volatile(
          "imul %[a], %[x]\n\tadd %[b], %[x]\n\t"
          "imul %[a], %[x]\n\tadd %[b], %[x]\n\t"
          "imul %[a], %[x]\n\tadd %[b], %[x]\n\t"
          "imul %[a], %[x]\n\tadd %[b], %[x]\n\t"
          "imul %[a], %[x]\n\tadd %[b], %[x]\n\t"
          "imul %[a], %[x]\n\tadd %[b], %[x]\n\t"
          "imul %[a], %[x]\n\tadd %[b], %[x]\n\t"
          "imul %[a], %[x]\n\tadd %[b], %[x]"
          : [x] "+r"(x)
          : [a] "r"(a), [b] "r"(b)
          : "cc");
    }
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // The fastest timing is the one that no interrupt, migration or clock ramp-up lengthened.
    fastest_s = timing == 0 ? s : std::min(fastest_s, s);
  }
  if (!(fastest_s > 0)) return std::nullopt;
  return kCyclesPerStep * kStepsPerLoop * kLoops / fastest_s * 1e-9;
#else
  return std::nullopt;
#endif
}

}  // namespace sync_bench
