#include "host_info.hpp"

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

}  // namespace sync_bench
