#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "errors.hpp"
#include "format_number.hpp"
#include "run_info.hpp"
#include "statistics.hpp"

namespace sync_summary {
namespace {

// Whether b measured something: a repetition, or the aggregates a run written with
// --benchmark_report_aggregates_only has instead (a row whose every repetition failed has neither).
bool measured(const Bench& b) {
  return b.summary(kRealTime).valid();
}

std::string failure(const char* side, const Bench& b) {
  const char* what = b.status == Status::skipped ? "skipped" : "error";
  return std::string(what) + " in " + side + (b.reason.empty() ? "" : ": " + b.reason);
}

// One side's noise: the standard error of its median over repetitions (processes, when the run
// was merged from processes), 1.253 sigma / sqrt(n). A paired row with one repetition falls back
// on the spread of its own per-round differences, not divided by anything: the between-process
// spread it cannot see is larger than its rounds' standard error (cautious).
double side_noise(const std::vector<double>& reps, const Bench& b, const std::string& metric) {
  // Fewer than 3 repetitions: no spread worth the name (two give one difference).
  const double sigma = reps.size() >= 3 ? robust_sigma(reps) : kNaN;
  if (!std::isnan(sigma)) return 1.253 * sigma / std::sqrt(static_cast<double>(reps.size()));
  if (metric != "overhead_us") return kNaN;
  const Summary p25 = b.summary("overhead_p25_us"), p75 = b.summary("overhead_p75_us");
  return p25.valid() && p75.valid() ? (p75.center - p25.center) / 1.349 : kNaN;
}

// Repetition indices of b by GPU, in first-seen order (rep_gpus); one group of all when the GPUs
// of the n repetitions judged are not known one by one.
std::vector<std::vector<std::size_t>> by_gpu(const Bench& b, std::size_t n) {
  std::vector<std::vector<std::size_t>> groups;
  std::vector<std::string_view> gpus;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view gpu = b.rep_gpus.size() == n ? std::string_view(b.rep_gpus[i]) : "";
    const auto k =
        static_cast<std::size_t>(std::find(gpus.begin(), gpus.end(), gpu) - gpus.begin());
    if (k == gpus.size()) {
      gpus.push_back(gpu);
      groups.emplace_back();
    }
    groups[k].push_back(i);
  }
  return groups;
}

// The values of one group of repetitions.
std::vector<double> values_of(const std::vector<double>& v, const std::vector<std::size_t>& group) {
  std::vector<double> out;
  out.reserve(group.size());
  for (std::size_t i : group) out.push_back(v[i]);
  return out;
}

// Half the range that the change between two runs' medians covers, each repetition moved along
// slope s to the reference (y - s (x - reference)), as s runs over [low, high]. The change is
// linear in s between the bends of the two medians, so its extremes lie at the ends or at a bend.
double half_range_of_adjusted_change(const Points& base, const Points& next, double reference,
                                     double low, double high) {
  const auto change = [&](double s) {
    return moved_median(next, reference, s) - moved_median(base, reference, s);
  };
  const double at_low = change(low), at_high = change(high);
  double lowest = std::min(at_low, at_high);
  double highest = std::max(at_low, at_high);
  for (const Points* p : {&base, &next})
    for (double s : moved_median_bends(*p, reference, low, high)) {
      const double at = change(s);
      lowest = std::min(lowest, at);
      highest = std::max(highest, at);
    }
  return (highest - lowest) / 2.0;
}

// A process whose host runs slow (10-40% from one process to the next on these VMs) lengthens a
// paired overhead too: the sync's return path and a read's copy and formatting are host work.
// The process's Async baseline, measured in the same rounds, says how slow its host was. So each
// repetition's overhead is moved to BASE's median baseline along the slope of overhead on
// baseline within each run (Theil-Sen over pairs of processes of the same run, clamped to
// [0, kMaxHostSlope]; within each GPU of a run merged from several, so that a machine's shift
// does not enter the slope either), and the runs are compared as if every process had the same
// host. This assumes the change under test leaves the Async baseline alone; a change there shows on
// the Async row. Needs 3+ repetitions a side with a baseline each; else the overheads stay raw.
// Where BASE's baseline is GPU-bound its spread is the GPU's clock, not the host's speed, and a
// slope fitted to it moves the overheads by GPU noise (a bf16 n=4096 GEMM's DeviceSync on the
// H200: a slope of 2-3 that turned a 3 us difference between machines into 6.5). There the slope
// is fitted on the host's time to submit each Async step (baseline_host_us) instead, the work the
// host redoes after each sync; without that counter on both sides the overheads stay raw. Between
// four H200s SpinKernel's syncs after 10 us moved up to 2.4 us raw and 0.19 us so adjusted, at a
// slope of about 1 (results/h200/spin10/); over acceptance3's four, BigGemm bf16 n=4096's
// DeviceSync went from 93% of its limit at worst to 21%. One GPU is no exception: its host
// switches between two speeds from one process to the next, and SpinKernel/ScalarRead/pinned after
// 10 us read +1.48 us raw against a limit of 0.95 between two calls on one H200, 6 of 10 processes
// on the fast host in one and 2 of 10 in the other; adjusted, +0.41 (results/h200/acceptance8/).
// vb_own: BASE's repetitions moved along BASE's own slope, for what BASE alone decides (whether the
// row is gated: judge's resolution and two groups); the pooled slope moves vb and vn. A NEW whose
// overhead follows its host more steeply than BASE's would otherwise spread BASE's adjusted values
// and take a steady BASE row out of the gate. Left as vb where vb is not adjusted, and raw where
// BASE alone has no slope (one process on each of its GPUs).
void adjust_for_host(Comparison& c, const Bench& b, const Bench& n, bool same_gpu,
                     std::vector<double>& vb, std::vector<double>& vn,
                     std::vector<double>& vb_own) {
  const auto usable = [&](const Metric* xb, const Metric* xn) {
    return xb && xn && vb.size() >= 3 && vn.size() >= 3 && xb->reps.size() == vb.size() &&
           xn->reps.size() == vn.size();
  };
  const Metric* xb = b.metric("baseline_us");
  const Metric* xn = n.metric("baseline_us");
  if (!usable(xb, xn)) return;
  const Summary busy = b.summary("gpu_busy_us");
  const bool on_host_time = busy.valid() && busy.center >= kGpuBoundShare * median(xb->reps);
  if (on_host_time) {
    // A change that slows the submit lengthens the host time and the overhead alike, so it
    // cancels out here, as it does from every paired overhead after a host-bound baseline (both
    // halves of a round wait for the same submit): the overhead is the sync's cost beyond it.
    xb = b.metric("baseline_host_us");
    xn = n.metric("baseline_host_us");
    if (!usable(xb, xn)) {
      c.gate += " (baseline GPU-bound: not host-adjusted)";
      return;
    }
  }
  const char* regressor = on_host_time ? "the host's time per Async step" : "Async baseline";
  const double reference = median(xb->reps);
  std::vector<Points> groups;
  for (const auto& g : by_gpu(b, vb.size()))
    groups.push_back({values_of(xb->reps, g), values_of(vb, g)});
  const std::vector<Points> base_groups = groups;
  for (const auto& g : by_gpu(n, vn.size()))
    groups.push_back({values_of(xn->reps, g), values_of(vn, g)});
  // A wait the host's speed sets (kHostRaceZ): no slope fits a switch between two regimes, and a
  // machine whose host is faster or slower than BASE's moves it by more than a change.
  if (const double z = within_group_kendall_z(groups); !same_gpu && z < -kHostRaceZ) {
    c.gated = false;
    c.gate = "not gated: a slower host waits less in this sync (Kendall z " + fmt_fixed(z, 1) +
             " of overhead on " + regressor +
             "): the host's speed sets it and BASE and NEW ran on different machines";
    return;
  }
  const double slope = within_group_slope(groups);
  if (std::isnan(slope)) return;
  if (on_host_time) c.gate += " (baseline GPU-bound: adjusted on its host time)";
  c.host_slope = std::clamp(slope, 0.0, kMaxHostSlope);
  // The slope comes from a few processes a run, so its error moves the adjusted change: by half
  // the range the change covers as the slope runs over its interval. Where both runs' hosts spread
  // alike that is half the interval's width times how far NEW's median host is from BASE's. Where
  // a host switches between two speeds, in different shares of the two runs' processes, it can be
  // more or less: the processes far from BASE's median host move a median by other than the
  // medians' distance says. BigGemm/DeviceSync bf16 n=4096 on one H100, 8 of 20 processes of one
  // call on the fast host and none of the other's: +4.42 us adjusted (raw -0.07), and as the slope
  // (2.28) runs over its interval (1.52-3.25, clamped to 3) the change covers +2.28 to +5.24 us.
  // The medians' distance, 0.66 us, gave 0.49 us of error, a limit of 4.41 and a false alarm; the
  // range gives 1.48 (results/h100/gate_p20_eb86bf1f/README.md, with what it did over 47 H100 and
  // 38 H200 gate calls).
  const SlopeInterval in = within_group_slope_interval(groups, kHostSlopeZ);
  c.host_slope_error = half_range_of_adjusted_change({xb->reps, vb}, {xn->reps, vn}, reference,
                                                     std::clamp(in.low, 0.0, kMaxHostSlope),
                                                     std::clamp(in.high, 0.0, kMaxHostSlope));
  // Between speeds that neither run reached, the slope is a guess: a host whose speed switches
  // between two levels moves the overhead in a step that no run on one level sees
  // (kUnreachedHostSlope).
  c.host_unreached = unreached_distance(xb->reps, xn->reps, kHostReach);
  if (!std::isnan(c.host_unreached)) c.host_slope_error += kUnreachedHostSlope * c.host_unreached;
  const double own_slope = within_group_slope(base_groups);
  if (!std::isnan(own_slope))
    for (std::size_t i = 0; i < vb_own.size(); ++i)
      vb_own[i] -= std::clamp(own_slope, 0.0, kMaxHostSlope) * (xb->reps[i] - reference);
  for (std::size_t i = 0; i < vb.size(); ++i) vb[i] -= c.host_slope * (xb->reps[i] - reference);
  for (std::size_t i = 0; i < vn.size(); ++i) vn[i] -= c.host_slope * (xn->reps[i] - reference);
}

// The median of v over each of b's GPUs that ran kMinMachineRepetitions of its repetitions or
// more (v: one value per repetition; none when they are not known one by one).
std::vector<double> gpu_medians(const Bench& b, const std::vector<double>& v) {
  std::vector<double> medians;
  if (b.rep_gpus.size() != v.size()) return medians;
  for (const auto& g : by_gpu(b, v.size()))
    if (g.size() >= kMinMachineRepetitions && !b.rep_gpus[g.front()].empty())
      medians.push_back(median(values_of(v, g)));
  return medians;
}

// BASE's GPUs and, between two machines, how far one more machine's median of the values judged
// (vb, host-adjusted) may land from BASE's: Student's prediction interval from the medians of
// BASE's GPUs, t(kMachineAlpha, M - 1) x their standard deviation x sqrt(1 + 1/M).
void measure_machines(Comparison& c, const Bench& b, const std::vector<double>& vb, bool same_gpu) {
  const std::vector<double> medians = gpu_medians(b, vb);
  c.machines = medians.size();
  if (same_gpu || medians.size() < kMinMachines) return;
  const double m = static_cast<double>(medians.size());
  c.machine_limit = student_t_quantile(kMachineAlpha, static_cast<int>(medians.size()) - 1) *
                    describe(medians).stddev * std::sqrt(1.0 + 1.0 / m);
}

// BASE's GPU idle per step on a row gated on its GPU-bound time whose host paces the gaps (0
// else), of which Comparison::host_paced_us takes its share. Between machines of one kind
// the GPU's work moves by the flat threshold; the idle gaps between it move with the host. On 26
// H200s, GraphReplay of 100 null kernels was busy 66.5-69.1 us a step (3.8% apart) and idle
// 1.4-2.1 us behind a fast host, 2.5-3.1 us behind a slow one: 68.0-72.1 us in all, 6% apart. (A
// 27th machine's GPU launched them 6% faster still; such rows take a wider threshold between
// machines now: kLaunchRateNodeUs.)
double gpu_idle_per_step(const Comparison& c, const Bench& b) {
  if (!c.gated || c.metric != kRealTime) return 0.0;
  const Summary busy = b.summary("gpu_busy_us"), host = b.summary("host_us");
  if (!busy.valid() || !(busy.center >= kGpuBoundShare * c.base.center)) return 0.0;
  if (!host.valid() || !(host.center >= kHostPacedShare * c.base.center)) return 0.0;
  return std::max(0.0, c.base.center - busy.center);
}

// The threshold (%) a row is judged with between machines: threshold_pct, or for BASE's graph of
// empty kernels between two single machines, whose time is the GPU's launch rate,
// kLaunchRateMachinePct where that is higher (the row's gate says so).
double row_threshold_pct(Comparison& c, const Bench& b, const CompareOptions& o, bool same_gpu,
                         double threshold_pct) {
  if (same_gpu || !std::isnan(c.machine_limit) || !c.gated || c.metric != kRealTime ||
      o.gate != Gate::reproducible || o.metric_given || threshold_pct >= kLaunchRateMachinePct)
    return threshold_pct;
  const Summary nodes = b.summary("graph_nodes"), busy = b.summary("gpu_busy_us");
  if (!nodes.valid() || nodes.center < 1.0 || !busy.valid() ||
      !(busy.center / nodes.center < kLaunchRateNodeUs))
    return threshold_pct;
  c.gate +=
      " (a graph of empty kernels: its time is the GPU's launch rate and machines differ in "
      "it: " +
      fmt_fixed(kLaunchRateMachinePct, 0) + "% between them)";
  return kLaunchRateMachinePct;
}

// What sets the pace of BASE's step (compare.hpp, Comparison::bound).
std::string pace(const Bench& b) {
  const Summary syncs = b.summary("syncs_per_step"), bound = b.summary("gpu_bound");
  if (syncs.valid() && syncs.center >= 1.0) return "sync";
  if (!bound.valid()) return "";
  return bound.center >= 0.5 ? "gpu" : "host";
}

Summary summary_of(const Metric& m, std::vector<double> reps) {
  Metric copy = m;
  copy.reps = std::move(reps);
  return summarize(copy, copy.reps.size());
}

bool is_time_like(const std::string& metric) {
  return metric == kRealTime || metric == kCpuTime ||
         (metric.size() > 3 && metric.compare(metric.size() - 3, 3, "_us") == 0);
}

// Every repetition of the metric a finite number, a step time positive and a time the gate reads
// beside it (a baseline, the GPU's or the host's part) not negative: else the file is bad.
void check_values(const Bench& b, const std::string& metric, const char* side) {
  const Metric* m = b.metric(metric);
  if (!m) return;
  const bool time = metric == kRealTime || metric == kCpuTime;
  const bool part = metric == "baseline_us" || metric == "baseline_host_us" ||
                    metric == "gpu_busy_us" || metric == "host_us";
  for (double v : m->reps)
    if (!std::isfinite(v) || (time && !is_measured_time(v)) || (part && v < 0.0))
      throw InputError(std::string(side) + ": " + b.name.identity + ": " + metric + " is " +
                       (std::isnan(v) ? std::string("NaN") : fmt_exact(v)) +
                       (time   ? ", not a finite positive time"
                        : part ? ", not a finite time of 0 or more"
                               : ", not a finite number"));
}

// How many of a run's processes (repetitions with a gpu_bound each) were host-bound, of how many.
std::pair<std::size_t, std::size_t> host_bound_processes(const Bench& side) {
  std::size_t host_bound = 0, processes = 0;
  if (const Metric* m = side.metric("gpu_bound"))
    for (double v : m->reps) {
      ++processes;
      host_bound += v < 0.5;
    }
  return {host_bound, processes};
}

std::string host_bound_text(std::pair<std::size_t, std::size_t> count, const char* side) {
  return "host-bound in " + std::to_string(count.first) + " of " + std::to_string(count.second) +
         " of " + side + "'s processes";
}

// What the row is judged on, and why (gate = reproducible; see compare.hpp). BASE decides the
// metric: a NEW that lost the counter a row is gated on does not take the row out of the gate.
void choose_gate(Comparison& c, const Bench& b, const Bench& n, const CompareOptions& o) {
  c.metric = o.metric;
  if (o.gate == Gate::all || o.metric_given) {
    c.gate = "gated (--gate=all)";
    if (o.metric_given && o.gate != Gate::all) c.gate = "gated (--metric)";
    return;
  }
  if (b.has_metric("overhead_us")) {
    c.metric = "overhead_us";
    c.gate = "paired overhead";
    return;
  }
  const Summary gb = b.summary("gpu_bound");
  if (gb.valid() && gb.center >= 0.5) {
    // A step that is GPU-bound in most processes but host-bound in some lies where a slower host
    // takes over the pace: its time is the share of slow hosts among the processes. TrainLoop/Async
    // bf16 n=1024 on the H200 (39 us of GPU work a step): 39-41 us in 9 of 10 processes of one
    // call, 55-58 us in 4 of 10 of another, a false alarm at +12% (results/h200/acceptance2/).
    // So a row host-bound in any process of either run is not gated. Gating one that NEW's host
    // paces in most processes would catch a slower host path, but slow hosts alone make that
    // happen: over the 60 H200 gate calls in results/h200/gate_pool, TrainLoop/Async bf16 n=1024
    // was host-bound in 7 of 10 processes of a slow host's run, and gating such rows raised 187
    // false alarms in 46146 GPU-bound rows, against none. Such a row is flagged instead
    // (Comparison::host_paced_in_new, host_paced_warning), and a change that slows the host path
    // still shows in the paired overheads.
    const auto base_host = host_bound_processes(b), new_host = host_bound_processes(n);
    if (base_host.first > 0 || new_host.first > 0) {
      c.gated = false;
      c.gate = "not gated: " +
               (base_host.first > 0 ? host_bound_text(base_host, "BASE")
                                    : host_bound_text(new_host, "NEW")) +
               " (the host's speed sets its pace there)";
      c.host_paced_in_new = base_host.first == 0 && 2 * new_host.first > new_host.second;
      return;
    }
    c.gate = "GPU-bound time";
    return;
  }
  c.gated = false;
  c.gate =
      gb.valid() ? "not gated: host-bound (moves with the host CPU)" : "not gated: bound unknown";
}

// vb, vn: the repetitions the row is judged on (host-adjusted for a paired row); vb_own: BASE's
// alone, for whether it is gated (adjust_for_host).
Verdict judge(Comparison& c, const Bench& b, const Bench& n, const std::vector<double>& vb,
              const std::vector<double>& vn, const std::vector<double>& vb_own,
              const CompareOptions& o, double threshold_pct, bool same_gpu) {
  const double base_step = b.summary(kRealTime).center;
  const double scale = c.metric == "overhead_us" ? base_step : std::abs(c.base.center);
  const double nb = side_noise(vb, b, c.metric), nn = side_noise(vn, n, c.metric);
  c.noise = std::isnan(nb) && std::isnan(nn)
                ? kNaN
                : std::sqrt((std::isnan(nb) ? 0.0 : nb * nb) + (std::isnan(nn) ? 0.0 : nn * nn));
  // Between two machines: the spread BASE measured between its GPUs where it can, with
  // --threshold as the floor; else the flat --machine-threshold (threshold_pct).
  const bool machines_measured = !std::isnan(c.machine_limit);
  c.limit = (machines_measured ? o.threshold_pct : threshold_pct) / 100.0 * scale;
  if (machines_measured) c.limit = std::max(c.limit, c.machine_limit);
  c.limit += c.host_paced_us;
  if (!std::isnan(c.host_slope_error)) c.limit += c.host_slope_error;
  if (is_time_like(c.metric)) c.limit = std::max(c.limit, o.min_effect_us);
  if (!std::isnan(c.noise)) c.limit = std::max(c.limit, o.noise_k * c.noise);
  const double nb_own = side_noise(vb_own, b, c.metric);
  if (vb_own.size() >= 3 && !std::isnan(nb_own)) c.resolution = o.noise_k * std::sqrt(2.0) * nb_own;
  // What reproduces is gated; a row whose own processes disagree by more than the change it
  // should catch is shown, with how much it can resolve, and not gated.
  const bool reproducible_only = o.gate == Gate::reproducible && !o.metric_given;
  if (c.gated && reproducible_only && c.resolution > o.max_noise_pct / 100.0 * scale) {
    c.gated = false;
    c.gate = "not gated: noisy between processes (BASE resolves " +
             fmt_fixed(100.0 * c.resolution / scale, 1) + "% of the step: over " +
             fmt_fixed(o.max_noise_pct, 1) + "%)";
  }
  if (c.gated && machines_measured)
    c.gate += " (between BASE's " + std::to_string(c.machines) +
              " GPUs: " + fmt_fixed(100.0 * c.machine_limit / scale, 1) + "% of the step)";
  if (c.gated && c.host_paced_us > 0.0)
    c.gate += same_gpu ? " (+" + fmt_fixed(c.host_paced_us, 2) +
                             " us: " + fmt_fixed(100.0 * kHostPacedProcessShare, 0) +
                             "% of its GPU idle a step: the host paces it)"
                       : " (between machines: +" + fmt_fixed(c.host_paced_us, 2) +
                             " us of GPU idle a step: the host paces it)";
  if (c.gated && reproducible_only && has_two_groups(vb_own, c.limit)) {
    c.gated = false;
    c.gate =
        "not gated: BASE's processes fall in two groups further apart than a change (its "
        "median moves between them with how many land in each)";
  }
  const double worse_by = higher_is_better(c.metric) ? -c.delta : c.delta;
  if (!c.gated) return Verdict::not_gated;
  if (std::abs(worse_by) <= c.limit) return Verdict::unchanged;
  const bool significant = !c.has_utest || c.utest.p < o.alpha;  // NaN p: not significant
  if (!significant) return Verdict::not_significant;
  return worse_by > 0 ? Verdict::regression : Verdict::improvement;
}

// HostAmongMachines (compare.hpp) over BASE's host-bound times.
HostAmongMachines host_among_machines(const RunData& base, const RunData& next) {
  struct Row {
    double beyond;
    std::string example;
  };
  std::vector<Row> rows;
  HostAmongMachines h;
  for (const Bench& b : base.benches) {
    const Bench* n = next.find(b.name.identity);
    const Metric* m = b.metric(std::string(kRealTime));
    if (!n || !m || b.status != Status::ok || n->status != Status::ok || pace(b) != "host" ||
        b.has_metric("overhead_us"))
      continue;
    const std::vector<double> medians = gpu_medians(b, m->reps);
    const Summary mine = n->summary(std::string(kRealTime));
    if (medians.size() < 2 || !mine.valid()) continue;
    const auto [lo, hi] = std::minmax_element(medians.begin(), medians.end());
    const double beyond = mine.center > *hi   ? mine.center / *hi - 1.0
                          : mine.center < *lo ? mine.center / *lo - 1.0
                                              : 0.0;
    h.machines = std::max(h.machines, medians.size());
    h.slower += beyond > 0.0;
    h.faster += beyond < 0.0;
    const std::string unit = " us";  // every time is read into us
    rows.push_back({beyond, b.name.identity + ": " + fmt_fixed(mine.center, 2) + unit +
                                ", BASE's machines " + fmt_fixed(*lo, 2) + "-" + fmt_fixed(*hi, 2) +
                                unit});
  }
  h.rows = rows.size();
  if (rows.empty()) return h;
  // The median row (the lower middle one of an even count: no value made up between two rows).
  std::sort(rows.begin(), rows.end(),
            [](const Row& x, const Row& y) { return x.beyond < y.beyond; });
  const Row& mid = rows[(rows.size() - 1) / 2];
  h.beyond = mid.beyond;
  h.example = mid.example;
  return h;
}

// Between two machines, what a wait after a long GPU step costs can differ by more than the row's
// limit, whatever the GPU ran. On the H200 of results/h200/review_ca3eae1a/call4, against 30
// other H200 calls merged (18 GPUs): BigGemm bf16 n=4096's DeviceSync +8.80 us and
// ScalarRead/pinned +11.37 (host-adjusted, against limits of 6.7 and 6.5 us), SpinKernel's same
// syncs after 1 ms +9.13 and +10.58, after 10 us +0.42 and +0.11, the host as fast as elsewhere
// (docs/ci_gate.md has the rest). So a paired sync after a long step (BASE's baseline_us of
// kLongWaitUs or more) that changed, beyond its limit, by what its wait reference changed by is set
// aside, and the gate says so; the reference must have moved the same way, by at least
// kWaitReferenceShare of the row's change, and be a row the gate trusts. On one GPU nothing is set
// aside, nor when the user gates on a metric of their own. What this gives up, between machines
// only: a change that lengthens the waits after long steps alone, and a change to the row alone
// that comes with a run whose long waits moved as far the same way (docs/ci_gate.md).
void explain_by_machine_wait(CompareResult& res, const RunData& base) {
  for (Comparison& c : res.rows) {
    const bool changed = c.verdict == Verdict::regression || c.verdict == Verdict::improvement;
    if (!changed || !c.gated || c.metric != "overhead_us" || c.bound != "sync") continue;
    const Bench* b = base.find(c.identity);
    if (!b || b->name.family == "SpinKernel") continue;  // the references are not judged on others
    const Summary baseline = b->summary("baseline_us");
    if (!baseline.valid() || baseline.center < kLongWaitUs) continue;
    const std::string reference = wait_reference(b->name.column());
    const auto r = std::find_if(res.rows.begin(), res.rows.end(),
                                [&](const Comparison& x) { return x.identity == reference; });
    if (r == res.rows.end() || !r->gated || r->metric != "overhead_us" || !r->base.valid() ||
        !r->next.valid())
      continue;
    const bool same_way = (r->delta > 0.0) == (c.delta > 0.0);
    if (!same_way || !(std::abs(r->delta) >= kWaitReferenceShare * std::abs(c.delta)) ||
        !(std::abs(c.delta - r->delta) <= c.limit))
      continue;
    c.wait_reference_delta = r->delta;
    (c.verdict == Verdict::regression ? res.regressions : res.improvements) -= 1;
    c.verdict = Verdict::unchanged;
    ++res.machine_waits;
    // No comma: scripts read the CSV's columns with awk -F,.
    c.gate += " (between machines: " + reference + " moved " + fmt_signed(r->delta) +
              " us and this row " + fmt_signed(c.delta) +
              " us: what a wait after a long GPU step cost in that run; not counted as a change)";
  }
}

}  // namespace

