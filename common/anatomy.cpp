#include "anatomy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <unordered_map>

namespace sync_bench {
namespace {

using Intervals = std::vector<std::pair<double, double>>;

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("anatomy trace: " + what);
}

double window_end(const AnatomyTrace& trace) {
  double end = trace.host_end_us;
  for (const TraceEvent& e : trace.events)
    if (e.lane == Lane::gpu) end = std::max(end, e.end_us);
  return end;
}

// Host calls that start inside the steps: the wait after the last step is not part of them.
bool in_steps(const TraceEvent& e, const AnatomyTrace& trace) {
  return e.lane == Lane::host && e.start_us >= 0.0 && e.start_us < trace.host_end_us;
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3f", v);
  return buf;
}

}  // namespace

std::string_view name(Bound bound) {
  switch (bound) {
    case Bound::gpu:
      return "gpu";
    case Bound::sync:
      return "sync";
    case Bound::host:
      break;
  }
  return "host";
}

double union_length(Intervals intervals, double lo, double hi) {
  for (auto& [a, b] : intervals) {
    a = std::max(a, lo);
    b = std::min(b, hi);
  }
  std::sort(intervals.begin(), intervals.end());
  double total = 0.0, covered_to = lo;
  for (const auto& [a, b] : intervals) {
    if (b <= a) continue;
    const double from = std::max(a, covered_to);
    if (b > from) {
      total += b - from;
      covered_to = b;
    }
  }
  return total;
}

bool is_blocking_call(std::string_view api) {
  // Runtime and driver names; the _v2/_ptsz/_ptds suffixes of the variants are ignored.
  static constexpr std::string_view kPrefixes[] = {
      "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize",
      "cuCtxSynchronize",      "cuStreamSynchronize",   "cuEventSynchronize",
  };
  for (const std::string_view p : kPrefixes)
    if (api.substr(0, p.size()) == p) return true;
  const std::string_view base = api.substr(0, api.find('_'));
  static constexpr std::string_view kExact[] = {
      "cudaMemcpy",   "cudaMemcpy2D", "cudaMemcpyPeer", "cudaFree",
      "cudaFreeHost", "cuMemcpy",     "cuMemcpyHtoD",   "cuMemcpyDtoH",
      "cuMemcpyDtoD", "cuMemFree",    "cuMemFreeHost",  "cuMemcpyPeer",
  };
  return std::find(std::begin(kExact), std::end(kExact), base) != std::end(kExact);
}

StepAnatomy analyze(const AnatomyTrace& trace) {
  require(trace.steps > 0, "no steps");
  require(trace.step_starts_us.size() == static_cast<std::size_t>(trace.steps),
          "step_starts_us has " + std::to_string(trace.step_starts_us.size()) + " entries for " +
              std::to_string(trace.steps) + " steps");
  require(std::isfinite(trace.host_end_us) && trace.host_end_us > 0.0, "host_end_us must be > 0");
  for (const TraceEvent& e : trace.events)
    require(std::isfinite(e.start_us) && std::isfinite(e.end_us) && e.end_us >= e.start_us,
            "event '" + e.name + "' has no finite, ordered start and end");

  const double end = window_end(trace);
  const double steps = static_cast<double>(trace.steps);
  Intervals gpu, host_all, host_blocking;
  std::unordered_map<std::uint32_t, double> call_start;  // correlation -> call start
  StepAnatomy a;
  for (const TraceEvent& e : trace.events) {
    if (e.lane == Lane::gpu) {
      gpu.emplace_back(e.start_us, e.end_us);
      a.gpu_activities += 1.0;
    } else if (in_steps(e, trace)) {
      host_all.emplace_back(e.start_us, e.end_us);
      if (e.blocking) host_blocking.emplace_back(e.start_us, e.end_us);
      if (e.correlation != 0) call_start.emplace(e.correlation, e.start_us);
    }
  }
  double latency_sum = 0.0;
  int latency_count = 0;
  for (const TraceEvent& e : trace.events) {
    if (e.lane != Lane::gpu) continue;
    const auto call = call_start.find(e.correlation);
    if (call == call_start.end()) continue;
    latency_sum += e.start_us - call->second;
    ++latency_count;
  }
  // Top-level calls (not nested in another) and the blocking ones among them.
  std::sort(host_all.begin(), host_all.end());
  double covered_to = -1.0;
  for (const auto& [s, e] : host_all)
    if (s >= covered_to) {
      a.api_calls += 1.0;
      covered_to = e;
    } else {
      covered_to = std::max(covered_to, e);
    }
  std::sort(host_blocking.begin(), host_blocking.end());
  covered_to = -1.0;
  for (const auto& [s, e] : host_blocking) {
    if (s >= covered_to) a.blocking_calls += 1.0;
    covered_to = std::max(covered_to, e);
  }

  const double host_busy = union_length(host_all, 0.0, trace.host_end_us);
  const double blocked = union_length(host_blocking, 0.0, trace.host_end_us);
  a.step_us = end / steps;
  a.gpu_active_us = union_length(gpu, 0.0, end) / steps;
  a.gpu_idle_us = a.step_us - a.gpu_active_us;
  if (latency_count > 0) a.launch_latency_us = latency_sum / latency_count;
  a.host_blocked_us = blocked / steps;
  a.host_api_us = (host_busy - blocked) / steps;
  a.host_other_us = (trace.host_end_us - host_busy) / steps;
  a.gpu_activities /= steps;
  a.api_calls /= steps;
  a.blocking_calls /= steps;
  if (a.gpu_active_us >= kGpuBoundShare * a.step_us)
    a.bound = Bound::gpu;
  else if (a.host_blocked_us >= kSyncBoundShare * a.step_us && a.host_blocked_us > 0.0)
    a.bound = Bound::sync;
  else
    a.bound = Bound::host;
  return a;
}

std::string timeline_json(const std::string& benchmark, const AnatomyTrace& trace) {
  std::string out = "{\"name\": \"" + json_escape(benchmark) +
                    "\", \"steps\": " + std::to_string(trace.steps) + ", \"step_starts_us\": [";
  for (std::size_t i = 0; i < trace.step_starts_us.size(); ++i)
    out += (i ? ", " : "") + number(trace.step_starts_us[i]);
  out += "], \"host_end_us\": " + number(trace.host_end_us) +
         ", \"window_us\": " + number(window_end(trace)) + ", \"events\": [";
  bool first = true;
  for (const TraceEvent& e : trace.events) {
    if (e.lane == Lane::host && !in_steps(e, trace)) continue;
    out += first ? "\n  " : ",\n  ";
    first = false;
    out += "{\"lane\": \"" + std::string(e.lane == Lane::host ? "host" : "gpu") +
           "\", \"name\": \"" + json_escape(e.name) + "\", \"kind\": \"" + json_escape(e.kind) +
           "\", \"start_us\": " + number(e.start_us) + ", \"end_us\": " + number(e.end_us);
    if (e.lane == Lane::host)
      out += std::string(", \"blocking\": ") + (e.blocking ? "true" : "false");
    out += ", \"correlation\": " + std::to_string(e.correlation) + "}";
  }
  out += "]}";
  return out;
}

}  // namespace sync_bench
