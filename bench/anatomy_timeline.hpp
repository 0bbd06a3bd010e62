#pragma once
// The timeline file of --anatomy_timeline=FILE: every benchmark's anatomy trace (host calls and
// GPU activities of a few steps), which `sync_summary timeline` draws. Format: anatomy.hpp's
// timeline_json per benchmark, in {"sync_bench_timeline": 1, "context": {...}, "benchmarks": []}.

#include <memory>
#include <string>
#include <vector>

#include "anatomy.hpp"
#include "device_info.hpp"

namespace sync_bench {

class AnatomyTimeline {
 public:
  // context: the run's device facts (gpu_name among them), copied into the file.
  AnatomyTimeline(std::string path, ContextFields context);
  void add(const std::string& benchmark, const AnatomyTrace& trace);
  // Writes the file; false with *error when it cannot be written.
  bool write(std::string* error) const;

 private:
  std::string path_;
  ContextFields context_;
  std::vector<std::string> entries_;
};

// The process-wide timeline main() set up; nullptr without --anatomy_timeline.
AnatomyTimeline* anatomy_timeline();
void set_anatomy_timeline(std::unique_ptr<AnatomyTimeline> timeline);

}  // namespace sync_bench
