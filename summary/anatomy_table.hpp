#pragma once
// The step anatomy of sync_bench's CUPTI pass (counters anatomy_step_us, gpu_active_us, ...,
// bound): where each benchmark's step goes, one table per (family, dtype, backend) for the
// benchmarks that carry the counters.

#include <string>
#include <string_view>

#include "document.hpp"
#include "layout.hpp"

namespace sync_summary {

// The counter whose presence marks a benchmark as having an anatomy.
inline constexpr std::string_view kAnatomyMarker = "gpu_active_us";

// What the columns mean, for the report's header.
extern const char* const kAnatomyHowTo;

// The `bound` counter as text: 0 host, 1 gpu, 2 sync; "mixed" for any other value (the median
// of an even number of repetitions that disagree), "-" for none.
std::string bound_text(double code);

// The anatomy table of run `run` of the group: one row per benchmark with the counters (args,
// pattern, medians); no rows when none has them.
Table anatomy_table(const Group& g, std::size_t run);

}  // namespace sync_summary
