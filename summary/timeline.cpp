#include "timeline.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "json_sanitize.hpp"

namespace sync_summary {
namespace {

// A day in microseconds: no recorded step lies further from the first.
constexpr double kMaxTimelineUs = 86400e6;

using Json = nlohmann::json;

// Reads the fields of one JSON object; every error names the file and where in it.
class Reader {
 public:
  Reader(const Json& object, std::string where) : j_(object), where_(std::move(where)) {
    if (!j_.is_object()) fail("is not an object");
  }

  [[noreturn]] void fail(const std::string& what) const { throw InputError(where_ + " " + what); }

  const Json& field(const char* key) const {
    const auto it = j_.find(key);
    if (it == j_.end()) fail(std::string("has no \"") + key + "\"");
    return *it;
  }

  // A time in microseconds (every number of a timeline is one); Google Benchmark-style bare
  // NaN/Infinity arrive as strings.
  double number(const char* key) const { return finite(field(key), key); }

  // Finite, and within kMaxTimelineUs of the first step: the drawing subtracts times, and two
  // near the largest double made an SVG of width -nan.
  double finite(const Json& v, const std::string& what) const {
    const bool non_finite = v.is_string() && non_finite_value(v.get<std::string>());
    if (!v.is_number() && !non_finite) fail("\"" + what + "\" is not a number");
    if (non_finite || !std::isfinite(v.get<double>()))
      fail("\"" + what + "\" is not a finite number");
    if (std::abs(v.get<double>()) > kMaxTimelineUs)
      fail("\"" + what + "\" is " + v.dump() + " us: not a time within a run");
    return v.get<double>();
  }

  std::string text(const char* key, bool required = true) const {
    const auto it = j_.find(key);
    if (it == j_.end() && !required) return "";
    const Json& v = field(key);
    if (!v.is_string()) fail(std::string("\"") + key + "\" is not a string");
    return v.get<std::string>();
  }

  const Json& array(const char* key) const {
    const Json& v = field(key);
    if (!v.is_array()) fail(std::string("\"") + key + "\" is not an array");
    return v;
  }

 private:
  const Json& j_;
  std::string where_;
};

TimelineEvent read_event(const Json& j, const std::string& where) {
  const Reader r(j, where);
  TimelineEvent e;
  const std::string lane = r.text("lane");
  if (lane != "host" && lane != "gpu") r.fail("has lane \"" + lane + "\" (host or gpu)");
  e.gpu = lane == "gpu";
  e.name = r.text("name");
  e.kind = r.text("kind", false);
  e.start_us = r.number("start_us");
  e.end_us = r.number("end_us");
  if (e.end_us < e.start_us) r.fail("ends before it starts (end_us < start_us)");
  if (j.contains("blocking")) {
    if (!j["blocking"].is_boolean()) r.fail("\"blocking\" is not true or false");
    e.blocking = j["blocking"].get<bool>();
  }
  return e;
}

TimelineBench read_bench(const Json& j, const std::string& where) {
  const Reader r(j, where);
  TimelineBench b;
  b.name = r.text("name");
  const std::string named = where + " (" + b.name + ")";
  const Reader rb(j, named);
  const Json& steps = rb.field("steps");
  if (!steps.is_number_integer() || steps.get<long long>() < 1)
    rb.fail("\"steps\" is not a positive integer");
  const Json& starts = rb.array("step_starts_us");
  if (starts.size() != steps.get<unsigned long long>())
    rb.fail("has " + std::to_string(starts.size()) + " step_starts_us for " + steps.dump() +
            " steps");
  for (const Json& s : starts) {
    b.step_starts_us.push_back(rb.finite(s, "step_starts_us"));
    if (b.step_starts_us.size() > 1 && b.step_starts_us.back() < b.step_starts_us.end()[-2])
      rb.fail("has step_starts_us out of order");
  }
  b.window_us = rb.number("window_us");
  rb.number("host_end_us");  // checked, not drawn
  const Json& events = rb.array("events");
  for (std::size_t i = 0; i < events.size(); ++i)
    b.events.push_back(read_event(events[i], named + ": event " + std::to_string(i)));
  return b;
}

}  // namespace

Timeline parse_timeline(const std::string& text, const std::string& source) {
  Json j;
  try {
    j = Json::parse(has_non_finite_word(text) ? quote_non_finite(text) : text);
  } catch (const Json::exception& e) {
    throw InputError(source + ": malformed JSON: " + e.what());
  }
  if (!j.is_object() || !j.contains("sync_bench_timeline"))
    throw InputError(source +
                     ": not a sync_bench timeline file (no \"sync_bench_timeline\"; "
                     "write one with sync_bench --anatomy_timeline=FILE)");
  if (j["sync_bench_timeline"] != 1)
    throw InputError(source + ": timeline format " + j["sync_bench_timeline"].dump() +
                     " is not supported (only 1)");
  const Reader root(j, source + ":");
  Timeline t;
  const auto context = j.find("context");
  if (context != j.end() && context->is_object() && context->contains("gpu_name") &&
      (*context)["gpu_name"].is_string())
    t.gpu_name = (*context)["gpu_name"].get<std::string>();
  const Json& benches = root.array("benchmarks");
  for (std::size_t i = 0; i < benches.size(); ++i)
    t.benches.push_back(read_bench(benches[i], source + ": benchmark " + std::to_string(i)));
  return t;
}

Timeline load_timeline(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(path + ": empty file");
  return parse_timeline(text, path);
}

}  // namespace sync_summary
