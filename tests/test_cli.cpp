// The sync_bench command line as a user meets it, on any machine: the registered matrix and its
// names, --help, and the refusals (no GPU, unknown flags, bad values). No GPU is needed.

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "command.hpp"
#include "gpu_guard.hpp"

namespace sync_bench::test {
namespace {

// The matrix as the README documents it, built here independently of the registration code.
std::set<std::string> documented_core_matrix() {
  const std::vector<std::string> plain = {"Async",
                                          "DeviceSync",
                                          "StreamSync",
                                          "EventSync",
                                          "EventSync/blocking",
                                          "EventQuery",
                                          "ScalarRead/pageable",
                                          "ScalarRead/pinned",
                                          "ScalarRead/mapped",
                                          "LaggedRead",
                                          "LaggedRead/mapped",
                                          "ScalarReadIdle",
                                          "Print"};
  const std::vector<std::string> bulk = {"BulkRead/pageable", "BulkRead/pinned"};
  std::set<std::string> names;
  for (const auto& p : plain) names.insert("NullKernel/" + p + "/manual_time");
  const std::vector<std::pair<std::string, std::vector<int>>> gemms = {
      {"SmallGemm", {128, 256, 512, 1024}}, {"BigGemm", {2048, 4096, 8192}}};
  for (const auto& [workload, sizes] : gemms)
    for (const std::string dtype : {"fp16", "bf16", "fp32", "tf32", "fp8"})
      for (const std::string backend : {"cublas", "cublaslt"})
        for (int n : sizes) {
          if (dtype == "fp8" && backend == "cublas") continue;  // cuBLASLt only
          std::vector<std::string> patterns = plain;
          patterns.insert(patterns.end(), bulk.begin(), bulk.end());
          for (const auto& p : patterns)
            names.insert(workload + "/" + p + "/" + dtype + "/" + backend +
                         "/n:" + std::to_string(n) + "/manual_time");
        }
  for (int us : {10, 100, 1000})
    for (const std::string p :
         {"Async", "DeviceSync", "StreamSync", "EventSync", "EventSync/blocking", "EventQuery",
          "ScalarRead/pageable", "ScalarRead/pinned", "ScalarRead/mapped", "LaggedRead",
          "LaggedRead/mapped"})
      names.insert("SpinKernel/" + p + "/us:" + std::to_string(us) + "/manual_time");
  return names;
}

TEST(Cli, ListsTheDocumentedCoreMatrixWithoutAGpu) {
  const std::vector<std::string> names = list_benchmarks();
  const std::set<std::string> expected = documented_core_matrix();
  std::set<std::string> core;
  for (const auto& n : names)
    if (n.rfind("NullKernel/", 0) == 0 || n.rfind("SmallGemm/", 0) == 0 ||
        n.rfind("BigGemm/", 0) == 0 || n.rfind("SpinKernel/", 0) == 0)
      core.insert(n);
  EXPECT_EQ(core, expected);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size())
      << "duplicate names";
}

TEST(Cli, EveryNameFollowsTheGrammar) {
  // Family/Pattern[/variant...][/dtype/backend][/key:value...]/manual_time
  const std::regex grammar(
      "[A-Z][A-Za-z0-9]*/[A-Z][A-Za-z0-9]*(/[a-z][a-z0-9_]*)*"
      "(/(fp16|bf16|fp32|tf32|fp8)/(cublas|cublaslt))?(/[a-z_]+:[0-9]+)*/manual_time");
  for (const auto& name : list_benchmarks()) EXPECT_TRUE(std::regex_match(name, grammar)) << name;
}

TEST(Cli, FiltersSelectWhatTheirWordsSay) {
  const auto small = list_benchmarks("--benchmark_filter=SmallGemm");
  ASSERT_FALSE(small.empty());
  for (const auto& n : small) EXPECT_EQ(n.rfind("SmallGemm/", 0), 0u) << n;

  const auto device_sync = list_benchmarks("--benchmark_filter=/DeviceSync/");
  ASSERT_FALSE(device_sync.empty());
  for (const auto& n : device_sync) EXPECT_NE(n.find("/DeviceSync/"), std::string::npos) << n;

  const auto bf16 = list_benchmarks("--benchmark_filter=/bf16/");
  ASSERT_FALSE(bf16.empty());
  for (const auto& n : bf16) EXPECT_NE(n.find("/bf16/"), std::string::npos) << n;
  EXPECT_LT(bf16.size(), list_benchmarks().size());
}

TEST(Cli, HelpListsOwnAndGoogleBenchmarkFlags) {
  const CommandResult r = run_command(sync_bench_exe() + " --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("--device="), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--sync_mode="), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--benchmark_filter="), std::string::npos) << r.output;
}

TEST(Cli, NoGpuGivesOneLineAndExitCode2) {
  // CUDA_VISIBLE_DEVICES=-1 hides every GPU, so this holds on the GPU machine too.
  const CommandResult r = run_command("CUDA_VISIBLE_DEVICES=-1 " + sync_bench_exe());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output.rfind("sync_bench: no CUDA GPU available", 0), 0u) << r.output;
  EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << "more than one line:\n" << r.output;
  // The cause in words (not only CUDA's "driver version is insufficient"), and what to do.
  EXPECT_TRUE(r.output.find("no NVIDIA driver is loaded") != std::string::npos ||
              r.output.find("no CUDA device is visible") != std::string::npos ||
              r.output.find("driver is older") != std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("--benchmark_list_tests"), std::string::npos) << r.output;
}

