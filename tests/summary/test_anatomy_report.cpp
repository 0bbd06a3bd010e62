// The step anatomy table of `report`: one row per benchmark with sync_bench's anatomy counters,
// medians of repetitions, the bound as text, in console, markdown and csv; none without them.

#include <gtest/gtest.h>

#include <sstream>

#include "gb_builder.hpp"
#include "test_util.hpp"

namespace sync_summary {
namespace {

using test::contains;
using test::FakeBench;

// The anatomy counters, one value per repetition each.
FakeBench with_anatomy(std::string name, std::vector<double> times,
                       std::map<std::string, std::vector<double>> anatomy) {
  FakeBench b{std::move(name), std::move(times), std::move(anatomy), {}};
  return b;
}

std::string anatomy_run(const std::string& file) {
  return test::write_run(
      testing::TempDir() + file,
      {with_anatomy("SmallGemm/Async/fp16/cublas/n:512", {10.0},
                    {{"anatomy_step_us", {10.5}},
                     {"gpu_active_us", {8.0}},
                     {"gpu_idle_us", {2.5}},
                     {"launch_latency_us", {3.5}},
                     {"host_api_us", {2.5}},
                     {"host_blocked_us", {0.0}},
                     {"host_other_us", {0.5}},
                     {"bound", {0}},
                     {"anatomy_gap_pct", {5.0}}}),
       // Three repetitions: every column is their median (gpu_active 9, bound 2).
       with_anatomy("SmallGemm/DeviceSync/fp16/cublas/n:512", {18.0, 17.0, 30.0},
                    {{"anatomy_step_us", {18.5, 18.0, 19.0}},
                     {"gpu_active_us", {8.0, 9.0, 30.0}},
                     {"gpu_idle_us", {10.5, 9.0, 0.5}},
                     {"launch_latency_us", {4.25, 4.5, 4.0}},
                     {"host_api_us", {2.5, 2.5, 2.5}},
                     {"host_blocked_us", {9.25, 9.5, 9.0}},
                     {"host_other_us", {6.0, 6.0, 6.0}},
                     {"bound", {2, 2, 1}},
                     {"anatomy_gap_pct", {2.0, 5.0, -30.0}}}),
       test::unpaired("NullKernel/Async", {3.0}, 0.0)});  // no anatomy: no row, no table
}

// The lines of the console table titled `title`, header first.
std::vector<std::string> console_table(const std::string& out, const std::string& title) {
  std::istringstream in(out.substr(out.find(title)));
  std::vector<std::string> lines;
  std::string line;
  std::getline(in, line);  // the title
  while (std::getline(in, line) && !line.empty())
    if (line[0] != '-') lines.push_back(line);
  return lines;
}

TEST(AnatomyReport, MarkdownTableHasOneRowPerBenchmarkWithCounters) {
  const auto r = test::run({"report", "--format=markdown", anatomy_run("anatomy_md.json")});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "**SmallGemm fp16 cublas: step anatomy (us per step)**")) << r.out;
  EXPECT_TRUE(contains(r.out,
                       "| n | pattern | step (us) | anatomy (us) | GPU active | GPU idle | "
                       "launch lat. | host API | host blocked | host other | bound |\n"
                       "|---:|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                       "| 512 | Async | 10.00 | 10.50 | 8.000 | 2.500 | 3.500 | 2.500 | 0.000 | "
                       "0.500 | host |\n"
                       "| 512 | DeviceSync | 18.00 | 18.50 | 9.000 | 9.000 | 4.250 | 2.500 | "
                       "9.250 | 6.000 | sync |\n\n"))
      << r.out;
  EXPECT_FALSE(contains(r.out, "NullKernel: step anatomy"));
  EXPECT_TRUE(contains(r.out, "- step anatomy: from a separate traced pass (CUPTI)"));
  // After the family's own table.
  EXPECT_LT(r.out.find("**SmallGemm fp16 cublas: time per step"),
            r.out.find("**SmallGemm fp16 cublas: step anatomy"));
}

