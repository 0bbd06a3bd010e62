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
  compare BASE.json NEW.json changes between two runs, gated on what reproduces (paired
                             overheads, GPU-bound times) with the measured noise; exit 1 on a
                             regression
  merge --output=M RUN.json...
                             runs from separate processes as one run whose repetitions are the
                             processes
  timeline --output=F.svg TIMELINE.json
                             the first steps of each benchmark's anatomy trace (sync_bench
                             --anatomy_timeline=FILE) as one SVG on one time scale
  salvage --output=OUT.json IN.json
                             the complete benchmarks of a run cut short (sync_bench killed
                             mid-sweep), as a run every command reads

Run 'sync_summary COMMAND --help' for a command's flags.
exit status: 0 done, 1 regression (compare), 2 bad input or bad command line, 3 nothing to
salvage in a complete run (salvage).
)";

constexpr std::string_view kReport = R"(usage: sync_summary report [FLAGS] RUN.json [RUN.json...]

Per workload (family), dtype and backend, a table with one row per size: the Async baseline and,
for each pattern, its time per step and its overhead against Async in us and %. Benchmarks that
report bytes_per_second get bandwidth tables (GB/s); families with an Eager pattern (GraphReplay)
get each pattern's speed-up against Eager, the break-even (replays after which Capture, making the
graph, has paid for itself: Capture / (Eager - Replay)), and the size at which the speed-up
crosses 1. Errored and skipped benchmarks are listed with their reason. With repetitions a value
is the median, with its coefficient of variation (min and max in csv). Several runs are shown
side by side, one column per run, labelled by file name (or by context when file names collide).
Benchmarks with sync_bench's anatomy counters (gpu_active_us, ...) get a step anatomy table per
workload, dtype and backend: step, anatomy step, GPU active and idle, launch latency, host time in
API calls, blocked and other, and the bound (host, gpu, sync); for one run only (several runs:
none; csv: the counters and anatomy_bound, for every run).

flags:
  --format=console|markdown|csv  output format (default console; csv: one row per benchmark)
  --svg=DIR                      also write SVG charts to DIR: overhead % vs size per dtype,
                                 bandwidth vs size
  --filter=REGEX                 only benchmarks whose name, with or without Google
                                 Benchmark's suffixes (/manual_time), matches REGEX (ECMAScript,
                                 searched)
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
  --svg=DIR                      also write SVG charts to DIR, as report does: overhead %
                                 vs size per dtype, bandwidth vs size
  --filter=REGEX                 only benchmarks whose name matches REGEX
  --metric=NAME                  real_time (default), cpu_time, or a counter
  --labels=A,B,...               labels for the runs, one per file
  --help                         this text
)";

constexpr std::string_view kCompare = R"(usage: sync_summary compare [FLAGS] BASE.json NEW.json

