#pragma once
// What the compare tests share (test_compare.cpp, test_compare_host.cpp,
// test_compare_machines.cpp): two runs read from fixtures or made by gb_builder.hpp, one run on a
// named GPU, nine repetitions of known spread, the noise compare.hpp defines, the row of a result
// and the lines of its document.

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compare.hpp"
#include "document.hpp"
#include "gb_builder.hpp"
#include "gb_json.hpp"
#include "run_info.hpp"
#include "test_util.hpp"

namespace sync_summary::test {

struct Runs {
  RunData base, next;
};

inline Runs load(const char* base, const char* next) {
  std::vector<RunData> r;
  r.push_back(digest(load_run(data_path(base))));
  r.push_back(digest(load_run(data_path(next))));
  assign_labels(r, {});
  return {std::move(r[0]), std::move(r[1])};
}

inline Runs made(const std::vector<test::FakeBench>& base,
                 const std::vector<test::FakeBench>& next) {
  std::vector<RunData> r;
  r.push_back(digest(parse_run(test::gb_json(base), "base.json")));
  r.push_back(digest(parse_run(test::gb_json(next), "new.json")));
  assign_labels(r, {});
  return {std::move(r[0]), std::move(r[1])};
}

// One run of the benches on the GPU named.
inline RunData on_gpu(const std::vector<test::FakeBench>& benches, const std::string& gpu) {
  return digest(parse_run(test::gb_json(benches, {{"gpu_uuid", gpu}}), gpu + ".json"));
}

// Nine repetitions around `center` with median absolute deviation `mad`.
inline std::vector<double> nine(double center, double mad = 0.1) {
  std::vector<double> v;
  for (double d : {0.0, 2.0, -2.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5}) v.push_back(center + d * mad);
  return v;
}

// One side's noise as compare.hpp defines it: the standard error of a median over n
// repetitions, 1.253 sigma / sqrt(n), with sigma = 1.4826 MAD.
inline double standard_error(double mad, std::size_t n) {
  return 1.253 * 1.4826 * mad / std::sqrt(static_cast<double>(n));
}

// string_view: see test_benchmarks.cpp's bench().
inline const Comparison& row(const CompareResult& res, std::string_view identity) {
  for (const auto& c : res.rows)
    if (c.identity == identity) return c;
  throw std::runtime_error("not compared: " + std::string(identity));
}
// A row of a result about to be destroyed comes back as a copy: a reference into it would dangle
// (ASan found one such, `const Comparison& c = row(compare_runs(...), id)`).
inline Comparison row(CompareResult&& res, std::string_view identity) {
  return row(static_cast<const CompareResult&>(res), identity);
}

// The first text line of a compare document (a note, a warning, a bullet; not a table) that holds
// `text`; empty when none does.
inline std::string document_line(const Document& doc, const std::string& text) {
  for (const Block& b : doc.blocks)
    for (const auto& line : b.lines)
      if (contains(line, text)) return line;
  return "";
}
inline bool document_says(const Document& doc, const std::string& text) {
  return !document_line(doc, text).empty();
}

}  // namespace sync_summary::test
