// sync_bench's own flag parsing and name builder, as functions.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli.hpp"
#include "names.hpp"

namespace sync_bench {
namespace {

struct Argv {
  explicit Argv(std::vector<std::string> args) : storage(std::move(args)) {
    for (auto& s : storage) pointers.push_back(s.data());
    pointers.push_back(nullptr);
  }
  int argc() const { return static_cast<int>(storage.size()); }
  std::vector<std::string> storage;
  std::vector<char*> pointers;
};

TEST(BenchName, JoinsWordsSkipsEmptyOnesAndAppendsArgs) {
  EXPECT_EQ(bench_name({"SmallGemm", "ScalarRead", "pinned", "bf16", "cublaslt"}, {{"n", 256}}),
            "SmallGemm/ScalarRead/pinned/bf16/cublaslt/n:256");
  EXPECT_EQ(bench_name({"NullKernel", "Async", ""}), "NullKernel/Async");
  EXPECT_EQ(bench_name({"HostCopy", "D2H"}, {{"bytes", 4}, {"k", 10}}),
            "HostCopy/D2H/bytes:4/k:10");
}

TEST(ParseOptions, TakesOwnFlagsAndLeavesTheRest) {
  Argv a({"sync_bench", "--device=1", "--benchmark_filter=Small", "--sync_mode=blocking",
          "--sync_accounting=off"});
  int argc = a.argc();
  Options o;
  std::string error;
  ASSERT_TRUE(parse_options(&argc, a.pointers.data(), &o, &error)) << error;
  EXPECT_EQ(o.device, 1);
  EXPECT_EQ(o.wait_mode, WaitMode::blocking);
  EXPECT_FALSE(o.sync_accounting);
  EXPECT_FALSE(o.sync_map);
  EXPECT_FALSE(o.list_only);
  ASSERT_EQ(argc, 2);
  EXPECT_STREQ(a.pointers[1], "--benchmark_filter=Small");
  EXPECT_EQ(a.pointers[2], nullptr);
}

TEST(ParseOptions, SyncMapWithAndWithoutPrefix) {
  for (const auto& [arg, prefix] : std::vector<std::pair<std::string, std::string>>{
           {"--sync_map", ""}, {"--sync_map=results/map", "results/map"}}) {
    Argv a({"sync_bench", arg});
    int argc = a.argc();
    Options o;
    std::string error;
    ASSERT_TRUE(parse_options(&argc, a.pointers.data(), &o, &error)) << error;
    EXPECT_TRUE(o.sync_map);
    EXPECT_EQ(o.sync_map_prefix, prefix);
    EXPECT_EQ(argc, 1);
  }
}

TEST(ParseOptions, NotesWhereGoogleBenchmarkWritesItsFile) {
  Argv a({"sync_bench", "--benchmark_out=x.json", "--benchmark_out_format=csv"});
  int argc = a.argc();
  Options o;
  std::string error;
  ASSERT_TRUE(parse_options(&argc, a.pointers.data(), &o, &error));
  EXPECT_EQ(o.out_path, "x.json");
  EXPECT_EQ(o.out_format, "csv");
  EXPECT_EQ(argc, 3) << "left for Google Benchmark";
}

TEST(ParseOptions, NotesListTestsUnlessTurnedOff) {
  for (const auto& [arg, expected] :
       std::vector<std::pair<std::string, bool>>{{"--benchmark_list_tests", true},
                                                 {"--benchmark_list_tests=true", true},
                                                 {"--benchmark_list_tests=false", false}}) {
    Argv a({"sync_bench", arg});
    int argc = a.argc();
    Options o;
    std::string error;
    ASSERT_TRUE(parse_options(&argc, a.pointers.data(), &o, &error));
    EXPECT_EQ(o.list_only, expected) << arg;
    EXPECT_EQ(argc, 2) << "left for Google Benchmark";
  }
}

TEST(ParseOptions, RejectsMalformedValues) {
  for (const char* bad :
       {"--device=x", "--device=", "--device=2000", "--sync_mode=fast", "--sync_mode"}) {
    Argv a({"sync_bench", bad});
    int argc = a.argc();
    Options o;
    std::string error;
    EXPECT_FALSE(parse_options(&argc, a.pointers.data(), &o, &error)) << bad;
    EXPECT_FALSE(error.empty());
  }
}

TEST(DefaultMinTime, AddedOnlyWhenAbsent) {
  Argv a({"sync_bench"});
  int argc = a.argc();
  char** argv = with_default_min_time(&argc, a.pointers.data());
  ASSERT_EQ(argc, 2);
  EXPECT_EQ(std::string(argv[1]).rfind("--benchmark_min_time=", 0), 0u);

  Argv b({"sync_bench", "--benchmark_min_time=1"});
  argc = b.argc();
  argv = with_default_min_time(&argc, b.pointers.data());
  EXPECT_EQ(argc, 2);
  EXPECT_STREQ(argv[1], "--benchmark_min_time=1");
}

}  // namespace
}  // namespace sync_bench
