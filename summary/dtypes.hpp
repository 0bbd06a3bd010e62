#pragma once
// `sync_summary dtypes`: one pattern's numbers across dtypes side by side (fp16 vs bf16 vs fp32
// vs tf32): per size, each dtype's time and its overhead % against Async of the same dtype
// (paired where sync_bench measured it: overhead_of in report.hpp).

#include <vector>

#include "benchmarks.hpp"
#include "document.hpp"
#include "report.hpp"

namespace sync_summary {

Document build_dtypes(const std::vector<RunData>& runs, const ReportOptions& options);

}  // namespace sync_summary
