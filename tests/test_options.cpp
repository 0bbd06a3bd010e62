// sync_bench's own flag parsing and name builder, as functions.

#include <gtest/gtest.h>

#include <cstdlib>
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

// parse_options over `args` (argv[0] put first): whether it parsed, the options, the error, and
// the arguments it left for Google Benchmark (argv[0] first; a null after them, checked).
struct Parsed {
  bool ok = false;
  Options options;
  std::string error;
  std::vector<std::string> left;
};

Parsed parse(std::vector<std::string> args) {
  args.insert(args.begin(), "sync_bench");
  Argv a(std::move(args));
  int argc = a.argc();
  Parsed p;
  p.ok = parse_options(&argc, a.pointers.data(), &p.options, &p.error);
  if (!p.ok) return p;
  for (int i = 0; i < argc; ++i) p.left.emplace_back(a.pointers[i]);
  EXPECT_EQ(a.pointers[argc], nullptr) << "argv ends in a null";
  return p;
}

TEST(BenchName, JoinsWordsSkipsEmptyOnesAndAppendsArgs) {
  EXPECT_EQ(bench_name({"SmallGemm", "ScalarRead", "pinned", "bf16", "cublaslt"}, {{"n", 256}}),
            "SmallGemm/ScalarRead/pinned/bf16/cublaslt/n:256");
  EXPECT_EQ(bench_name({"NullKernel", "Async", ""}), "NullKernel/Async");
  EXPECT_EQ(bench_name({"HostCopy", "D2H"}, {{"bytes", 4}, {"k", 10}}),
            "HostCopy/D2H/bytes:4/k:10");
}

TEST(ParseOptions, TakesOwnFlagsAndLeavesTheRest) {
  const Parsed p = parse(
      {"--device=1", "--benchmark_filter=Small", "--sync_mode=blocking", "--sync_accounting=off"});
  ASSERT_TRUE(p.ok) << p.error;
  const Options& o = p.options;
  EXPECT_EQ(o.device, 1);
  EXPECT_EQ(o.wait_mode, WaitMode::blocking);
  EXPECT_FALSE(o.sync_accounting);
  EXPECT_FALSE(o.sync_map);
  EXPECT_FALSE(o.list_only);
  EXPECT_EQ(p.left, (std::vector<std::string>{"sync_bench", "--benchmark_filter=Small"}));
}

TEST(ParseOptions, SyncMapWithAndWithoutPrefix) {
  for (const auto& [arg, prefix] : std::vector<std::pair<std::string, std::string>>{
           {"--sync_map", ""}, {"--sync_map=results/map", "results/map"}}) {
    const Parsed p = parse({arg});
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_TRUE(p.options.sync_map);
    EXPECT_EQ(p.options.sync_map_prefix, prefix);
    EXPECT_EQ(p.left.size(), 1u);
  }
}

TEST(ParseOptions, NotesWhereGoogleBenchmarkWritesItsFile) {
  const Parsed p = parse({"--benchmark_out=x.json", "--benchmark_out_format=csv"});
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.options.out_path, "x.json");
  EXPECT_EQ(p.options.out_format, "csv");
  EXPECT_EQ(p.left.size(), 3u) << "left for Google Benchmark";
}

// Google Benchmark prints its usage and exits 0 on an unknown format: refused here instead.
TEST(ParseOptions, RejectsAnUnknownOutputFormat) {
  for (const char* bad :
       {"--benchmark_out_format=jsn", "--benchmark_format=xml", "--benchmark_out_format="}) {
    const Parsed p = parse({"--benchmark_out=x.json", bad});
    EXPECT_FALSE(p.ok) << bad;
    EXPECT_NE(p.error.find("json, console or csv"), std::string::npos) << p.error;
  }
}

TEST(ParseOptions, NotesListTestsUnlessTurnedOff) {
  for (const auto& [arg, expected] :
       std::vector<std::pair<std::string, bool>>{{"--benchmark_list_tests", true},
                                                 {"--benchmark_list_tests=true", true},
                                                 {"--benchmark_list_tests=yes", true},
                                                 {"--benchmark_list_tests=Y", true},
                                                 {"--benchmark_list_tests=false", false},
                                                 {"--benchmark_list_tests=FALSE", false},
                                                 {"--benchmark_list_tests=off", false},
                                                 {"--benchmark_list_tests=Off", false},
                                                 {"--benchmark_list_tests=no", false},
                                                 {"--benchmark_list_tests=n", false},
                                                 {"--benchmark_list_tests=f", false},
                                                 {"--benchmark_list_tests=0", false},
                                                 {"--benchmark_list_tests=-", false}}) {
    const Parsed p = parse({arg});
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.options.list_only, expected) << arg;
    EXPECT_EQ(p.left.size(), 2u) << "left for Google Benchmark";
  }
}

