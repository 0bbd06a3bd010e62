#pragma once
// `sync_summary timeline`: the first steps of each benchmark's anatomy trace as one SVG, one
// block per benchmark (a host lane of API calls, a GPU lane of kernels, copies and memsets,
// dashed lines at step starts), every block on one common time axis: the same us per pixel, so
// that patterns can be compared at a glance.

#include <cstddef>
#include <string>
#include <vector>

#include "timeline.hpp"

namespace sync_summary {

// At most this many benchmarks are drawn in one SVG.
inline constexpr std::size_t kMaxTimelineBenches = 12;

// Draws [step_starts_us[0], step_starts_us[steps]) of each benchmark (to its window's end when
// it has no more steps). Deterministic text. Every drawn event is one <rect class="event">.
std::string render_timeline_svg(const std::vector<const TimelineBench*>& benches, std::size_t steps,
                                const std::string& gpu_name);

}  // namespace sync_summary
