#include "end_state_reporter.hpp"

#include <ostream>
#include <string>

#include "bench_context.hpp"

namespace sync_bench {
namespace {

std::string json_escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;  // no control characters in our values
    out += c;
  }
  return out;
}

}  // namespace

void EndStateJsonReporter::Finalize() {
  // Replaces JSONReporter::Finalize, which only closes the list and the top-level object.
  std::ostream& out = GetOutputStream();
  out << "\n  ],\n  \"context_end\": {";
  const ContextFields fields = end_state_();
  for (std::size_t i = 0; i < fields.size(); ++i)
    out << (i ? ",\n" : "\n") << "    \"" << json_escaped(fields[i].first) << "\": \""
        << json_escaped(fields[i].second) << "\"";
  out << "\n  }\n}\n";
  out.flush();
  complete_ = static_cast<bool>(out);
}

ContextFields gpu_end_state() {
  const NvmlDevice* nvml = bench_context().nvml();
  return nvml ? clock_state(*nvml, "_end") : ContextFields{};
}

}  // namespace sync_bench
