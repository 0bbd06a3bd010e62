#include "gb_json.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "json_sanitize.hpp"

namespace sync_summary {
namespace {

using Json = nlohmann::json;

constexpr std::size_t kMaxNameLength = 1024;

// One scalar JSON value as the SAX callbacks deliver it.
struct Scalar {
  enum Kind { null, boolean, number, string } kind = null;
  bool b = false;
  double num = 0.0;
  const std::string* str = nullptr;
};

// Builds a Run from SAX events. Levels: the top object (1), "context" or "benchmarks" (2), one
// benchmark object (3). Values nested deeper than that are skipped.
class RunBuilder : public nlohmann::json_sax<Json> {
 public:
  // input_end: where the parser meets the end of the input (end_of_input).
  RunBuilder(Run& run, const std::string& source, std::size_t input_end)
      : run_(run), source_(source), input_end_(input_end) {}

  bool null() override { return value(Scalar{}); }
  bool boolean(bool v) override { return value(Scalar{Scalar::boolean, v, 0.0, nullptr}); }
  bool number_integer(number_integer_t v) override { return number(static_cast<double>(v)); }
  bool number_unsigned(number_unsigned_t v) override { return number(static_cast<double>(v)); }
  bool number_float(number_float_t v, const string_t&) override { return number(v); }
  bool string(string_t& v) override { return value(Scalar{Scalar::string, false, 0.0, &v}); }
  bool binary(binary_t&) override { return value(Scalar{}); }
  bool key(string_t& k) override {
    if (skip_ == 0) key_ = k;
    return true;
  }
  bool start_object(std::size_t) override { return open(true); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_array() override { return close(); }
  // position: the bytes the parser had read, the failing one included (one past the end when it
  // ran out of input).
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    const std::string what = source_ + ": malformed JSON: " + clean_message(ex.what());
    // Ran out of input inside the top object (not after it: that is more than one value).
    const bool top_ended = saw_top_object_ && level_ == Level::none;
    if (position > input_end_ && !top_ended)
      throw TruncatedInput(what +
                           " (a run cut short? `sync_summary salvage` keeps its complete "
                           "benchmarks)");
    throw InputError(what);
  }

  void finish() const {
    if (!saw_top_object_ || !saw_benchmarks_)
      fail("not Google Benchmark JSON (no \"benchmarks\" array)");
    if (!saw_context_) fail("not Google Benchmark JSON (no \"context\" object)");
    if (run_.entries.empty()) fail("empty run: \"benchmarks\" has no entries");
  }

 private:
  enum class Level { none, top, context, benchmarks, entry };

  [[noreturn]] void fail(const std::string& what) const { throw InputError(source_ + ": " + what); }
  [[noreturn]] void fail_entry(const std::string& what) const {
    fail("benchmark #" + std::to_string(run_.entries.size()) + entry_name() + ": " + what);
  }
  std::string entry_name() const {
    if (level_ != Level::entry || run_.entries.back().name.empty()) return "";
    return " ('" + run_.entries.back().name + "')";
  }
  static std::string clean_message(const std::string& what) {
    // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." -> after the tag.
    const auto tag_end = what.find("] ");
    return tag_end == std::string::npos ? what : what.substr(tag_end + 2);
  }

  bool open(bool is_object) {
    if (skip_ > 0) {
      ++skip_;
      return true;
    }
    switch (level_) {
      case Level::none:
        if (!is_object) fail("not Google Benchmark JSON (the top level is not an object)");
        saw_top_object_ = true;
        level_ = Level::top;
        return true;
      case Level::top:
        if (key_ == "context") {
          if (!is_object) fail("not Google Benchmark JSON (\"context\" is not an object)");
          saw_context_ = true;
          level_ = Level::context;
        } else if (key_ == "benchmarks") {
          if (is_object) fail("not Google Benchmark JSON (\"benchmarks\" is not an array)");
          saw_benchmarks_ = true;
          level_ = Level::benchmarks;
        } else {
          skip_ = 1;
        }
        return true;
      case Level::benchmarks:
        if (!is_object)
          fail("benchmark #" + std::to_string(run_.entries.size()) + " is not an object");
        run_.entries.emplace_back();
        key_.clear();
        level_ = Level::entry;
        return true;
      case Level::entry:
        ignore_field();  // Google Benchmark nests nothing in a row
        skip_ = 1;
        return true;
      case Level::context:
        skip_ = 1;  // caches, load_avg and any other nested value: not used
        return true;
    }
    return true;
  }

  bool close() {
    if (skip_ > 0) {
      --skip_;
      return true;
    }
    switch (level_) {
      case Level::entry:
        check_entry(run_.entries.back());
        level_ = Level::benchmarks;
        break;
      case Level::context:
      case Level::benchmarks:
        level_ = Level::top;
        break;
      case Level::top:
      case Level::none:
        level_ = Level::none;
        break;
    }
    return true;
  }

  bool number(double v) { return value(Scalar{Scalar::number, false, v, nullptr}); }

