#include "benchmarks.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>
#include <utility>

#include "errors.hpp"
#include "format_number.hpp"

namespace sync_summary {
namespace {

Metric& metric_slot(Bench& b, std::string_view name) {
  for (auto& m : b.metrics) {
    if (m.name == name) return m;
  }
  b.metrics.emplace_back();
  b.metrics.back().name = name;
  return b.metrics.back();
}

// Stores an aggregate row's value in the slot its aggregate_name names; others are ignored.
void store_aggregate(Metric& m, const std::string& aggregate, double value) {
  if (aggregate == "mean") m.agg_mean = value;
  if (aggregate == "median") m.agg_median = value;
  if (aggregate == "stddev") m.agg_stddev = value;
  if (aggregate == "cv") m.agg_cv = value;
}

// An iteration row that ran (not failed or skipped) with times: its real_time must be a measured
// time.
void check_real_time(const Entry& e, const std::string& identity, const Run& run) {
  if (e.error || e.skipped || !e.has_times || e.aggregate || is_measured_time(e.real_time)) return;
  throw InputError(run.source + ": " + identity + ": real_time is " +
                   (std::isnan(e.real_time) ? std::string("NaN") : fmt_exact(e.real_time)) +
                   ", not a finite positive time");
}

void add_entry(Bench& b, const Entry& e, const Run& run) {
  b.repetitions =
      std::max<std::size_t>(b.repetitions, static_cast<std::size_t>(std::max(e.repetitions, 1LL)));
  check_real_time(e, b.name.identity, run);
  if (e.error || e.skipped) {
    // A failed repetition: keep the reason, never its meaningless times. Google Benchmark 1.7 has
    // no skip, so sync_bench writes one there as an error whose message starts "skipped: ".
    constexpr std::string_view kSkipPrefix = "skipped: ";
    const bool skip_as_error = e.error && e.message.rfind(kSkipPrefix, 0) == 0;
    const bool error = e.error && !skip_as_error;
    if (b.status == Status::ok || (b.status == Status::skipped && error)) {
      b.status = error ? Status::error : Status::skipped;
      b.reason = skip_as_error ? e.message.substr(kSkipPrefix.size()) : e.message;
    }
    if (!e.aggregate) ++b.failed;
    return;
  }
  if (!e.has_times) return;  // BigO / RMS rows
  if (b.metrics.empty()) b.metrics.reserve(2 + e.counters.size());
  const bool is_cv = e.percentage || e.aggregate_name == "cv";
  // The cv row holds fractions, in every field; the others are in the row's time unit.
  const auto time = [&](double t) { return is_cv ? t : to_us(t, e.unit); };
  if (!e.aggregate) {
    b.unit = e.unit;
    metric_slot(b, kRealTime).reps.push_back(time(e.real_time));
    b.rep_gpus.emplace_back(e.gpu_uuid.empty() ? run.context_value("gpu_uuid") : e.gpu_uuid);
    metric_slot(b, kCpuTime).reps.push_back(time(e.cpu_time));
    for (const auto& c : e.counters) metric_slot(b, run.counter_name(c)).reps.push_back(c.value);
    return;
  }
  if (b.metrics.empty()) b.unit = e.unit;
  store_aggregate(metric_slot(b, kRealTime), e.aggregate_name, time(e.real_time));
  store_aggregate(metric_slot(b, kCpuTime), e.aggregate_name, time(e.cpu_time));
  for (const auto& c : e.counters)
    store_aggregate(metric_slot(b, run.counter_name(c)), e.aggregate_name, c.value);
}

// The rows of a run by benchmark identity, in order: on_new(BenchName) when a row names an
// identity first (its index: the identities met before), then on_row(index, row) for every row.
// Throws InputError for a name outside the grammar and for two rows of one repetition.
template <class OnNew, class OnRow>
void group_rows(const Run& run, std::unordered_map<std::string, std::size_t>& by_identity,
                OnNew on_new, OnRow on_row) {
  // Repetitions and aggregates repeat a name: parse each distinct name once.
  std::unordered_map<std::string_view, std::size_t> by_name;
  std::vector<const std::string*> identities;  // the keys of by_identity, by index
  // (benchmark, repetition_index) of the iteration rows: two rows of one repetition are bad input
  // (two registrations of a name, or a row copied), not two repetitions.
  std::set<std::pair<std::size_t, long long>> repetitions_seen;
  // Benchmarks with an iteration row, and those with one that names no repetition_index: such a
  // row must be its benchmark's only one (Google Benchmark writes the index on every row).
  std::set<std::size_t> with_rows, unindexed;
  by_name.reserve(run.entries.size());  // sized once: no rehash or move of 100,000 benchmarks
  by_identity.reserve(run.entries.size());
  for (const Entry& e : run.entries) {
    const std::string_view key =
        e.run_name.empty() ? strip_aggregate_suffix(e.name, e.aggregate ? e.aggregate_name : "")
                           : std::string_view(e.run_name);
    auto known = by_name.find(key);
    if (known == by_name.end()) {
      BenchName name;
      try {
        name = parse_name(key);
      } catch (const InputError& e) {
        throw InputError(run.source + ": " + e.what());
      }
      auto [it, inserted] = by_identity.try_emplace(name.identity, identities.size());
      if (inserted) {
        identities.push_back(&it->first);
        on_new(std::move(name));
      }
      known = by_name.emplace(key, it->second).first;
    }
    if (!e.aggregate && e.repetition_index >= 0 &&
        !repetitions_seen.emplace(known->second, e.repetition_index).second)
      throw InputError(run.source + ": " + e.name + ": two rows of repetition " +
                       std::to_string(e.repetition_index) + " of " + *identities[known->second]);
    if (!e.aggregate) {
      const bool first_row = with_rows.insert(known->second).second;
      if (e.repetition_index < 0) unindexed.insert(known->second);
      if (!first_row && unindexed.count(known->second))
        throw InputError(run.source + ": " + e.name + ": two rows of " +
                         *identities[known->second] +
                         " and one names no repetition_index: not two repetitions");
    }
    on_row(known->second, e, *identities[known->second]);
  }
}

}  // namespace

const Metric* Bench::metric(std::string_view name) const {
  for (const auto& m : metrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

const Summary& Bench::summary(std::string_view metric_name) const {
  static const Summary kNone;
  const Metric* m = metric(metric_name);
  return m ? m->summary : kNone;
}

const Bench* RunData::find(const std::string& identity) const {
  auto it = by_identity.find(identity);
  return it == by_identity.end() ? nullptr : &benches[it->second];
}

// A time that is not is_measured_time says nothing. An iteration row's real_time is refused as the
// run is read (add_entry); a cpu_time or an aggregate's median like that leaves its summary empty,
// so no table prints it as a number (compare refuses it, exit 2).
bool bad_time(const Metric& m) {
  if (m.name != kRealTime && m.name != kCpuTime) return false;
  const auto bad = [](double v) { return !is_measured_time(v); };
  if (std::any_of(m.reps.begin(), m.reps.end(), bad)) return true;
  return m.reps.empty() && !std::isnan(m.agg_median) && bad(m.agg_median);
}

Summary summarize(const Metric& m, std::size_t repetitions) {
  Summary s;
  if (bad_time(m)) return s;
  if (!m.reps.empty()) {
    const Spread sp = describe(m.reps);
    s.n = sp.n;
    s.center = sp.median;
    s.min = sp.min;
    s.max = sp.max;
    s.cv = sp.cv;
    return s;
  }
  const double center = std::isnan(m.agg_median) ? m.agg_mean : m.agg_median;
  if (std::isnan(center)) return s;
  s.n = std::max<std::size_t>(repetitions, 1);
  s.center = center;
  s.from_aggregates = true;
  s.cv = m.agg_cv;
  if (std::isnan(s.cv) && !std::isnan(m.agg_stddev) && m.agg_mean != 0.0)
    s.cv = m.agg_stddev / m.agg_mean;
  return s;
}

RunData digest(Run run) {
  RunData d;
  d.run = std::move(run);
  d.benches.reserve(d.run.entries.size());
  group_rows(
      d.run, d.by_identity,
      [&d](BenchName name) {
        d.benches.emplace_back();
        d.benches.back().name = std::move(name);
      },
      [&d](std::size_t i, const Entry& e, const std::string&) {
        add_entry(d.benches[i], e, d.run);
      });
  for (Bench& b : d.benches)
    for (Metric& m : b.metrics) m.summary = summarize(m, b.repetitions);
  std::vector<Entry>().swap(d.run.entries);  // all in benches now: free the rows early
  return d;
}

void check_run(const Run& run) {
  std::unordered_map<std::string, std::size_t> by_identity;
  group_rows(
      run, by_identity, [](const BenchName&) {},
      [&run](std::size_t, const Entry& e, const std::string& identity) {
        check_real_time(e, identity, run);
      });
}

bool filter_finds(const std::regex& filter, const BenchName& name) {
  return std::regex_search(name.identity, filter) || std::regex_search(name.written, filter);
}

void apply_filter(RunData& data, const std::regex& filter) {
  std::vector<Bench> kept;
  for (auto& b : data.benches)
    if (filter_finds(filter, b.name)) kept.push_back(std::move(b));
  data.benches = std::move(kept);
  data.by_identity.clear();
  for (std::size_t i = 0; i < data.benches.size(); ++i)
    data.by_identity.emplace(data.benches[i].name.identity, i);
}

}  // namespace sync_summary
