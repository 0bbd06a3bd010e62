// sync_summary: summarizes sync_bench's Google Benchmark JSON. All the work is in
// sync_summary_lib; see cli.hpp.

#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  const std::vector<std::string> args(argv + 1, argv + argc);
  return sync_summary::run_cli(args, std::cout, std::cerr);
}