  bool value(const Scalar& v) {
    if (skip_ > 0) return true;
    switch (level_) {
      case Level::none:
        fail("not Google Benchmark JSON (the top level is not an object)");
      case Level::top:
        if (key_ == "benchmarks")
          fail("not Google Benchmark JSON (\"benchmarks\" is not an array)");
        if (key_ == "context") fail("not Google Benchmark JSON (\"context\" is not an object)");
        return true;
      case Level::context:
        context_value(v);
        return true;
      case Level::benchmarks:
        fail("benchmark #" + std::to_string(run_.entries.size()) + " is not an object");
      case Level::entry:
        entry_value(run_.entries.back(), v);
        return true;
    }
    return true;
  }

  void context_value(const Scalar& v) {
    std::string text;
    switch (v.kind) {
      case Scalar::null:
        text = "null";
        break;
      case Scalar::boolean:
        text = v.b ? "true" : "false";
        break;
      case Scalar::string:
        text = *v.str;
        break;
      case Scalar::number: {
        std::ostringstream os;
        os << v.num;
        text = os.str();
        break;
      }
    }
    run_.context[key_] = std::move(text);
  }

  // The value as a double: a JSON number, or one of the quoted non-finite words.
  std::optional<double> as_double(const Scalar& v) const {
    if (v.kind == Scalar::number) return v.num;
    if (v.kind == Scalar::string) return non_finite_value(*v.str);
    return std::nullopt;
  }
  double need_double(const Scalar& v) const {
    auto d = as_double(v);
    if (!d) fail_entry("\"" + key_ + "\" is not a number");
    return *d;
  }
  long long need_integer(const Scalar& v) const {
    const double d = need_double(v);
    if (!(d >= -1e15 && d <= 1e15) || d != std::floor(d))
      fail_entry("\"" + key_ + "\" is not an integer");
    return static_cast<long long>(d);
  }
  const std::string& need_string(const Scalar& v) const {
    if (v.kind != Scalar::string) fail_entry("\"" + key_ + "\" is not a string");
    return *v.str;
  }
  // A benchmark name, of a length a regular expression can search: libstdc++'s std::regex
  // recurses once per character for some patterns, and a 20,000-character name overflowed the
  // stack under --filter='(A|B)*'. Google Benchmark's names are tens of characters.
  const std::string& need_name(const Scalar& v) const {
    const std::string& name = need_string(v);
    if (name.size() > kMaxNameLength)
      fail_entry("\"" + key_ + "\" is " + std::to_string(name.size()) +
                 " characters long (at most " + std::to_string(kMaxNameLength) + ")");
    return name;
  }
  bool need_bool(const Scalar& v) const {
    if (v.kind != Scalar::boolean) fail_entry("\"" + key_ + "\" is not true or false");
    return v.b;
  }

  void entry_value(Entry& e, const Scalar& v) {
    const std::string_view k = key_;  // string_view: == checks the length first
    if (k == "name") {
      e.name = need_name(v);
    } else if (k == "run_name") {
      const std::string& rn = need_name(v);
      if (rn != e.name) e.run_name = rn;  // iteration rows: the same as name, not kept twice
    } else if (k == "run_type") {
      const std::string& t = need_string(v);
      if (t != "iteration" && t != "aggregate") fail_entry("unknown run_type '" + t + "'");
      e.aggregate = t == "aggregate";
    } else if (k == "aggregate_name") {
      e.aggregate_name = need_string(v);
    } else if (k == "aggregate_unit") {
      e.percentage = need_string(v) == "percentage";
    } else if (k == "repetitions") {
      e.repetitions = need_integer(v);
    } else if (k == "repetition_index") {
      e.repetition_index = need_integer(v);
    } else if (k == "threads") {
      e.threads = need_integer(v);
    } else if (k == "iterations") {
      e.iterations = need_double(v);
    } else if (k == "real_time") {
      if (times_seen_ > 0) fail_entry("\"real_time\" twice");
      e.real_time = need_double(v);
      ++times_seen_;
    } else if (k == "cpu_time") {
      e.cpu_time = need_double(v);
    } else if (k == "time_unit") {
      const std::string& u = need_string(v);
      auto unit = parse_time_unit(u);
      if (!unit) fail_entry("unknown time_unit '" + u + "'");
      e.unit = *unit;
      unit_seen_ = true;
    } else if (k == "error_occurred") {
      e.error = need_bool(v);
    } else if (k == "error_message" || k == "skip_message") {
      e.message = need_string(v);
    } else if (k == "skipped") {
      e.skipped = need_bool(v);
    } else if (k == "label") {
      e.label = need_string(v);
    } else if (k == "gpu_uuid") {
      e.gpu_uuid = need_string(v);
    } else if (k == "family_index" || k == "per_family_instance_index" || k == "cpu_coefficient" ||
               k == "real_coefficient" || k == "big_o" || k == "rms") {
      // Known Google Benchmark fields sync_summary does not use.
    } else if (auto d = as_double(v)) {
      auto id = counter_ids_.find(key_);
      if (id == counter_ids_.end()) {
        id = counter_ids_.emplace(key_, run_.counter_names.size()).first;
        run_.counter_names.push_back(key_);
      }
      if (e.counters.empty()) e.counters.reserve(counter_ids_.size());
      // A key twice in one row would read as two repetitions' values (a row holds ~30 counters:
      // a scan is cheaper than a set per row).
      for (const Counter& c : e.counters)
        if (c.name_id == id->second) fail_entry("\"" + key_ + "\" twice");
      e.counters.push_back(Counter{id->second, *d});
    } else {
      ignore_field();  // a string (not NaN or Infinity), true, false or null: not a counter
    }
  }

