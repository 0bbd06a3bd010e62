// compare's output: the document (tables, notes, the result line) and its warnings, from a
// CompareResult that compare.cpp computed.

#include <cmath>
#include <string>
#include <vector>

#include "compare.hpp"
#include "format_number.hpp"
#include "run_info.hpp"
#include "wall_time.hpp"

namespace sync_summary {
namespace {

std::string verdict_text(Verdict v) {
  switch (v) {
    case Verdict::regression:
      return "REGRESSION";
    case Verdict::improvement:
      return "improvement";
    case Verdict::unchanged:
      return "unchanged";
    case Verdict::not_significant:
      return "not significant";
    case Verdict::not_gated:
      return "-";
  }
  return "?";
}

std::string side_line(const char* side, const RunData& d) {
  const Run& r = d.run;
  return std::string(side) + ": " + d.label + " (" + r.source + "): " + gpu_text(r) + ", driver " +
         cuda_version_text(r.context_value("driver_version")) + ", wait mode " +
         context_or_unknown(r, "host_wait_mode") + ", sync_bench " + sync_bench_text(r);
}

// Where both runs name the source that measured them and the sources differ, a line that says so:
// a change between them may be the harness's own. (An H200 gate pool once read a GraphReplay row's
// change between builds, made by the per-batch lead-in, as a false alarm between machines.)
std::string builds_note(const Run& base, const Run& next) {
  const auto a = base.context_value("sync_bench_source"),
             b = next.context_value("sync_bench_source");
  if (a.empty() || b.empty() || a == b) return "";
  return "NOTE: BASE and NEW were measured by different sync_bench sources (" + std::string(a) +
         " and " + std::string(b) +
         "): a change may come from the harness itself; a baseline measured by NEW's source "
         "rules that out.";
}

Table name_list(std::string title, const std::vector<std::string>& names) {
  Table t;
  t.title = std::move(title);
  t.header = {"benchmark"};
  t.align = {Align::left};
  for (const auto& n : names) t.rows.push_back({n});
  return t;
}

}  // namespace

std::string host_warning(const HostAmongMachines& h) {
  const bool slower = 2 * h.slower > h.rows && h.beyond > kHostBeyondMachines;
  const bool faster = 2 * h.faster > h.rows && h.beyond < -kHostBeyondMachines;
  if (!slower && !faster) return "";
  return "NEW's host is " + std::string(slower ? "slower" : "faster") + " than each of BASE's " +
         std::to_string(h.machines) + " machines: on " +
         std::to_string(slower ? h.slower : h.faster) + " of " + std::to_string(h.rows) +
         " host-bound rows its median lies beyond BASE's " + (slower ? "slowest" : "fastest") +
         " machine's (" + (slower ? "+" : "") + fmt_fixed(100.0 * h.beyond, 1) +
         "% in the median row, " + h.example +
         "). An overhead the host moves can then differ by more than BASE's machines do, most "
         "where it is not host-adjusted (a GPU-bound baseline's without baseline_host_us): a "
         "baseline should hold runners with hosts like this one";
}

std::string host_paced_warning(const CompareResult& res) {
  std::size_t n = 0;
  const Comparison* first = nullptr;
  for (const Comparison& c : res.rows)
    if (c.host_paced_in_new && n++ == 0) first = &c;
  if (n == 0) return "";
  return std::to_string(n) + (n == 1 ? " row" : " rows") + " GPU-bound in every process of BASE " +
         (n == 1 ? "is" : "are") + " host-bound in most of NEW's (" + first->identity +
         (n == 1 ? "" : ", ...") +
         "), not gated: a slower host does that, and so does a change that slows the host's "
         "part of the step; the paired overheads and the host-bound times tell which";
}

Document compare_document(const CompareResult& res, const RunData& base, const RunData& next,
                          const CompareOptions& o) {
  Document doc;
  doc.heading("sync_summary compare: " + base.label + " -> " + next.label);
  const std::string thr =
      fmt_fixed(res.threshold_pct, 1) + "%" +
      (res.same_gpu ? ""
                    : " (BASE and NEW ran on different GPUs, or one GPU is unknown: the "
                      "between-machine --machine-threshold; on a row whose BASE ran on " +
                          std::to_string(kMinMachines) +
                          " GPUs or more, the spread measured between them instead, and at "
                          "least " +
                          fmt_fixed(o.threshold_pct, 1) + "%)");
  const std::string gate_rule =
      o.gate == Gate::all || o.metric_given
          ? "gated: every row, on " + metric_title(o.metric)
          : "gated: paired rows on their overhead (overhead_us" +
                std::string(o.host_adjust ? ", adjusted for each process's host speed" : "") +
                "), GPU-bound rows on their time; host-bound times are shown, not gated (they "
                "move with the host CPU), and so are rows whose BASE cannot resolve " +
                fmt_fixed(o.max_noise_pct, 1) + "% of the step";
  doc.bullets({side_line("BASE", base), side_line("NEW", next), gate_rule,
               "a change: |new - base| of the medians above the largest of " + thr +
                   " of the base step time, " + fmt_fixed(o.min_effect_us, 2) +
                   " us (times), and " + fmt_fixed(o.noise_k, 1) +
                   " x the noise (the standard error of the difference of the medians, from "
                   "each run's between-repetition robust sigma); with 2+ repetitions a side it "
                   "must also pass a Mann-Whitney U test (p < " +
                   fmt_fixed(o.alpha, 3) + ")",
               std::string("a benchmark that fails in NEW but not in BASE is a regression, and so "
                           "is one of BASE's that NEW did not run or that lacks the value BASE's "
                           "row is gated on (--filter compares a subset)")});
  if (!res.context_warnings.empty()) {
    std::string w = "WARNING: the runs come from different machines or settings (";
    for (std::size_t i = 0; i < res.context_warnings.size(); ++i)
      w += (i ? "; " : "") + res.context_warnings[i];
    doc.text({w + "): a change may come from that, not from the code."});
  }
  if (const std::string n = builds_note(base.run, next.run); !n.empty()) doc.text({n});
  if (const std::string w = wall_comparison(base, next); !w.empty()) doc.text({w + "."});
  if (const std::string w = host_warning(res.host); !w.empty()) doc.text({"WARNING: " + w + "."});
  if (const std::string w = host_paced_warning(res); !w.empty()) doc.text({"WARNING: " + w + "."});
  if (res.machine_waits > 0)
    doc.text({std::to_string(res.machine_waits) +
              (res.machine_waits == 1 ? " change" : " changes") +
              " between the two machines set aside as what a wait after a long GPU step cost: "
              "each moved as its wait reference (SpinKernel's same sync after 1 ms) did (their "
              "gates say which; --wait-adjust=off counts them)."});

  Table t;
  t.title = "Changes";
  t.header = {"benchmark", "gate", "base", "new", "change", "limit", "p-value", "reps", "verdict"};
  t.align = {Align::left,  Align::left,  Align::right, Align::right, Align::right,
             Align::right, Align::right, Align::right, Align::left};
  doc.tidy.header = {"benchmark",
                     "time_unit",
                     "metric",
                     "gate",
                     "base_median",
                     "new_median",
                     "change_pct",
                     "delta",
                     "noise",
                     "limit",
                     "p_value",
                     "u_method",
                     "base_repetitions",
                     "new_repetitions",
                     "verdict",
                     "bound",
                     "resolution",
                     "host_slope",
                     "raw_delta",
                     "base_gpus",
                     "machine_limit",
                     "host_unreached"};
  for (const Comparison& c : res.rows) {
    const std::string p = c.has_utest ? fmt_p(c.utest.p) : "no test";
    const std::string method =
        !c.has_utest ? "" : (c.utest.method == UMethod::exact ? "exact" : "asymptotic");
    const bool failed = !c.base.valid();
    const std::string what = c.metric != "overhead_us"  ? ""
                             : std::isnan(c.host_slope) ? " (overhead)"
                                                        : " (overhead, host-adj.)";
    t.rows.push_back({c.identity, c.gate, failed ? "" : fmt_summary(c.base) + what,
                      failed ? "" : fmt_summary(c.next), failed ? "" : fmt_percent(c.change),
                      failed || !c.gated ? "" : fmt_value(c.limit), failed ? "" : p,
                      std::to_string(c.base.n) + " vs " + std::to_string(c.next.n),
                      verdict_text(c.verdict)});
    doc.tidy.rows.push_back({c.identity,
                             "us",  // the unit of its times: every time is read into us
                             c.metric,
                             c.gate,
                             fmt_exact(c.base.center),
                             fmt_exact(c.next.center),
                             fmt_exact(c.change * 100.0),
                             fmt_exact(c.delta),
                             fmt_exact(c.noise),
                             fmt_exact(c.limit),
                             c.has_utest ? fmt_exact(c.utest.p) : "",
                             method,
                             std::to_string(c.base.n),
                             std::to_string(c.next.n),
                             verdict_text(c.verdict),
                             c.bound,
                             fmt_exact(c.resolution),
                             fmt_exact(c.host_slope),
                             fmt_exact(c.raw_delta),
                             std::to_string(c.machines),
                             fmt_exact(c.machine_limit),
                             fmt_exact(c.host_unreached)});
  }
  if (res.single_repetition)
    t.notes.push_back(
        "a side without two repetitions to test (one repetition, or only the aggregates of "
        "several): no significance test ran, and its noise is the spread of its own rounds "
        "(paired) or unknown; run K processes and merge them (sync_summary merge) for a "
        "between-process noise");
  if (res.untestable_repetitions)
    t.notes.push_back("a row with too few repetitions for a U test to reach p < " +
                      fmt_fixed(o.alpha, 3) +
                      " (3 against 3 gives 0.10 at best): the limit alone decided it");
  if (res.few_repetitions)
    t.notes.push_back("U test with fewer than " + std::to_string(kUTestOptimalRepetitions) +
                      " repetitions a side: its p-value is coarse");
  if (!t.rows.empty()) doc.table(std::move(t));

  if (!res.not_compared.empty()) {
    Table nc;
    nc.title = "Not compared";
    nc.header = {"benchmark", "why"};
    nc.align = {Align::left, Align::left};
    for (const auto& [id, why] : res.not_compared) nc.rows.push_back({id, why});
    doc.table(std::move(nc));
  }
  if (!res.only_base.empty())
    doc.table(
        name_list("Only in BASE (not measured in NEW: counted as regressions)", res.only_base));
  if (!res.only_new.empty()) doc.table(name_list("Only in NEW", res.only_new));

  const std::size_t shown = res.rows.size();
  const std::string counts =
      std::to_string(shown) + " compared, " + std::to_string(res.gated) + " gated, " +
      std::to_string(shown - res.gated) + " not gated (host-bound, too noisy, or bound unknown), " +
      std::to_string(res.not_compared.size() + res.only_base.size() + res.only_new.size()) +
      " skipped (failed in BASE, missing metric, or in one run only)";
  std::string result = res.regressions > 0 ? std::to_string(res.regressions) + " regression" +
                                                 (res.regressions == 1 ? "" : "s")
                                           : std::string("no regression");
  std::vector<std::string> why;
  if (res.newly_failed > 0) why.push_back(std::to_string(res.newly_failed) + " newly failing");
  if (res.missing > 0) why.push_back(std::to_string(res.missing) + " missing from NEW");
  for (std::size_t i = 0; i < why.size(); ++i) result += (i ? ", " : " (") + why[i];
  if (!why.empty()) result += ")";
  doc.text({"Result: " + result + ", " + std::to_string(res.improvements) + " improvement" +
            (res.improvements == 1 ? "" : "s") + "; " + counts + "."});
  return doc;
}

}  // namespace sync_summary
