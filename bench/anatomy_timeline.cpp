#include "anatomy_timeline.hpp"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>

#include <nlohmann/json.hpp>

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

AnatomyTimeline::AnatomyTimeline(std::string path, ContextFields context)
    : path_(std::move(path)), context_(std::move(context)) {}

void AnatomyTimeline::add(const std::string& benchmark, const AnatomyTrace& trace) {
  entries_.push_back(timeline_json(benchmark, trace));
}

bool AnatomyTimeline::write(std::string* error) const {
  nlohmann::json context = {{"date", utc_now()}};
  for (const auto& [key, value] : context_) context[key] = value;
  std::ofstream out(path_);
  out << "{\"sync_bench_timeline\": 1,\n\"context\": " << context.dump() << ",\n\"benchmarks\": [";
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
