#pragma once
// `sync_summary compare BASE NEW`: benchmarks matched by identity and time unit; change =
// (new - old) / |old| of the medians (old == 0 guarded as report.py does); with at least two
// repetitions on each side, a two-sided Mann-Whitney U test on the repetitions. A regression is a
// change beyond the threshold that is also significant at alpha (threshold alone without
// repetitions).

#include <string>
#include <utility>
#include <vector>

#include "benchmarks.hpp"
#include "document.hpp"
#include "mann_whitney.hpp"

namespace sync_summary {

// What is gated. reproducible: a paired row on its overhead (overhead_us), a GPU-bound row
// (gpu_bound = 1 in every process of both runs) on its time, nothing else (a host-bound time moves
// 10-40% from one process to the next with the host); all: every row on --metric, as compare.py
// does.
enum class Gate { reproducible, all };

struct CompareOptions {
  std::string metric = std::string(kRealTime);
  bool metric_given = false;  // --metric named explicitly: every row is gated on it
  Gate gate = Gate::reproducible;
  double threshold_pct = 2.0;  // a regression moves by more than this % of the base step time
  double alpha = 0.05;
  double min_effect_us = 0.5;  // and by more than this, for times and overheads
  double noise_k = 3.0;  // and by more than noise_k standard errors of the difference of medians
  // Paired rows: judge each process's overhead as if its host ran at the base run's speed
  // (compare.cpp, adjust_for_host).
  bool host_adjust = true;
  // Between two machines, a change to a sync after a long GPU step that SpinKernel's same sync
  // after 1 ms made too is what such a wait cost there, not a change (compare.cpp,
  // explain_by_machine_wait).
  bool wait_adjust = true;
  // --gate=reproducible: a row whose BASE cannot resolve a change below this % of its step
  // (noise_k x the noise of two runs as noisy as BASE) is not gated: it would flag its noise.
  double max_noise_pct = 5.0;
  // BASE and NEW from different GPUs (their gpu_uuid differ, or one is unknown): the threshold is
  // at least this. Machines of one kind differ by more than one machine's processes do (the GPU's
  // silicon and power, the host's memory path): see docs/ci_gate.md for the runs. A row
  // whose BASE ran on kMinMachines GPUs or more uses what they measured instead (machine_limit).
  double machine_threshold_pct = 5.0;
};

// sync_bench's rule for a GPU-bound step (gpu_bound, common/anatomy.hpp's kGpuBoundShare): the
// GPU is busy with the step's work for at least this share of it.
inline constexpr double kGpuBoundShare = 0.8;

// A GPU-bound step whose host takes at least this share of it to submit it: the gaps in the GPU's
// work are the host's (compare.cpp, gpu_idle_per_step).
inline constexpr double kHostPacedShare = 0.25;

// On one GPU, the share of such a step's GPU idle time (the host's part) that the limit takes on
// as well: the host's part moves between processes as a host-bound time does, 10-40% (compare
// --help, issue 8's runs). MultiStream/LegacyMemcpy/blocking_stream, 218 us a step with the GPU
// idle 15 us of it, ran at 217.5-218.3 us in every process of one H100 call and 222-226 us in 7 of
// 10 of the next call's: its medians 2.2% apart, over the flat 2% (results/h100/acceptance8/).
inline constexpr double kHostPacedProcessShare = 0.4;

// A GPU-bound step of graph nodes that keep the GPU busy less than this each (empty kernels): its
// time is the rate at which the GPU launches them, and that differs between machines of one kind
// more than work does. Over 31 H200s, GraphReplay's 10 and 100 null kernels were busy 7.70-8.20 and
// 64.7-69.1 us a step (6.5% and 6.8% apart); the gate set's other GPU-bound rows, 3.3% at most
// (results/h200/gate_pool/). Between two single machines such a row is judged with
// kLaunchRateMachinePct instead of --machine-threshold, when that is lower.
inline constexpr double kLaunchRateNodeUs = 2.0;
inline constexpr double kLaunchRateMachinePct = 10.0;

// The most of a change in a process's Async baseline that its overhead is taken to follow.
inline constexpr double kMaxHostSlope = 3.0;
// The host slope's interval: two-sided 95%.
inline constexpr double kHostSlopeZ = 1.96;
// Between the two runs' median host speeds, a stretch that fewer than kHostReach processes of
// either run reached is one the slope was not fitted on (Theil-Sen is built so that one process
// does not steer it): over that stretch the overhead may follow the host by up to this much more
// or less than the slope says, and the limit widens by it. Two calls on one H100 whose hosts ran
// at two speeds, all of one call's processes fast and 9 of 10 of the other's slow, read
// SmallGemm/BulkRead/pinned +1.70 us against a limit of 1.47 and SpinKernel/ScalarRead/pinned
// after 10 us +1.49 against 1.25 (results/h100/acceptance3/). Fitted across calls on one GPU, the
// slope exceeded the slope within calls by 0.70 us/us at most over 12 H100 calls and 0.61 over
// 71 H200 calls (results/h100/unreached_host/).
inline constexpr double kUnreachedHostSlope = 1.0;
inline constexpr std::size_t kHostReach = 2;

// A paired overhead that falls as the host slows (within_group_kendall_z below -kHostRaceZ: one-
// sided p < 0.005) is a wait that the host's speed sets: the later the host reaches the sync, the
// less of the GPU's work is left. TrainLoop/ItemEveryStep on the H200s: 8-10 us on a slow host,
// 14-16 on a fast one (results/h200/item_every_step/). Between two machines it is not gated.
inline constexpr double kHostRaceZ = 2.576;

// A BASE merged from runs on several GPUs measures how much machines differ, row by row: from
// kMinMachines GPUs with kMinMachineRepetitions processes each, one more machine's median is
// expected within a prediction interval of their medians, at two-sided kMachineAlpha (machine
// medians are few and not quite normal: a wide interval, for a gate without false alarms). Fewer
// GPUs say too little about the next one (Student's t of 3 degrees of freedom is 12.9 at 0.001):
// the flat --machine-threshold then.
inline constexpr std::size_t kMinMachines = 5;
inline constexpr std::size_t kMinMachineRepetitions = 3;
inline constexpr double kMachineAlpha = 0.001;

enum class Verdict { regression, improvement, unchanged, not_significant, not_gated };

struct Comparison {
  std::string identity;
  std::string metric;  // what this row is judged on
  std::string gate;    // why it is gated or not
  bool gated = true;
  Summary base, next;
  double change = 0.0;  // (new - old) / |old|, a fraction
  double delta = 0.0;   // new - old, in the metric's unit
  double noise = kNaN;  // standard error of new - old medians, in the metric's unit
  double limit = 0.0;   // |delta| beyond this is a change
  // The smallest change BASE can resolve: noise_k x the noise of two runs as noisy as BASE.
  double resolution = kNaN;
  // Host-adjusted paired rows: us of overhead per us of Async baseline, and the change before
  // the adjustment; NaN when the row was not adjusted (then delta is the raw change).
  double host_slope = kNaN;
  double raw_delta = kNaN;
  // And what the slope's error can move the change by, added to the limit: half the range the
  // adjusted change covers as the slope runs over its interval (within_group_slope_interval at
  // kHostSlopeZ, clamped as the slope is); plus kUnreachedHostSlope times host_unreached.
  double host_slope_error = kNaN;
  // How far apart the two runs' hosts ran where neither reached (unreached_distance at
  // kHostReach), in us of the regressor; NaN when the row was not adjusted.
  double host_unreached = kNaN;
  // BASE's GPUs with kMinMachineRepetitions repetitions of this row or more, and, when BASE and
  // NEW are not one GPU and there are kMinMachines of them, how far one more machine's median may
  // land from BASE's (the prediction interval; NaN else): the limit is at least this, and at
  // least --threshold, instead of --machine-threshold.
  std::size_t machines = 0;
  double machine_limit = kNaN;
  // A GPU-bound time whose host paces its gaps, judged with a flat threshold: BASE's GPU idle
  // time per step (real_time - gpu_busy_us), added to the limit: on one GPU kHostPacedProcessShare
  // of it, between two machines all of it unless the step syncs (0 else). The threshold is for the
  // GPU's work; the gaps between it are the host's, and a slower host, or a slower process,
  // lengthens them.
  double host_paced_us = 0.0;
  // What sets the pace of BASE's step: "sync" (it blocks the host at least once a step, so host
  // and GPU take turns and a host cost lengthens it), else by gpu_bound "gpu" (a host cost hides
  // behind the GPU's queue) or "host"; "" when BASE has neither counter.
  std::string bound;
  bool has_utest = false;
  UTest utest;
  Verdict verdict = Verdict::unchanged;
  // GPU-bound in every process of BASE, host-bound in most of NEW's: not gated, but flagged.
  bool host_paced_in_new = false;
  // Between two machines, a change to a sync after a long GPU step that its wait reference (the
  // same pattern after 1 ms of SpinKernel) made too: that reference's change
  // (explain_by_machine_wait); NaN else. Such a row reads unchanged; delta says which way it went.
  double wait_reference_delta = kNaN;
};

// The shortest GPU step (BASE's Async baseline_us) after which a sync's wait is a long one. On
// three H200s, 20 processes each (results/h200/wait_reference/ladder.txt), a sync after
// SpinKernel's 102 us step cost 0.2-1.0 us more than one after its 12 us step (medians), one after
// its 1 ms step 1.1-6.7 us more, and BigGemm bf16 n=4096's after 169-172 us went with the 1 ms one
// from process to process more than with the 102 us one. So between those two steps.
inline constexpr double kLongWaitUs = 150.0;

// The share of a row's change its wait reference must have made, the same way, for the change to
// be set aside: the reference explains most of it, not a drift of a few us that widens the limit
// (a +12 us row beside a reference that moved +3 is counted). Between the 33 calls of
// results/h200/wait_reference/window.txt that hold these rows, call 4 aside, the references moved
// by up to 7.7 us (DeviceSync) and 9.4 us (ScalarRead/pinned).
inline constexpr double kWaitReferenceShare = 0.5;

// The wait reference of a sync pattern (its column: "DeviceSync", "ScalarRead/pinned"): the same
// sync after 1 ms of GPU work that is no workload at all.
std::string wait_reference(const std::string& column);

// Where NEW's host stands among BASE's machines, from the host-bound times (unpaired steps the
// host paces) that BASE ran on 2+ GPUs with kMinMachineRepetitions processes each: on how many
// rows NEW's median lies beyond the slowest machine's median (slower) or the fastest's (faster),
// and how far in the median row. A host outside BASE's machines moves the overheads that are not
// host-adjusted (a GPU-bound baseline's without baseline_host_us) by more than BASE's spread
// between machines shows: six H200 runners with fast hosts, and a machine whose host-bound steps
// were 20-31% slower than the slowest of them read TrainLoop/ItemEveryStep n=1024 11.6% faster
// (results/h200/runners/).
struct HostAmongMachines {
  std::size_t rows = 0, slower = 0, faster = 0;
  std::size_t machines = 0;  // BASE's GPUs, the most on one row
  double beyond = 0.0;       // the median row's NEW median / nearest BASE machine's - 1 (0 inside)
  std::string example;       // that row: "NAME: NEW us, BASE's machines LO-HI us"
};

// NEW's host counts as outside BASE's machines when over half of the rows lie beyond them, one
// way, and the median row by more than this share.
inline constexpr double kHostBeyondMachines = 0.05;

struct CompareResult {
  std::vector<Comparison> rows;
  std::vector<std::string> only_base, only_new;
  std::vector<std::pair<std::string, std::string>> not_compared;  // identity, why
  std::vector<std::string> context_warnings;
  HostAmongMachines host;
  bool same_gpu = false;       // both runs name one gpu_uuid
  double threshold_pct = 0.0;  // the threshold applied: options' or, between GPUs, the machine's
  std::size_t regressions = 0;
  std::size_t improvements = 0;
  std::size_t gated = 0;
  std::size_t newly_failed = 0;  // ok in BASE, failed in NEW: counted as regressions
  // BASE's benchmarks NEW did not run, or whose gated value it lacks: counted as regressions.
  std::size_t missing = 0;
  // Changes between machines set aside as what a wait after a long GPU step cost
  // (Comparison::wait_reference_delta).
  std::size_t machine_waits = 0;
  bool single_repetition = false;       // a side had one repetition: no noise estimate, no U test
  bool untestable_repetitions = false;  // a row too few a side for a U test to reach alpha
  bool few_repetitions = false;         // some U test ran on fewer than 9 repetitions a side
};

// Minimum repetitions a side for the U test, and report.py's advice for reliable results.
inline constexpr std::size_t kUTestMinRepetitions = 2;
inline constexpr std::size_t kUTestOptimalRepetitions = 9;

// Metrics where a larger value is better (rates): a drop is the regression there.
bool higher_is_better(const std::string& metric);

CompareResult compare_runs(const RunData& base, const RunData& next, const CompareOptions& options);

// The warning when NEW's host is outside BASE's machines (HostAmongMachines), else "".
std::string host_warning(const HostAmongMachines& host);
// The warning when rows GPU-bound in BASE became host-bound in most of NEW's processes, else "".
std::string host_paced_warning(const CompareResult& result);
Document compare_document(const CompareResult& result, const RunData& base, const RunData& next,
                          const CompareOptions& options);

}  // namespace sync_summary