// Google Benchmark takes a flag's default from the environment, and the command line overrides it:
// sync_bench reads both as it does (else BENCHMARK_LIST_TESTS=yes listed nothing and ran).
TEST(ParseOptions, ReadsGoogleBenchmarksFlagsFromTheEnvironmentFirst) {
  struct Env {
    Env(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
    ~Env() { unsetenv(name_); }
    const char* name_;
  };
  {
    const Env list("BENCHMARK_LIST_TESTS", "yes");
    EXPECT_TRUE(parse({}).options.list_only);
    EXPECT_FALSE(parse({"--benchmark_list_tests=off"}).options.list_only);
  }
  {
    const Env out("BENCHMARK_OUT", "from_env.json");
    EXPECT_EQ(parse({}).options.out_path, "from_env.json");
    EXPECT_EQ(parse({"--benchmark_out=argv.json"}).options.out_path, "argv.json");
  }
  const Env repetitions("BENCHMARK_REPETITIONS", "0");
  const Parsed p = parse({});
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.error.find("BENCHMARK_REPETITIONS='0' in the environment"), std::string::npos)
      << p.error;
}

TEST(ParseOptions, RejectsMalformedValues) {
  for (const char* bad : {"--device=x", "--device=", "--device=2000", "--sync_mode=fast",
                          "--sync_mode", "--benchmark_repetitions=-3", "--benchmark_repetitions=0",
                          "--benchmark_repetitions=two", "--benchmark_repetitions"}) {
    const Parsed p = parse({bad});
    EXPECT_FALSE(p.ok) << bad;
    EXPECT_FALSE(p.error.empty());
  }
}

TEST(SingleIteration, AppendsATinyMinTime) {
  Argv a({"sync_bench", "--benchmark_filter=x"});
  int argc = a.argc();
  char** argv = with_single_iteration(&argc, a.pointers.data());
  ASSERT_EQ(argc, 3);
  EXPECT_STREQ(argv[1], "--benchmark_filter=x");
  EXPECT_EQ(std::string(argv[2]).rfind("--benchmark_min_time=1e-9", 0), 0u);
  EXPECT_EQ(argv[3], nullptr);
}

TEST(ParseOptions, TakesTheStoppingRuleAndMinTime) {
  const Parsed p = parse({"--sync_min_rounds=20", "--sync_max_time=0.5", "--sync_max_noise=2%",
                          "--benchmark_min_time=0.05s", "--benchmark_filter=x"});
  ASSERT_TRUE(p.ok) << p.error;
  const Options& o = p.options;
  EXPECT_EQ(o.stopping.min_rounds, 20);
  EXPECT_DOUBLE_EQ(o.stopping.max_seconds, 0.5);
  EXPECT_DOUBLE_EQ(o.stopping.max_noise_pct, 2.0);
  EXPECT_DOUBLE_EQ(o.stopping.min_seconds, 0.05);
  EXPECT_EQ(p.left, (std::vector<std::string>{"sync_bench", "--benchmark_filter=x"}))
      << "min_time is sync_bench's now, not Google Benchmark's";
}

// The anatomy is off unless asked for; a timeline asks for it, unless --anatomy=off (which main
// then refuses with the reason, test_cli.cpp).
TEST(ParseOptions, AnatomyIsOffUnlessAskedForOrATimelineIsWanted) {
  const auto anatomy = [](std::vector<std::string> args) {
    const Parsed p = parse(std::move(args));
    EXPECT_TRUE(p.ok) << p.error;
    return p.options.anatomy;
  };
  EXPECT_FALSE(anatomy({}));
  EXPECT_TRUE(anatomy({"--anatomy=on"}));
  EXPECT_FALSE(anatomy({"--anatomy=off"}));
  EXPECT_TRUE(anatomy({"--anatomy_timeline=t.json"}));
  EXPECT_TRUE(anatomy({"--anatomy_timeline=t.json", "--anatomy=on"}));
  EXPECT_FALSE(anatomy({"--anatomy=off", "--anatomy_timeline=t.json"}));
  EXPECT_FALSE(anatomy({"--anatomy_timeline=t.json", "--anatomy=off"}));
}

TEST(ParseOptions, MinTimeAboveTheBudgetRaisesTheBudget) {
  const Parsed p = parse({"--benchmark_min_time=2"});
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_DOUBLE_EQ(p.options.stopping.min_seconds, 2.0);
  EXPECT_DOUBLE_EQ(p.options.stopping.max_seconds, 2.0);
}