Matches benchmarks by name (without Google Benchmark's suffixes) and time unit. By default
(--gate=reproducible) it gates only what reproduces from one process and one machine to the
next: a paired row (sync_bench measured it against its Async baseline) on its overhead,
overhead_us; a GPU-bound row (gpu_bound = 1 in every process of both runs) on its time.
Host-bound times are shown with their change but not gated: they move 10-40% between processes
with the host; so is a step host-bound in some processes only (a slower host took its pace).

A paired row's overhead is adjusted for the host speed of each process (--host-adjust): a
process whose host ran slow has a slower Async baseline and a longer overhead, so each
repetition's overhead is moved to BASE's median baseline along the slope of overhead on
baseline within each run (Theil-Sen, clamped to [0, 3]); this assumes the change under test
leaves the Async baseline alone. Where the baseline is GPU-bound its spread is the GPU's clock,
not the host, and the slope is fitted on the host's time to submit each Async step
(baseline_host_us) instead; without that counter on both sides the overheads stay raw. The
slope's error is added to the row's limit: half the range the adjusted change covers as the
slope runs over its 95% interval (where the two runs' processes spread alike, that half width
times how far NEW's median baseline is from BASE's; more or less where they do not); and 1 us
per us of the stretch between the two medians that fewer than two processes of either run
reached (a host that switches between two speeds moves the overhead in a step that no run on one
speed sees). Where the overhead falls as the host slows (a wait the host's speed sets: Kendall's
z under -2.576 within the runs) it is not gated between two GPUs.
A row whose BASE cannot resolve a change below --max-noise % of its step (--noise-k x the noise
of two runs as noisy as BASE) is shown, not gated, and so is one whose BASE processes fall in
two groups further apart than a change. On a GPU-bound time whose host takes a quarter of the
step or more, the GPU's idle time per step (real_time - gpu_busy_us) is the host's part of it and
moves between processes as host-bound times do: 40% of BASE's is added to the limit.

Machines of one kind differ by more than the processes of one machine do: when BASE and NEW ran
on different GPUs (their gpu_uuid differ, or one is unknown) the threshold is at least
--machine-threshold, plus, on such a GPU-bound time, all of BASE's GPU idle per step (the host
paces it), unless the step syncs (its idle is where a host cost shows). A BASE merged from runs
on 5 GPUs or more (sync_summary merge, 3+ processes a GPU) measures that instead, row by row:
one more machine's median is expected within the prediction interval of its GPUs' medians
(Student's t at 0.001, two-sided), and the threshold is that, and at least --threshold; a row
that moves a lot between machines is gated with that wider limit, which its line shows. Where
BASE ran on 2+ GPUs and NEW's host-bound times lie beyond all of its machines (slower or faster,
on over half of those rows, by over 5% in the median row), compare warns: the spread BASE
measured did not include a host like NEW's. Machines also differ in what a wait after a long GPU
step costs, whatever the GPU ran (--wait-adjust): between two GPUs, a paired sync after an Async
step of 150 us or more (BigGemm's) whose change SpinKernel's same sync after 1 ms (its wait
reference, SpinKernel/PATTERN/us:1000, gated, moving the same way by half the change or more)
made too, within the row's limit, is not counted as a change, and its gate says so. What that
gives up, between two GPUs: a change that lengthens only the waits after long steps, or one to
the row alone when the long waits moved as far. On one GPU, with --metric and with --gate=all,
every change counts.

A row changed when |new - base| of the medians exceeds the largest of: --threshold % of the base
step time, --min-effect-us (times and overheads), and --noise-k x the noise: the standard error
of the difference of the two medians, each 1.253 sigma / sqrt(repetitions) with sigma the
run's between-repetition robust sigma (1.4826 MAD). With 2+ repetitions a side a two-sided
Mann-Whitney U test must also find it significant at --alpha (scipy's mannwhitneyu, method
'auto', as Google Benchmark's compare.py). Repetitions should be processes: run sync_bench K
times and `sync_summary merge` them (scripts/ci_regress.sh does). With one repetition a side no
test runs; a paired row's noise is then the spread of its own rounds; with too few for any U
test to reach --alpha (3 against 3 gives p = 0.10 at best) none runs either, and the limit
decides alone. A benchmark that fails in NEW but not in BASE (or in every process of NEW, where
BASE's failed in some) is a regression, and so is one of BASE's that NEW did not run or that
lacks the value BASE's row is gated on: what BASE gates, NEW must measure (--filter compares a
subset). A row GPU-bound in every process of BASE and host-bound in most of NEW's is not gated
(slow hosts do that alone) but is flagged with a warning: a slower host path does it too. Runs
from different GPUs, drivers, CPUs, wait modes or MultiGpu --devices are compared with a warning,
and runs measured by different sync_bench sources (both named) with a note.

flags:
  --gate=reproducible|all        what is gated (default reproducible; all: every row on --metric)
  --threshold=PCT                a change is more than PCT % of the base step (default 2)
  --machine-threshold=PCT        at least PCT % between different GPUs (default 5)
  --min-effect-us=US             and more than US microseconds (default 0.5)
  --noise-k=K                    and more than K standard errors (default 3)
  --alpha=A                      significance level of the U test (default 0.05)
  --max-noise=PCT                not gated when the smallest change BASE can resolve is over
                                 PCT % of the step (default 5; --gate=reproducible only)
  --host-adjust=on|off           adjust paired overheads for each process's host speed
                                 (default on; needs 3+ repetitions a side)
  --wait-adjust=on|off           between two GPUs, set aside a long step's sync change that its
                                 wait reference made too (default on)
  --format=console|markdown|csv  output format (default console)
  --filter=REGEX                 only benchmarks whose name matches REGEX
  --metric=NAME                  gate every row on NAME: real_time, cpu_time, or a counter (for
                                 rates such as bytes_per_second a drop is the regression)
  --help                         this text

exit status: 0 no regression, 1 at least one regression (or a newly failing or missing
benchmark), 2 bad input: nothing compared, nothing gated, every compared benchmark failing in NEW
(a broken run), an unknown metric, a time or a counter the gate reads that is not a finite
number, or a bad command line.
)";

constexpr std::string_view kMerge =
    R"(usage: sync_summary merge --output=MERGED.json [--filter=REGEX] RUN1.json RUN2.json ...

Merges runs of the same benchmarks, one per sync_bench process (scripts/processes.sh), into one
Google Benchmark JSON whose repetitions are the processes: one row per run and repetition, then
mean, median, stddev and cv aggregates, as Google Benchmark writes them for
--benchmark_repetitions (its tools/compare.py reads the file). A run that already has
repetitions adds each of them. The context is the first run's, with merged_runs (the processes
it holds: a run merged before counts as its own merged_runs) and repetitions_are = processes; the
message on stderr says how many GPUs the repetitions name. Each repetition's row names the GPU it ran on (gpu_uuid), so that
runs from several machines of one model merge into a baseline that measures how much machines
differ (compare --help); the merged context then names no gpu_uuid. Runs of several builds merge
too, and the merged context then names no sync_bench_version or sync_bench_source, whichever
differs. Refused (exit 2): runs from
different GPU models, drivers, CPUs, wait modes, accounting settings or MultiGpu --devices (a
run made with --devices against one without, too), with different sets of benchmarks, or one
run given twice (the same file, a link or a copy, byte for byte: its processes would count
twice; runs that measured nothing, every row failed, may be alike), or a run merged before
beside a run it holds, or beside another merged run that holds one of its processes (a
process's rows alike in every benchmark).

  --filter=REGEX   merge only the benchmarks whose name, with or without Google Benchmark's
                   suffixes (/manual_time), REGEX finds (ECMAScript)

exit status: 0 written, 2 bad input or bad command line.
)";

