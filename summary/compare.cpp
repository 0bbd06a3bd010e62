#include "compare.hpp"

#include <cmath>

#include "format_number.hpp"
#include "run_info.hpp"

namespace sync_summary {
namespace {

std::string failure(const char* side, const Bench& b) {
  const char* what = b.status == Status::skipped ? "skipped" : "error";
  return std::string(what) + " in " + side + (b.reason.empty() ? "" : ": " + b.reason);
}

Verdict judge(const Comparison& c, const CompareOptions& o) {
  const double pct = (higher_is_better(o.metric) ? -100.0 : 100.0) * c.change;  // > 0: worse
  const bool worse = pct > o.threshold_pct;
  const bool better = pct < -o.threshold_pct;
  const bool significant = !c.has_utest || c.utest.p < o.alpha;  // NaN p: not significant
  if (!worse && !better) return Verdict::unchanged;
  if (!significant) return Verdict::not_significant;
  return worse ? Verdict::regression : Verdict::improvement;
}

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
  }
  return "?";
}

std::string side_line(const char* side, const RunData& d) {
  const Run& r = d.run;
  return std::string(side) + ": " + d.label + " (" + r.source + "): " + gpu_text(r) + ", driver " +
         cuda_version_text(r.context_value("driver_version")) + ", wait mode " +
         context_or_unknown(r, "host_wait_mode");
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
  for (const Bench& b : base.benches) {
    const Bench* n = next.find(b.name.identity);
    if (!n) {
      res.only_base.push_back(b.name.identity);
      continue;
    }
    Comparison c;
    c.identity = b.name.identity;
    c.unit = b.unit;
    c.base = b.summary(options.metric);
    c.next = n->summary(options.metric);
    if (!c.base.valid() || !c.next.valid()) {
      std::string why;
      if (!c.base.valid())
        why = b.status == Status::ok ? "no " + options.metric + " in BASE" : failure("BASE", b);
      if (!c.next.valid()) {
        if (!why.empty()) why += "; ";
        why += n->status == Status::ok ? "no " + options.metric + " in NEW" : failure("NEW", *n);
      }
      res.not_compared.emplace_back(c.identity, why);
      continue;
    }
    if (b.unit != n->unit) {  // matched on name and time unit, as report.py does
      res.not_compared.emplace_back(
          c.identity, "time unit differs: " + std::string(unit_name(b.unit)) + " vs " +
                          std::string(unit_name(n->unit)));
      continue;
    }
    c.change = relative_change(c.base.center, c.next.center);
    const Metric* mb = b.metric(options.metric);
    const Metric* mn = n->metric(options.metric);
    if (mb->reps.size() >= kUTestMinRepetitions && mn->reps.size() >= kUTestMinRepetitions) {
      c.has_utest = true;
      c.utest = mann_whitney_u(mb->reps, mn->reps);
      if (std::min(mb->reps.size(), mn->reps.size()) < kUTestOptimalRepetitions)
        res.few_repetitions = true;
    }
    c.verdict = judge(c, options);
    if (c.verdict == Verdict::regression) ++res.regressions;
    if (c.verdict == Verdict::improvement) ++res.improvements;
    res.rows.push_back(std::move(c));
  }
  for (const Bench& n : next.benches) {
    if (!base.find(n.name.identity)) res.only_new.push_back(n.name.identity);
  }
  return res;
}

Document compare_document(const CompareResult& res, const RunData& base, const RunData& next,
                          const CompareOptions& o) {
  Document doc;
  doc.heading("sync_summary compare: " + base.label + " -> " + next.label);
  const std::string thr = fmt_fixed(o.threshold_pct, 1) + "%";
  const std::string worse = higher_is_better(o.metric) ? "a drop" : "a rise";
  doc.bullets({side_line("BASE", base), side_line("NEW", next),
               "metric: " + metric_title(o.metric) + ", median of the repetitions",
               "regression: " + worse + " of more than " + thr +
                   " that a two-sided Mann-Whitney U test on the repetitions finds significant "
                   "(p < " +
                   fmt_fixed(o.alpha, 3) + "); without repetitions, " + worse + " of more than " +
                   thr});
  if (!res.context_warnings.empty()) {
    std::string w = "WARNING: the runs come from different machines or settings (";
    for (std::size_t i = 0; i < res.context_warnings.size(); ++i)
      w += (i ? "; " : "") + res.context_warnings[i];
    doc.text({w + "): a change may come from that, not from the code."});
  }

  Table t;
  t.title = "Changes (" + metric_title(o.metric) + ")";
  t.header = {"benchmark", "base", "new", "change", "p-value", "repetitions", "verdict"};
  t.align = {Align::left,  Align::right, Align::right, Align::right,
             Align::right, Align::right, Align::left};
  doc.tidy.header = {"benchmark",        "time_unit",       "metric",  "base_median",
                     "new_median",       "change_pct",      "p_value", "u_method",
                     "base_repetitions", "new_repetitions", "verdict"};
  for (const Comparison& c : res.rows) {
    const std::string p = c.has_utest ? fmt_p(c.utest.p) : "n/a";
    const std::string method =
        !c.has_utest ? "" : (c.utest.method == UMethod::exact ? "exact" : "asymptotic");
    t.rows.push_back({c.identity, fmt_summary(c.base), fmt_summary(c.next), fmt_percent(c.change),
                      p, std::to_string(c.base.n) + " vs " + std::to_string(c.next.n),
                      verdict_text(c.verdict)});
    doc.tidy.rows.push_back({c.identity, std::string(unit_name(c.unit)), o.metric,
                             fmt_exact(c.base.center), fmt_exact(c.next.center),
                             fmt_exact(c.change * 100.0), c.has_utest ? fmt_exact(c.utest.p) : "",
                             method, std::to_string(c.base.n), std::to_string(c.next.n),
                             verdict_text(c.verdict)});
  }
  if (res.few_repetitions)
    t.notes.push_back("U test with fewer than " + std::to_string(kUTestOptimalRepetitions) +
                      " repetitions a side: results unreliable (Google Benchmark's advice: " +
                      std::to_string(kUTestOptimalRepetitions) + "+ repetitions)");
  if (!t.rows.empty()) doc.table(std::move(t));

  if (!res.not_compared.empty()) {
    Table nc;
    nc.title = "Not compared";
    nc.header = {"benchmark", "why"};
    nc.align = {Align::left, Align::left};
    for (const auto& [id, why] : res.not_compared) nc.rows.push_back({id, why});
    doc.table(std::move(nc));
  }
  if (!res.only_base.empty()) doc.table(name_list("Only in BASE", res.only_base));
  if (!res.only_new.empty()) doc.table(name_list("Only in NEW", res.only_new));

  const std::string counts = std::to_string(res.rows.size()) + " benchmarks compared (threshold " +
                             thr + ", alpha " + fmt_fixed(o.alpha, 3) + ")";
  if (res.regressions > 0) {
    doc.text({"Result: " + std::to_string(res.regressions) + " regression" +
              (res.regressions == 1 ? "" : "s") + ", " + std::to_string(res.improvements) +
              " improvement" + (res.improvements == 1 ? "" : "s") + " among " + counts + "."});
  } else {
    doc.text({"Result: no regression, " + std::to_string(res.improvements) + " improvement" +
              (res.improvements == 1 ? "" : "s") + " among " + counts + "."});
  }
  return doc;
}

}  // namespace sync_summary
