#pragma once
// Helpers shared by the sync_summary tests: fixture paths and running the CLI in-process.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace sync_summary::test {

inline std::string data_path(const std::string& name) {
  return std::string(SYNC_SUMMARY_TEST_DATA) + "/" + name;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

struct CliResult {
  int rc = -1;
  std::string out;
  std::string err;
};

inline CliResult run(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  CliResult r;
  r.rc = run_cli(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// A copy of the run at `path`, written to `copy`, that merge takes for another process: the same
// numbers, and a trailing newline more (merge refuses one run given twice, byte for byte).
inline std::string as_another_process(const std::string& path, const std::string& copy) {
  write_file(copy, read_file(path) + "\n");
  return copy;
}

// A copy of the run at `path`, written to `copy`, with every real_time 1% longer: a process of its
// own even beside a merged run that holds the original (merge refuses one process twice).
inline std::string with_slower_steps(const std::string& path, const std::string& copy) {
  const std::string text = read_file(path);
  const std::string key = "\"real_time\": ";
  std::string out;
  std::size_t from = 0;
  for (std::size_t at; (at = text.find(key, from)) != std::string::npos;) {
    const std::size_t value = at + key.size();
    std::size_t end = value;
    const double t = std::stod(text.substr(value), &end);
    out += text.substr(from, value - from) + std::to_string(t * 1.01);
    from = value + end;
  }
  write_file(copy, out + text.substr(from));
  return copy;
}

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// The cell of `column` (named in the header line) in the first csv row that contains `row_has`.
inline std::string csv_cell(const std::string& csv, const std::string& row_has,
                            const std::string& column) {
  std::istringstream lines(csv);
  std::string header, line;
  std::getline(lines, header);
  const auto cells = [](const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
    return out;
  };
  const std::vector<std::string> names = cells(header);
  const auto at = std::find(names.begin(), names.end(), column) - names.begin();
  while (std::getline(lines, line))
    if (contains(line, row_has)) {
      const std::vector<std::string> row = cells(line);
      return static_cast<std::size_t>(at) < row.size() ? row[at] : "";
    }
  return "(no row)";
}

}  // namespace sync_summary::test