TEST(Cli, FilterThatIsNoRegexOrSelectsNothingIsRefusedBeforeTheGpu) {
  for (const char* filter : {"'['", "NoSuchThing"}) {
    const CommandResult r = run_command("CUDA_VISIBLE_DEVICES=-1 " + sync_bench_exe() +
                                        " --benchmark_filter=" + filter);
    EXPECT_EQ(r.exit_code, 2) << filter << "\n" << r.output;
    EXPECT_NE(r.output.find("--benchmark_filter="), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("no CUDA GPU"), std::string::npos) << "checked before the GPU";
  }
  const CommandResult listed =
      run_command(sync_bench_exe() + " --benchmark_list_tests --benchmark_filter=NoSuchThing");
  EXPECT_EQ(listed.exit_code, 2) << listed.output;
}

TEST(Cli, UnwritableOutputIsRefusedBeforeTheGpu) {
  for (const char* arg :
       {"--benchmark_out=/no/such/folder/x.json", "--sync_map=/no/such/folder/map",
        "--anatomy_timeline=/no/such/folder/t.json"}) {
    const CommandResult r = run_command("CUDA_VISIBLE_DEVICES=-1 " + sync_bench_exe() + " " + arg);
    EXPECT_EQ(r.exit_code, 2) << arg << "\n" << r.output;
    EXPECT_NE(r.output.find("cannot write /no/such/folder/"), std::string::npos) << r.output;
  }
}

// A folder where a file should go passes access(W_OK) (and root passes it everywhere), so it is
// refused by name; and --sync_map's PREFIX.md is checked beside PREFIX.json, not after the GPU
// work.
TEST(Cli, OutputThatIsAFolderIsRefusedBeforeTheGpu) {
  const std::string dir = ::testing::TempDir() + "cli_out_folder";
  ASSERT_EQ(run_command("mkdir -p " + shell_quote(dir + "/map.md")).exit_code, 0);
  for (const auto& [arg, named] : std::vector<std::pair<std::string, std::string>>{
           {"--benchmark_out=" + dir, dir},
           {"--anatomy_timeline=" + dir, dir},
           {"--sync_map=" + dir + "/map", dir + "/map.md"}}) {
    const CommandResult r =
        run_command("CUDA_VISIBLE_DEVICES=-1 " + sync_bench_exe() + " " + shell_quote(arg));
    EXPECT_EQ(r.exit_code, 2) << arg << "\n" << r.output;
    EXPECT_NE(r.output.find("cannot write " + named + ": it is a folder"), std::string::npos)
        << arg << "\n"
        << r.output;
  }
}

TEST(Cli, MeasurementFlagsAreCheckedBeforeTheGpu) {
  const CommandResult r =
      run_command("CUDA_VISIBLE_DEVICES=-1 " + sync_bench_exe() + " --sync_inject=host:-1us");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--sync_inject expects"), std::string::npos) << r.output;
}