std::string wait_reference(const std::string& column) {
  return "SpinKernel/" + column + "/us:1000";
}

bool higher_is_better(const std::string& metric) {
  const auto ends_with = [&](const std::string& s) {
    return metric.size() >= s.size() && metric.compare(metric.size() - s.size(), s.size(), s) == 0;
  };
  return ends_with("per_second") || ends_with("FLOPS") || ends_with("GBps");
}

CompareResult compare_runs(const RunData& base, const RunData& next,
                           const CompareOptions& options) {
  CompareResult res;
  res.context_warnings = context_differences(base.run, next.run);
  res.host = host_among_machines(base, next);
  const std::string_view uuid = base.run.context_value("gpu_uuid");
  res.same_gpu = !uuid.empty() && uuid == next.run.context_value("gpu_uuid");
  res.threshold_pct = res.same_gpu ? options.threshold_pct
                                   : std::max(options.threshold_pct, options.machine_threshold_pct);
  for (const Bench& b : base.benches) {
    const Bench* n = next.find(b.name.identity);
    if (!n) {
      res.only_base.push_back(b.name.identity);
      continue;
    }
    Comparison c;
    c.identity = b.name.identity;
    // A benchmark that stopped working is the worst regression there is: failed in NEW where it
    // worked in BASE, or failed in every process of NEW where BASE has processes that worked (a
    // baseline merged from many processes may hold one that failed once).
    if (n->status != Status::ok && (b.status == Status::ok || (measured(b) && !measured(*n)))) {
      c.metric = options.metric;
      c.gate = failure("NEW", *n);
      c.verdict = Verdict::regression;
      ++res.regressions;
      ++res.newly_failed;
      ++res.gated;
      res.rows.push_back(std::move(c));
      continue;
    }
    choose_gate(c, b, *n, options);
    // The metric judged, the step time an overhead's limit is a share of, and the counters the
    // gate and the host adjustment read: a NaN or infinity in any would turn a limit or an
    // adjusted value into NaN, which no change exceeds.
    static const std::string kGateReads[] = {
        std::string(kRealTime), "baseline_us", "baseline_host_us", "overhead_p25_us",
        "overhead_p75_us",      "gpu_busy_us", "host_us",          "gpu_bound",
        "syncs_per_step",       "graph_nodes"};
    check_values(b, c.metric, "BASE");
    check_values(*n, c.metric, "NEW");
    for (const std::string& metric : kGateReads) {
      check_values(b, metric, "BASE");
      check_values(*n, metric, "NEW");
    }
    c.bound = pace(b);
    c.base = b.summary(c.metric);
    c.next = n->summary(c.metric);
    if (!c.base.valid() || !c.next.valid()) {
      std::string why;
      if (!c.base.valid())
        why = b.status == Status::ok ? "no " + c.metric + " in BASE" : failure("BASE", b);
      if (!c.next.valid()) {
        if (!why.empty()) why += "; ";
        why += n->status == Status::ok ? "no " + c.metric + " in NEW" : failure("NEW", *n);
      }
      // What BASE gates on and NEW lacks was not measured: the gate cannot pass it.
      if (c.base.valid() && n->status == Status::ok) {
        why += ": counted as a regression";
        ++res.missing;
        ++res.regressions;
      }
      res.not_compared.emplace_back(c.identity, why);
      continue;
    }
    // Every time is read into us, and the counters are in us whatever the unit: a row written in
    // another unit is compared all the same (were it set aside, a gated row would leave the gate).
    if (b.unit != n->unit)
      c.gate += " (BASE in " + std::string(unit_name(b.unit)) + "; NEW in " +
                std::string(unit_name(n->unit)) + ": both read in us)";  // no comma: CSV
    const Metric* mb = b.metric(c.metric);
    const Metric* mn = n->metric(c.metric);
    std::vector<double> vb = mb->reps, vn = mn->reps, vb_own = mb->reps;
    if (c.metric == "overhead_us" && options.host_adjust && c.gated) {
      adjust_for_host(c, b, *n, res.same_gpu, vb, vn, vb_own);
      if (!std::isnan(c.host_slope)) {
        c.raw_delta = c.next.center - c.base.center;
        c.gate += " (host-adjusted: slope " + fmt_fixed(c.host_slope, 2) + ": +" +
                  fmt_fixed(c.host_slope_error, 2) + " us to the limit for its error";
        if (c.host_unreached > 0.0)
          // No comma: scripts read the CSV's columns with awk -F,.
          c.gate += "; " + fmt_fixed(c.host_unreached, 2) +
                    " us between the two runs' host speeds that neither reached";
        c.gate += ")";
        c.base = summary_of(*mb, vb);
        c.next = summary_of(*mn, vn);
      }
    }
    measure_machines(c, b, vb, res.same_gpu);
    const double threshold_pct = row_threshold_pct(c, b, options, res.same_gpu, res.threshold_pct);
    // A step that syncs hands the host its GPU idle time, where a host cost shows: between
    // machines all of it would hide one, and --machine-threshold alone judges such a step.
    if (res.same_gpu)
      c.host_paced_us = kHostPacedProcessShare * gpu_idle_per_step(c, b);
    else if (std::isnan(c.machine_limit) && c.bound != "sync")
      c.host_paced_us = gpu_idle_per_step(c, b);
    c.change = relative_change(c.base.center, c.next.center);
    c.delta = c.next.center - c.base.center;
    if (vb.size() < 2 || vn.size() < 2) res.single_repetition = true;
    if (vb.size() >= kUTestMinRepetitions && vn.size() >= kUTestMinRepetitions) {
      // With 2 or 3 repetitions a side no U test reaches p < 0.05: requiring it would pass every
      // regression, so there the limit decides alone, as with one repetition.
      if (mwu_smallest_p(static_cast<int>(vb.size()), static_cast<int>(vn.size())) <
          options.alpha) {
        c.has_utest = true;
        c.utest = mann_whitney_u(vb, vn);
        if (std::min(vb.size(), vn.size()) < kUTestOptimalRepetitions) res.few_repetitions = true;
      } else if (c.gated) {
        res.untestable_repetitions = true;
      }
    }
    c.verdict = judge(c, b, *n, vb, vn, vb_own, options, threshold_pct, res.same_gpu);
    // Finite inputs can still overflow (1e308 quartiles): an infinite limit passes every change.
    for (const double v : {c.limit, c.delta, c.noise, c.resolution})
      if (std::isinf(v))
        throw InputError(c.identity + ": its values are too large to judge (a limit, change or " +
                         "noise of " + fmt_exact(v) + " us)");
    if (c.gated) ++res.gated;
    if (c.verdict == Verdict::regression) ++res.regressions;
    if (c.verdict == Verdict::improvement) ++res.improvements;
    res.rows.push_back(std::move(c));
  }
  // Only for the gate's own rules: a metric the user chose is judged as it is.
  if (!res.same_gpu && options.wait_adjust && options.gate == Gate::reproducible &&
      !options.metric_given)
    explain_by_machine_wait(res, base);
  for (const Bench& n : next.benches) {
    if (!base.find(n.name.identity)) res.only_new.push_back(n.name.identity);
  }
  // A benchmark of BASE that NEW did not run was not measured: the gate cannot pass it (compare a
  // subset with --filter).
  res.missing += res.only_base.size();
  res.regressions += res.only_base.size();
  return res;
}

}  // namespace sync_summary
