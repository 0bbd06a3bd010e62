#include "anatomy_timeline.hpp"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>

namespace sync_bench {
namespace {

std::unique_ptr<AnatomyTimeline> g_timeline;

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%S+00:00", &tm);
  return text;
}

}  // namespace

AnatomyTimeline::AnatomyTimeline(std::string path, std::string gpu_name)
    : path_(std::move(path)), gpu_name_(std::move(gpu_name)) {}

void AnatomyTimeline::add(const std::string& benchmark, const AnatomyTrace& trace) {
  entries_.push_back(timeline_json(benchmark, trace));
}

bool AnatomyTimeline::write(std::string* error) const {
  std::ofstream out(path_);
  // The GPU name comes from the driver: printable ASCII, but escape quotes all the same.
  std::string gpu;
  for (const char c : gpu_name_)
    gpu += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  out << "{\"sync_bench_timeline\": 1,\n\"context\": {\"gpu_name\": \"" << gpu << "\", \"date\": \""
      << utc_now() << "\"},\n\"benchmarks\": [";
  for (std::size_t i = 0; i < entries_.size(); ++i) out << (i ? ",\n" : "\n") << entries_[i];
  out << "\n]}\n";
  out.close();
  if (!out) {
    *error = "cannot write " + path_ + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

AnatomyTimeline* anatomy_timeline() {
  return g_timeline.get();
}
void set_anatomy_timeline(std::unique_ptr<AnatomyTimeline> timeline) {
  g_timeline = std::move(timeline);
}

}  // namespace sync_bench
