#pragma once
// Helpers shared by the sync_summary tests: fixture paths and running the CLI in-process.

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

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace sync_summary::test
