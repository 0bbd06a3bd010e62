// Golden outputs: each format of each command on checked-in fixtures, byte for byte, and the SVG
// charts. To rewrite them after an intended change (never by hand):
//   SYNC_SUMMARY_UPDATE_GOLDEN=1 ./build/tests/summary/sync_summary_tests --gtest_filter='Golden*'
// then review the diff of tests/data/golden/ before committing it.

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "test_util.hpp"

namespace sync_summary {
namespace {

namespace fs = std::filesystem;
using test::data_path;
using test::read_file;

bool updating() {
  const char* v = std::getenv("SYNC_SUMMARY_UPDATE_GOLDEN");
  return v && std::string(v) == "1";
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// Runs the CLI from tests/data, so the file names in the output do not depend on the checkout.
test::CliResult run_in_data(const std::vector<std::string>& args) {
  const fs::path old = fs::current_path();
  fs::current_path(SYNC_SUMMARY_TEST_DATA);
  test::CliResult r = test::run(args);
  fs::current_path(old);
  return r;
}

struct GoldenCase {
  const char* golden;
  int rc;
  std::vector<std::string> args;
};

class Golden : public testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, OutputMatches) {
  const GoldenCase& c = GetParam();
  const test::CliResult r = run_in_data(c.args);
  ASSERT_EQ(r.rc, c.rc) << r.err;
  const std::string path = data_path(std::string("golden/") + c.golden);
  if (updating()) {
    write_file(path, r.out);
    GTEST_SKIP() << "rewrote " << path;
  }
  ASSERT_TRUE(fs::exists(path)) << path << " missing: run with SYNC_SUMMARY_UPDATE_GOLDEN=1";
  EXPECT_EQ(r.out, read_file(path)) << "output differs from " << path;
}

INSTANTIATE_TEST_SUITE_P(
    Summary, Golden,
    testing::Values(
        GoldenCase{"report_171.txt", 0, {"report", "gb171_run.json"}},
        GoldenCase{"report_171.md", 0, {"report", "--format=markdown", "gb171_run.json"}},
        GoldenCase{"report_171.csv", 0, {"report", "--format=csv", "gb171_run.json"}},
        GoldenCase{"report_171_reps.txt", 0, {"report", "gb171_reps.json"}},
        GoldenCase{"report_171_aggregates_only.txt", 0, {"report", "gb171_aggregates_only.json"}},
        GoldenCase{"report_183.md", 0, {"report", "--format=markdown", "gb183_run.json"}},
        GoldenCase{"report_183_skipped.txt", 0, {"report", "gb183_skipped.json"}},
        GoldenCase{"report_two_runs.txt", 0, {"report", "gb171_reps.json", "gb171_blocking.json"}},
        GoldenCase{"report_two_runs.md",
                   0,
                   {"report", "--format=markdown", "gb171_reps.json", "gb171_blocking.json"}},
        GoldenCase{"report_two_runs.csv",
                   0,
                   {"report", "--format=csv", "gb171_reps.json", "gb171_blocking.json"}},
        GoldenCase{"dtypes_171.txt", 0, {"dtypes", "gb171_run.json"}},
        GoldenCase{"dtypes_171.md", 0, {"dtypes", "--format=markdown", "gb171_run.json"}},
        GoldenCase{"dtypes_171.csv", 0, {"dtypes", "--format=csv", "gb171_run.json"}},
        GoldenCase{"compare.txt", 1, {"compare", "compare_base.json", "compare_new.json"}},
        GoldenCase{"compare.md",
                   1,
                   {"compare", "--format=markdown", "compare_base.json", "compare_new.json"}},
        GoldenCase{
            "compare.csv", 1, {"compare", "--format=csv", "compare_base.json", "compare_new.json"}},
        // The gb171 fixtures carry no gpu_bound: gated only with --gate=all.
        GoldenCase{"compare_wait_modes.md",
                   1,
                   {"compare", "--format=markdown", "--gate=all", "gb171_reps.json",
                    "gb171_blocking.json"}},
        // Real runs from the H100 (results/h100, Google Benchmark 1.8.3), cut to a few families.
        GoldenCase{
            "report_h100_blocking.md", 0, {"report", "--format=markdown", "h100_blocking.json"}},
        GoldenCase{"report_h100_reps.txt", 0, {"report", "h100_reps_nullkernel.json"}},
        // Made before sync_bench wrote overhead_us and gpu_bound: nothing is gated (exit 2).
        GoldenCase{
            "compare_h100_wait_modes.md",
            2,
            {"compare", "--format=markdown", "h100_auto_subset.json", "h100_blocking.json"}}),
    [](const testing::TestParamInfo<GoldenCase>& info) {
      std::string name = info.param.golden;
      for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name;
    });

TEST(GoldenSvg, ChartsMatch) {
  const std::string dir = testing::TempDir() + "sync_summary_golden_svg";
  fs::remove_all(dir);
  const test::CliResult r =
      run_in_data({"report", "--svg=" + dir, "gb171_reps.json", "gb171_blocking.json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const std::string golden_dir = data_path("golden/svg");
  std::set<std::string> made, golden;
  for (const auto& e : fs::directory_iterator(dir)) made.insert(e.path().filename().string());
  if (updating()) {
    for (const auto& e : fs::directory_iterator(golden_dir)) fs::remove(e.path());
    for (const auto& name : made) write_file(golden_dir + "/" + name, read_file(dir + "/" + name));
    fs::remove_all(dir);
    GTEST_SKIP() << "rewrote " << golden_dir;
  }
  for (const auto& e : fs::directory_iterator(golden_dir))
    golden.insert(e.path().filename().string());
  EXPECT_EQ(made, golden);
  EXPECT_FALSE(made.empty());
  for (const auto& name : made) {
    if (golden.count(name)) {
      EXPECT_EQ(read_file(dir + "/" + name), read_file(golden_dir + "/" + name)) << name;
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sync_summary
