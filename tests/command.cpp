#include "command.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace sync_bench::test {

CommandResult run_command(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) result.output.append(buffer, got);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string shell_quote(const std::string& word) {
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string sync_bench_exe() {
  return shell_quote(SYNC_BENCH_EXE);
}

std::vector<std::string> list_benchmarks(const std::string& extra_args) {
  const CommandResult r = run_command(sync_bench_exe() + " --benchmark_list_tests " + extra_args);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::vector<std::string> names;
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) names.push_back(line);
  return names;
}

nlohmann::json run_sync_bench_json(const std::string& args, CommandResult* result) {
  char path[] = "/tmp/sync_bench_test_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) {
    ADD_FAILURE() << "mkstemp failed";
    return nullptr;
  }
  close(fd);
  const CommandResult run =
      run_command(sync_bench_exe() + " " + args + " --benchmark_out=" + shell_quote(path) +
                  " --benchmark_out_format=json");
  if (result) *result = run;
  std::ifstream in(path);
  nlohmann::json json = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  std::remove(path);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_FALSE(json.is_discarded()) << "sync_bench wrote no valid JSON:\n" << run.output;
  return json.is_discarded() ? nlohmann::json() : json;
}

std::string filter_args(const std::string& filter, const std::string& min_time) {
  return "--benchmark_filter=" + shell_quote(filter) + " --benchmark_min_time=" + min_time;
}

Rows iteration_rows(const nlohmann::json& run) {
  Rows rows;
  if (!run.contains("benchmarks")) return rows;
  for (const auto& b : run.at("benchmarks")) {
    if (b.value("run_type", "iteration") != "iteration") continue;
    const std::string name = b.at("name");
    rows[name.substr(0, name.rfind("/manual_time"))] = b;
  }
  return rows;
}

std::string broken_in_every_run(const Rows& first, const std::string& args, int reruns,
                                const std::function<std::string(const Rows&)>& broken) {
  std::string seen = broken(first);
  if (seen.empty()) return seen;
  for (int run = 1; run <= reruns; ++run) {
    const std::string again = broken(iteration_rows(run_sync_bench_json(args)));
    if (again.empty()) {  // a passing test says so too: how often reruns save a claim is data
      std::cout << "[ NOTE     ] broken in the first run (" << seen << "), held in rerun " << run
                << "\n";
      return {};
    }
    seen += "\nrerun " + std::to_string(run) + ": " + again;
  }
  return seen;
}

}  // namespace sync_bench::test
