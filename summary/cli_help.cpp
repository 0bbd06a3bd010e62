#include "cli_help.hpp"

namespace sync_summary {
namespace {

constexpr std::string_view kOverview = R"(usage: sync_summary COMMAND [FLAGS] RUN.json...

Summarizes the Google Benchmark JSON that sync_bench writes
(--benchmark_out=RUN.json --benchmark_out_format=json; Google Benchmark 1.7.1 or 1.8.3).

commands:
  report RUN.json...         tables of time per step and overhead against Async, per workload,
                             dtype and backend; bandwidth for copies; speed-up for graphs;
                             several runs side by side
  dtypes RUN.json...         one pattern across dtypes side by side (overhead % per size)
  compare BASE.json NEW.json changes between two runs, U test on repetitions, exit 1 on a
                             regression

Run 'sync_summary COMMAND --help' for a command's flags.
exit status: 0 done, 1 regression (compare), 2 bad input or bad command line.
)";

constexpr std::string_view kReport = R"(usage: sync_summary report [FLAGS] RUN.json [RUN.json...]

Per workload (family), dtype and backend, a table with one row per size: the Async baseline and,
for each pattern, its time per step and its overhead against Async in us and %. Benchmarks that
report bytes_per_second get bandwidth tables (GB/s); families with an Eager pattern (GraphReplay)
get each pattern's speed-up against Eager, the break-even (replays after which Capture, making the
graph, has paid for itself: Capture / (Eager - Replay)), and the size at which the speed-up
crosses 1. Errored and skipped benchmarks are listed with their reason. With repetitions a value is the median, with its coefficient of
variation (min and max in csv). Several runs are shown side by side, one column per run,
labelled by file name (or by context when file names collide).

flags:
  --format=console|markdown|csv  output format (default console; csv: one row per benchmark)
  --svg=DIR                      also write SVG charts to DIR: overhead % vs size per dtype,
                                 bandwidth vs size
  --filter=REGEX                 only benchmarks whose name (without Google Benchmark's
                                 suffixes) matches REGEX (ECMAScript, searched)
  --metric=NAME                  real_time (default: GPU time per step), cpu_time, or a counter
                                 such as host_us
  --labels=A,B,...               column labels for the runs, one per file
  --help                         this text
)";

constexpr std::string_view kDtypes = R"(usage: sync_summary dtypes [FLAGS] RUN.json [RUN.json...]

For each family, backend and pattern, the dtypes side by side (fp16, bf16, fp32, tf32, fp8):
one row per size, each dtype's time per step and its overhead % against Async of that dtype.

flags:
  --format=console|markdown|csv  output format (default console)
  --svg=DIR                      also write SVG charts to DIR (overhead % vs size per dtype)
  --filter=REGEX                 only benchmarks whose name matches REGEX
  --metric=NAME                  real_time (default), cpu_time, or a counter
  --labels=A,B,...               labels for the runs, one per file
  --help                         this text
)";

constexpr std::string_view kCompare = R"(usage: sync_summary compare [FLAGS] BASE.json NEW.json

Matches benchmarks by name (without Google Benchmark's suffixes) and time unit, and gives the
change of the median, (new - old) / |old|. With at least 2 repetitions on each side (run
sync_bench with --benchmark_repetitions=N), a two-sided Mann-Whitney U test on the repetitions
decides whether the change is significant, as Google Benchmark's compare.py does (scipy's
mannwhitneyu, method 'auto': exact p-value when a side has at most 8 repetitions and no ties,
else the normal approximation with tie and continuity corrections). A regression is a change
above the threshold that is significant at alpha; without repetitions, a change above the
threshold. Runs from different GPUs, drivers or wait modes are compared with a warning.
Benchmarks only in one run, or failed in one, are listed.

flags:
  --threshold=PCT                a regression must be slower by more than PCT % (default 5)
  --alpha=A                      significance level of the U test (default 0.05)
  --format=console|markdown|csv  output format (default console)
  --filter=REGEX                 only benchmarks whose name matches REGEX
  --metric=NAME                  real_time (default), cpu_time, or a counter (for rates such as
                                 bytes_per_second a drop is the regression)
  --help                         this text

exit status: 0 no regression, 1 at least one regression, 2 bad input or bad command line.
)";

}  // namespace

std::string_view help_text(std::string_view command) {
  if (command == "report") return kReport;
  if (command == "dtypes") return kDtypes;
  if (command == "compare") return kCompare;
  return kOverview;
}

}  // namespace sync_summary