TEST(Cli, AnatomyFlagsAreCheckedBeforeTheGpu) {
  const std::pair<const char*, const char*> cases[] = {
      {"--anatomy=maybe", "--anatomy expects on or off"},
      {"--anatomy_timeline=", "--anatomy_timeline expects a file"},
      {"--anatomy=off --anatomy_timeline=t.json", "--anatomy_timeline needs --anatomy=on"},
  };
  for (const auto& [args, message] : cases) {
    const CommandResult r = run_command("CUDA_VISIBLE_DEVICES=-1 " + sync_bench_exe() + " " + args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
  }
}

TEST(Cli, UnknownFlagIsRefused) {
  const CommandResult r = run_command(sync_bench_exe() + " --no_such_flag");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--no_such_flag"), std::string::npos) << r.output;
}

TEST(Cli, MalformedDeviceIsRefused) {
  for (const char* arg : {"--device=abc", "--device=", "--device", "--device=-1"}) {
    const CommandResult r = run_command(sync_bench_exe() + " " + arg);
    EXPECT_EQ(r.exit_code, 2) << arg << "\n" << r.output;
    EXPECT_NE(r.output.find("--device expects a GPU index"), std::string::npos) << r.output;
  }
}

TEST(Cli, DeviceBeyondTheVisibleOnesIsRefused) {
  const CommandResult r = run_command(sync_bench_exe() + " --device=99");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  // With a GPU: the index is named; without one: the missing GPU is.
  const bool has_gpu = gpu_unavailable_reason().empty();
  EXPECT_NE(r.output.find(has_gpu ? "--device=99" : "no CUDA GPU available"), std::string::npos)
      << r.output;
}

// sync_bench must read --benchmark_list_tests's value as Google Benchmark does: where it took
// "off" for "list" it skipped choosing a GPU, and Google Benchmark ran every benchmark without
// one (exit 0, a JSON of errors). Turned off, the flag leaves a run that needs a GPU: with every
// GPU hidden, exit 2 and nothing listed. Turned on, the names are listed on any machine.
TEST(Cli, ListTestsValueIsReadAsGoogleBenchmarkReadsIt) {
  const std::string filter = " --benchmark_filter='^NullKernel/Async/'";
  for (const char* off : {"off", "False", "n", "f"}) {
    const CommandResult r = run_command("CUDA_VISIBLE_DEVICES=-1 " + sync_bench_exe() +
                                        " --benchmark_list_tests=" + off + filter);
    EXPECT_EQ(r.exit_code, 2) << off << "\n" << r.output;
    EXPECT_NE(r.output.find("no CUDA GPU available"), std::string::npos) << off << r.output;
    EXPECT_EQ(r.output.find("NullKernel/Async"), std::string::npos) << off << r.output;
  }
  for (const char* on : {"yes", "Y", "on"}) {
    const CommandResult r = run_command("CUDA_VISIBLE_DEVICES=-1 " + sync_bench_exe() +
                                        " --benchmark_list_tests=" + on + filter);
    EXPECT_EQ(r.exit_code, 0) << on << "\n" << r.output;
    EXPECT_NE(r.output.find("NullKernel/Async/manual_time"), std::string::npos) << on << r.output;
  }
}

// Google Benchmark aborts on a negative count and runs nothing on 0: refused before the GPU.
TEST(Cli, RepetitionsBelowOneAreRefused) {
  for (const char* arg : {"-3", "0", "x"}) {
    const CommandResult r = run_command("CUDA_VISIBLE_DEVICES=-1 " + sync_bench_exe() +
                                        " --benchmark_repetitions=" + arg);
    EXPECT_EQ(r.exit_code, 2) << arg << "\n" << r.output;
    EXPECT_NE(r.output.find("--benchmark_repetitions expects"), std::string::npos) << r.output;
  }
}

TEST(Cli, BadSyncModeIsRefused) {
  const CommandResult r = run_command(sync_bench_exe() + " --sync_mode=fast");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("spin, yield, blocking, auto"), std::string::npos) << r.output;
}

// The tests' command lines hold paths (the build's sync_bench, temporary files): a checkout under
// a folder with a space or a quote in its name must still run them.
TEST(Cli, ShellQuotedPathIsOneWord) {
  const std::string word = "/tmp/a b/it's $HOME \\ \"x\"";
  const CommandResult r = run_command("printf '%s|' " + shell_quote(word));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, word + "|");
}

}  // namespace
}  // namespace sync_bench::test