// What the JSON context records: the rule each row was measured by, default or as given.
TEST(ParseOptions, TheStoppingRuleIsDescribedAsGiven) {
  EXPECT_EQ(describe(StoppingRule{}), "min_rounds=8 min_time=0.01s max_time=0.1s max_noise=2%");
  const Parsed p =
      parse({"--benchmark_min_time=2", "--sync_max_noise=0.5", "--sync_min_rounds=20"});
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(describe(p.options.stopping), "min_rounds=20 min_time=2s max_time=2s max_noise=0.5%");
}

TEST(ParseOptions, TakesAnInjectionAndItsFilterInEitherOrder) {
  const Parsed p = parse({"--sync_inject_filter=DeviceSync", "--sync_inject=gpu:10%"});
  ASSERT_TRUE(p.ok) << p.error;
  const Options& o = p.options;
  EXPECT_EQ(o.inject.kind, Injection::Kind::gpu);
  EXPECT_TRUE(o.inject.percent);
  EXPECT_DOUBLE_EQ(o.inject.amount, 10.0);
  EXPECT_EQ(o.inject.filter, "DeviceSync");
  EXPECT_EQ(p.left.size(), 1u);
}

// fail: the chosen benchmarks fail and no step gets a cost; the others run as they are.
TEST(ParseOptions, AnInjectedFailureChoosesItsBenchmarksAndCostsNothing) {
  const Parsed p = parse({"--sync_inject=fail", "--sync_inject_filter=/DeviceSync"});
  ASSERT_TRUE(p.ok) << p.error;
  const Options& o = p.options;
  EXPECT_EQ(o.inject.kind, Injection::Kind::fail);
  EXPECT_TRUE(o.inject.fails("NullKernel/DeviceSync"));
  EXPECT_FALSE(o.inject.fails("NullKernel/Async"));
  EXPECT_EQ(o.inject.seconds_for("NullKernel/DeviceSync", 1e-5), 0.0);
  EXPECT_EQ(o.inject.describe(), "fail");
  std::string error;
  const Injection cost = *parse_injection("host:1us", &error);
  EXPECT_FALSE(cost.fails("NullKernel/DeviceSync")) << "a cost is not a failure";
  EXPECT_DOUBLE_EQ(cost.seconds_for("NullKernel/DeviceSync", 1e-5), 1e-6);
  EXPECT_FALSE(parse_injection("fail:1", &error)) << "fail takes no amount";
}

TEST(ParseOptions, RejectsMalformedMeasurementFlags) {
  for (const char* bad : {"--sync_min_rounds=0", "--sync_min_rounds=x", "--sync_max_time=-1",
                          "--sync_max_time=", "--sync_max_noise=0", "--benchmark_min_time=100x",
                          "--benchmark_min_time=0", "--sync_inject=host", "--sync_inject=cpu:1us",
                          "--sync_inject=host:-1us", "--sync_inject=gpu:abc%",
                          "--sync_inject_filter=(", "--sync_max_time=nan"}) {
    const Parsed p = parse({bad});
    EXPECT_FALSE(p.ok) << bad;
    EXPECT_NE(p.error.find(std::string(bad).substr(0, std::string(bad).find('='))),
              std::string::npos)
        << "the error names the flag: " << p.error;
    EXPECT_EQ(p.error.find("expects expects"), std::string::npos) << p.error;
  }
}

TEST(CountFiltered, FollowsGoogleBenchmarksFilterRules) {
  const std::vector<std::string> names = {"NullKernel/Async/manual_time",
                                          "NullKernel/DeviceSync/manual_time",
                                          "SmallGemm/Async/fp16/cublas/n:512/manual_time"};
  std::string error;
  EXPECT_EQ(count_filtered("", names, &error), 3u);
  EXPECT_EQ(count_filtered("all", names, &error), 3u);
  EXPECT_EQ(count_filtered("Async", names, &error), 2u);
  EXPECT_EQ(count_filtered("^NullKernel/(Async|DeviceSync)$", names, &error), 0u)
      << "names end in /manual_time";
  EXPECT_EQ(count_filtered("-NullKernel", names, &error), 1u);
  EXPECT_EQ(count_filtered("NoSuchThing", names, &error), 0u);
  EXPECT_FALSE(count_filtered("[", names, &error));
  EXPECT_NE(error.find("not a regular expression"), std::string::npos) << error;
}

TEST(OutputWritable, RefusesAMissingFolderAndNamesIt) {
  std::string error;
  EXPECT_TRUE(output_writable("sync_bench_writable_probe.json", &error)) << error;
  EXPECT_FALSE(output_writable("/no/such/folder/x.json", &error));
  EXPECT_NE(error.find("/no/such/folder/"), std::string::npos) << error;
}

}  // namespace
}  // namespace sync_bench