constexpr std::string_view kTimeline =
    R"(usage: sync_summary timeline --output=FILE.svg [FLAGS] TIMELINE.json

Draws the timeline file of sync_bench --anatomy_timeline=TIMELINE.json: for each benchmark, the
first steps of its anatomy pass as a block with a host lane (API calls; blocking ones red) and a
GPU lane (kernels green, copies orange, memsets grey), dashed lines at step starts. Every block
is drawn on one common time axis (the same us per pixel), so patterns compare at a glance.
Hovering a bar shows its name. At most 12 benchmarks are drawn: choose them with --filter.

flags:
  --output=FILE.svg              the SVG to write (required)
  --filter=REGEX                 only benchmarks whose name matches REGEX (ECMAScript, searched)
  --steps=N                      steps drawn per benchmark (default 3)
  --help                         this text

exit status: 0 written, 2 bad input (missing or malformed file, not a timeline file, an event
that ends before it starts, a number that is not finite, no benchmark matching, more than 12) or
bad command line.
)";

constexpr std::string_view kSalvage =
    R"(usage: sync_summary salvage --output=OUT.json IN.json

A sync_bench killed mid-sweep (a timeout, SIGKILL) leaves Google Benchmark JSON that stops: its
context, the benchmarks written so far, the last one often cut in the middle, and no closing
brackets. Every other command refuses it (malformed JSON). salvage writes OUT.json: the context
and every complete benchmark of IN, byte for byte as Google Benchmark wrote them, then the
brackets that close them; the partial one is dropped. It says on stderr how many it kept and the
last one's name. OUT.json is read by report, dtypes, compare and merge as any run.

flags:
  --output=OUT.json              the file to write (required; may be IN.json itself)
  --help                         this text

exit status: 0 written; 3 IN is a complete run, nothing to salvage (so a script may call salvage
whenever a run failed, and keep IN as it is on 3); 2 bad command line, or nothing to salvage
otherwise: IN is empty, is malformed before its end, is not Google Benchmark JSON, has no complete
context or no complete benchmark, or its complete benchmarks are refused as report refuses them.
Nothing is written on 2 or 3.
)";

}  // namespace

std::string_view help_text(std::string_view command) {
  if (command == "report") return kReport;
  if (command == "dtypes") return kDtypes;
  if (command == "compare") return kCompare;
  if (command == "merge") return kMerge;
  if (command == "timeline") return kTimeline;
  if (command == "salvage") return kSalvage;
  return kOverview;
}

}  // namespace sync_summary