TEST(AnatomyReport, ConsoleTableShowsValuesAndBound) {
  const auto r = test::run({"report", anatomy_run("anatomy_console.json")});
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto lines = console_table(r.out, "SmallGemm fp16 cublas: step anatomy (us per step)");
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_TRUE(contains(lines[0], "step (us)  anatomy (us)  GPU active  GPU idle  launch lat."))
      << lines[0];
  const auto cells = [](const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string c; in >> c;) out.push_back(c);
    return out;
  };
  EXPECT_EQ(cells(lines[1]),
            (std::vector<std::string>{"512", "Async", "10.00", "10.50", "8.000", "2.500", "3.500",
                                      "2.500", "0.000", "0.500", "host"}));
  EXPECT_EQ(cells(lines[2]),
            (std::vector<std::string>{"512", "DeviceSync", "18.00", "18.50", "9.000", "9.000",
                                      "4.250", "2.500", "9.250", "6.000", "sync"}));
}

TEST(AnatomyReport, CsvHasTheCountersAndTheBoundAsText) {
  const auto r = test::run({"report", "--format=csv", anatomy_run("anatomy.csv.json")});
  ASSERT_EQ(r.rc, 0) << r.err;
  std::istringstream in(r.out);
  std::string header, async, sync, null_kernel;
  std::getline(in, header);
  std::getline(in, async);
  std::getline(in, sync);
  std::getline(in, null_kernel);
  EXPECT_TRUE(contains(header, ",gpu_active_us,"));
  EXPECT_EQ(header.substr(header.rfind(',')), ",anatomy_bound");
  EXPECT_EQ(async.substr(async.rfind(',')), ",host");
  EXPECT_EQ(sync.substr(sync.rfind(',')), ",sync");
  // The median GPU active time, in its own column (cpu_time and gpu_idle are 9 too).
  EXPECT_EQ(test::csv_cell(r.out, sync, "gpu_active_us"), "9") << sync;
  EXPECT_EQ(null_kernel.substr(null_kernel.rfind(',')), ",");
}

TEST(AnatomyReport, NoTableWithoutTheCounters) {
  for (const char* format : {"--format=console", "--format=markdown", "--format=csv"}) {
    const auto r = test::run({"report", format, test::data_path("gb171_run.json")});
    ASSERT_EQ(r.rc, 0);
    EXPECT_FALSE(contains(r.out, "anatomy")) << format;
  }
}

TEST(AnatomyReport, SeveralRunsShowNoAnatomyTable) {
  const std::string a = anatomy_run("anatomy_a.json"), b = anatomy_run("anatomy_b.json");
  const auto r = test::run({"report", "--format=markdown", a, b});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_FALSE(contains(r.out, "step anatomy"));
  // csv still carries every run's counters and bound.
  const auto csv = test::run({"report", "--format=csv", a, b});
  EXPECT_TRUE(contains(csv.out, ",anatomy_bound\n"));
}

TEST(AnatomyReport, BoundCodesAsText) {
  const auto r =
      test::run({"report", "--format=markdown",
                 test::write_run(testing::TempDir() + "anatomy_bounds.json",
                                 {with_anatomy("NullKernel/Async", {1.0}, {{"gpu_active_us", {1}}}),
                                  with_anatomy("NullKernel/StreamSync", {1.0, 1.0},
                                               {{"gpu_active_us", {1, 1}}, {"bound", {1, 2}}}),
                                  with_anatomy("NullKernel/DeviceSync", {1.0},
                                               {{"gpu_active_us", {1}}, {"bound", {1}}})})});
  ASSERT_EQ(r.rc, 0) << r.err;
  // A missing counter is "-"; the median of disagreeing repetitions is "mixed".
  EXPECT_TRUE(contains(r.out, "| Async | 1.000 | - | 1.000 | - | - | - | - | - | - |")) << r.out;
  EXPECT_TRUE(contains(r.out, "| StreamSync | 1.000 | - | 1.000 | - | - | - | - | - | mixed |"));
  EXPECT_TRUE(contains(r.out, "| DeviceSync | 1.000 | - | 1.000 | - | - | - | - | - | gpu |"));
}

}  // namespace
}  // namespace sync_summary
