#pragma once
// What a run says about the machine it ran on: header lines, run labels, and the context
// differences that make two runs hard to compare.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchmarks.hpp"
#include "document.hpp"

namespace sync_summary {

// A context field, "?" when the run does not have it.
std::string context_or_unknown(const Run& run, std::string_view key);
// A CUDA version integer (13000) as "13.0 (13000)"; other text as it is; "?" when missing.
std::string cuda_version_text(std::string_view raw);
// cublasLtGetVersion's integer (130100: major * 10000 + minor * 100 + patch) as "13.1.0 (130100)";
// other text as it is; "?" when missing.
std::string cublas_version_text(std::string_view raw);
std::string gpu_text(const Run& run);  // "NVIDIA H100 (cc 9.0, 132 SMs, 79.1 GiB)"
// The sync_bench that measured the run: "0.1.0 (source 0123456789abcdef, scripts/source_hash.sh)",
// the version alone for a run from before the source fingerprint, "?" before the version.
std::string sync_bench_text(const Run& run);

std::vector<std::string> run_header_lines(const RunData& data);
Table runs_table(const std::vector<RunData>& runs);

// Labels from the file names; where names collide, from the first context field that tells the
// runs apart (wait mode, GPU, driver, date); explicit labels win when given (one per run).
void assign_labels(std::vector<RunData>& runs, const std::vector<std::string>& explicit_labels);

// "gpu_name: 'A' vs 'B'" for each machine field (GPU, compute capability, driver, runtime,
// wait mode, CPU model) that differs between the runs; and host_clock_ghz where the clocks lie
// over kHostClocksApart apart (not when one run does not say: runs from before it was measured).
std::vector<std::string> context_differences(const Run& a, const Run& b);

// The host core's measured clock (sync_bench's host_clock_ghz): "2.97" from one process,
// "2.86-2.97" from a merge of several. nullopt for any other text.
struct ClockRange {
  double low = 0, high = 0;
};
std::optional<ClockRange> parse_clock_range(std::string_view text);
std::string clock_range_text(const ClockRange& range);  // "2.97", or "2.86-2.97"

// The processes of one H200 VM ran their cores up to 12% apart (2.31-2.58 GHz), machines up to
// 29% (2.31 against 2.97; results/h200/host_cause/ and host_clock/): past 15%, the runs come from
// hosts whose host-bound times differ, not from the spread of one machine.
constexpr double kHostClocksApart = 0.15;

// How a metric is described in titles: "time per step (us)", "host_us per step".
std::string metric_title(const std::string& metric);

}  // namespace sync_summary