  void ignore_field() {
    if (run_.ignored_fields++ == 0) run_.ignored_example = key_;
  }

  void check_entry(Entry& e) {
    if (e.name.empty()) fail_entry("no \"name\"");
    e.has_times = !std::isnan(e.real_time) || times_seen_ > 0;
    // Google Benchmark writes the unit beside every time: without it the times mean nothing.
    if (times_seen_ > 0 && !unit_seen_) fail_entry("\"real_time\" without a \"time_unit\"");
    times_seen_ = 0;
    unit_seen_ = false;
    if (!e.has_times && !e.aggregate && !e.error && !e.skipped) fail_entry("no \"real_time\"");
    // Which statistic it holds: without it its values would be read as nothing, silently.
    if (e.aggregate && e.aggregate_name.empty())
      fail_entry("an aggregate (\"run_type\": \"aggregate\") with no \"aggregate_name\"");
  }

  Run& run_;
  const std::string& source_;
  std::size_t input_end_;
  Level level_ = Level::none;
  int skip_ = 0;  // > 0: inside a nested value that is not read
  std::string key_;
  std::unordered_map<std::string, std::size_t> counter_ids_;
  int times_seen_ = 0;
  bool unit_seen_ = false;
  bool saw_top_object_ = false;
  bool saw_context_ = false;
  bool saw_benchmarks_ = false;
};

// Where the parser meets the end of the text: one past its last byte, or, when the text ends in
// the first letters of a bare NaN, Infinity or -Infinity (a run cut short in such a word), at its
// first letter, where the parser stops.
std::size_t end_of_input(std::string_view text) {
  for (std::string_view word : {"-Infinity", "Infinity", "NaN"})
    for (std::size_t len = word.size() - 1; len > 0; --len)
      if (text.size() >= len && text.substr(text.size() - len) == word.substr(0, len))
        return text.size() - len;
  return text.size();
}

}  // namespace

InputText::InputText(const std::string& path, bool copy) : path_(path) {
  if (path == "-") {
    owned_.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>{});
    text_ = owned_;
    return;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path + ": cannot open file: " + std::strerror(errno));
  struct stat st {};
  const bool stat_ok = ::fstat(fd, &st) == 0;
  if (stat_ok && S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw InputError(path + ": is a directory, not a file");
  }
  if (!copy && stat_ok && S_ISREG(st.st_mode) && st.st_size > 0) {
    // Mapped, not copied: a 60 MB run costs no 60 MB of fresh memory.
    const auto size = static_cast<std::size_t>(st.st_size);
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (p == MAP_FAILED) throw InputError(path + ": cannot read file: " + std::strerror(errno));
    ::madvise(p, size, MADV_SEQUENTIAL);
    map_ = p;
    map_size_ = size;
    text_ = std::string_view(static_cast<const char*>(p), size);
    return;
  }
  ::close(fd);
  std::ifstream in(path, std::ios::binary);  // pipes and other files without a size
  if (!in) throw InputError(path + ": cannot open file");
  owned_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>{});
  text_ = owned_;
}

void InputText::release_pages() const {
  if (map_ != nullptr) ::madvise(map_, map_size_, MADV_DONTNEED);
}

InputText::~InputText() {
  if (map_ != nullptr) ::munmap(map_, map_size_);
}

Run parse_input(const InputText& input) {
  if (input.text().find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw InputError(input.path() + ": empty file");
  return parse_run(input.text(), input.path());
}

Run parse_run(std::string_view text, const std::string& source) {
  Run run;
  run.source = source;
  run.entries.reserve(text.size() / 512);  // a row takes 500-700 bytes: grow once at most
  std::string quoted;
  if (has_non_finite_word(text)) {
    quoted = quote_non_finite(text);
    text = quoted;
  }
  RunBuilder builder(run, source, end_of_input(text));
  try {
    Json::sax_parse(text.data(), text.data() + text.size(), &builder);
  } catch (const nlohmann::json::exception& ex) {
    throw InputError(source + ": malformed JSON: " + ex.what());
  }
  builder.finish();
  return run;
}

Run load_run(const std::string& path) {
  return parse_input(InputText(path));
}

}  // namespace sync_summary
