// report and dtypes: the numbers in the tables, their order, bandwidth, speed-up and
// break-even, failures, several runs side by side, labels, csv and charts.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <string_view>

#include "charts.hpp"
#include "dtypes.hpp"
#include "format_number.hpp"
#include "gb_builder.hpp"
#include "gb_json.hpp"
#include "render.hpp"
#include "report.hpp"
#include "run_info.hpp"
#include "test_util.hpp"

namespace sync_summary {
namespace {

using test::contains;
using test::data_path;

std::vector<RunData> load(std::initializer_list<const char*> names) {
  std::vector<RunData> runs;
  for (const char* n : names) runs.push_back(digest(load_run(data_path(n))));
  assign_labels(runs, {});
  return runs;
}

// string_view: see test_benchmarks.cpp's bench().
const Table& table(const Document& doc, std::string_view title) {
  for (const Block& b : doc.blocks)
    if (b.kind == Block::Kind::table && b.table.title == title) return b.table;
  throw std::runtime_error("no table '" + std::string(title) + "'");
}

std::size_t column(const Table& t, const std::string& header, std::size_t nth = 0) {
  for (std::size_t c = 0; c < t.header.size(); ++c)
    if (t.header[c] == header && nth-- == 0) return c;
  throw std::runtime_error("no column '" + header + "' in " + t.title);
}

const std::vector<std::string>& row(const Table& t, std::string_view first_cell) {
  for (const auto& r : t.rows)
    if (!r.empty() && r[0] == first_cell) return r;
  throw std::runtime_error("no row '" + std::string(first_cell) + "' in " + t.title);
}

double real(const RunData& d, const std::string& identity) {
  return d.find(identity)->summary(kRealTime).center;
}

// The header's versions: CUDA's integers (major * 1000 + minor * 10) and cuBLAS's (major * 10000
// + minor * 100 + patch) read out, with the integer beside; other text as written.
TEST(Report, VersionsAreReadOut) {
  EXPECT_EQ(cuda_version_text("13000"), "13.0 (13000)");
  EXPECT_EQ(cuda_version_text("12080"), "12.8 (12080)");
  EXPECT_EQ(cuda_version_text(""), "?");
  EXPECT_EQ(cuda_version_text("13.0"), "13.0");
  EXPECT_EQ(cublas_version_text("130100"), "13.1.0 (130100)");
  EXPECT_EQ(cublas_version_text("120805"), "12.8.5 (120805)");
  EXPECT_EQ(cublas_version_text(""), "?");
  EXPECT_EQ(cublas_version_text("13.1.0"), "13.1.0");
  EXPECT_EQ(cublas_version_text("1301"), "1301");  // too short to be cuBLAS's integer
}

TEST(Report, OverheadAgainstAsyncPerDtypeAndSize) {
  const auto runs = load({"gb171_run.json"});
  const Document doc = build_report(runs, ReportOptions{});
  const Table& t = table(doc, "SmallGemm fp16 cublas: time per step (us), overhead against Async");
  EXPECT_EQ(t.header[0], "n");
  EXPECT_EQ(t.header[1], "Async");
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[0][0], "256");  // sorted by value, not as text
  EXPECT_EQ(t.rows[1][0], "512");
  EXPECT_EQ(t.rows[2][0], "1024");
  const double async = real(runs[0], "SmallGemm/Async/fp16/cublas/n:512");
  const double sync = real(runs[0], "SmallGemm/DeviceSync/fp16/cublas/n:512");
  const auto& r = row(t, "512");
  const std::size_t c = column(t, "DeviceSync");
  EXPECT_EQ(r[1], fmt_value(async));
  EXPECT_EQ(r[c], fmt_value(sync));
  EXPECT_EQ(r[c + 1], fmt_signed(sync - async));
  EXPECT_EQ(r[c + 2], fmt_percent((sync - async) / async));
  EXPECT_EQ(r[c + 1], "+7.001");  // the fake bench adds 7 us to each step
}

TEST(Report, BandwidthTableForCopies) {
  const auto runs = load({"gb171_run.json"});
  const Document doc = build_report(runs, ReportOptions{});
  const Table& t = table(doc, "HostCopy: bandwidth (GB/s)");
  const std::size_t pinned = column(t, "D2H/pinned/memcpy_async");
  const std::size_t pageable = column(t, "D2H/pageable/memcpy_async");
  const auto& r = row(t, "268435456");
  const double gbps = runs[0]
                          .find("HostCopy/D2H/pinned/memcpy_async/bytes:268435456")
                          ->summary(kBytesPerSecond)
                          .center *
                      1e-9;
  EXPECT_EQ(r[pinned], fmt_value(gbps));
  EXPECT_GT(std::stod(r[pinned]), 3 * std::stod(r[pageable]));  // pinned beats pageable
}

TEST(Report, SpeedupAndBreakEvenForGraphs) {
  const auto runs = load({"gb171_run.json"});
  const Document doc = build_report(runs, ReportOptions{});
  const Table& t = table(doc,
                         "GraphReplay: time per step (us), speed-up against Eager, replays to pay "
                         "for Capture");
  EXPECT_EQ(t.header, (std::vector<std::string>{"k", "Eager", "Replay", "speed-up", "Capture",
                                                "break-even"}));
  const auto& d = runs[0];
  const double eager = real(d, "GraphReplay/Eager/k:16");
  const double replay = real(d, "GraphReplay/Replay/k:16");
  const double capture = real(d, "GraphReplay/Capture/k:16");
  const auto& r = row(t, "16");
  EXPECT_EQ(r[3], fmt_speedup(eager / replay));
  EXPECT_EQ(r[5], fmt_value(capture / (eager - replay)));  // replays to pay for making the graph
  EXPECT_EQ(row(t, "1")[5], "never");                      // Replay is slower at k = 1
  // Replay is slower at k=1 and faster at k=4: the crossing by linear interpolation in between.
  const double d1 = real(d, "GraphReplay/Eager/k:1") - real(d, "GraphReplay/Replay/k:1");
  const double d4 = real(d, "GraphReplay/Eager/k:4") - real(d, "GraphReplay/Replay/k:4");
  ASSERT_LT(d1, 0);
  ASSERT_GT(d4, 0);
  const double k = 1 + 3 * d1 / (d1 - d4);
  ASSERT_EQ(t.notes.size(), 1u);
  EXPECT_EQ(t.notes[0], "Replay overtakes Eager at k = " + fmt_value(k) + " (between 1 and 4)");
  // No plain time table for a family that the graph table shows whole.
  for (const Block& b : doc.blocks) EXPECT_NE(b.table.title, "GraphReplay: time per step (us)");
}

TEST(Report, GraphColumnsMatchTheirVariants) {
  const sync_summary::Run run = parse_run(
      R"({"context": {}, "benchmarks": [
        {"name": "GraphReplay/Eager/null_kernel/k:1", "real_time": 4, "time_unit": "us"},
        {"name": "GraphReplay/Replay/null_kernel/k:1", "real_time": 2, "time_unit": "us"},
        {"name": "GraphReplay/Capture/null_kernel/k:1", "real_time": 10, "time_unit": "us"},
        {"name": "GraphReplay/Eager/fp16/cublas/n:512/k:1", "real_time": 8, "time_unit": "us"},
        {"name": "GraphReplay/Replay/fp16/cublas/n:512/k:1", "real_time": 9, "time_unit": "us"}]})",
      "t.json");
  std::vector<RunData> runs;
  runs.push_back(digest(run));
  const Document doc = build_report(runs, ReportOptions{});
  const Table& nk = table(doc,
                          "GraphReplay (null_kernel): time per step (us), speed-up against "
                          "Eager, replays to pay for Capture");
  EXPECT_EQ(nk.rows[0],
            (std::vector<std::string>{"1", "4.000", "2.000", "2.00x", "10.00", "5.000"}));
  const Table& gemm =
      table(doc, "GraphReplay fp16 cublas: time per step (us), speed-up against Eager");
  EXPECT_EQ(gemm.rows[0], (std::vector<std::string>{"512", "1", "8.000", "9.000", "0.89x"}));
}

TEST(Report, FailuresAreListedNotDropped) {
  const auto runs = load({"gb171_run.json"});
  const Document doc = build_report(runs, ReportOptions{});
  const Table& p = table(doc, "Errored or skipped benchmarks");
  ASSERT_EQ(p.rows.size(), 1u);
  EXPECT_EQ(p.rows[0],
            (std::vector<std::string>{"SmallGemm/DeviceSync/fp8/cublaslt/n:512", "error",
                                      "fp8 GEMMs need compute capability 8.9 or newer"}));
  EXPECT_EQ(row(table(doc, "SmallGemm fp8 cublaslt: time per step (us)"), "512")[1], "error");

  const Document skipped = build_report(load({"gb183_skipped.json"}), ReportOptions{});
  const Table& ps = table(skipped, "Errored or skipped benchmarks");
  EXPECT_EQ(ps.rows.size(), 2u);
  EXPECT_EQ(row(ps, "NullKernel/DeviceSync")[1], "skipped");
  EXPECT_EQ(row(ps, "NullKernel/StreamSync")[1], "error");
}

TEST(Report, RepetitionsShowMedianAndSpread) {
  const auto runs = load({"gb171_reps.json"});
  const Document doc = build_report(runs, ReportOptions{});
  const Table& t = table(doc, "NullKernel: time per step (us), overhead against Async");
  const Summary s = runs[0].find("NullKernel/DeviceSync")->summary(kRealTime);
  EXPECT_EQ(t.rows[0][column(t, "DeviceSync")], fmt_summary(s));
  EXPECT_TRUE(contains(fmt_summary(s), " ±"));
  std::ostringstream out;
  render_console(doc, out);
  EXPECT_TRUE(contains(out.str(), "repetitions: median of each benchmark's repetitions"));
}

TEST(Report, SeveralRunsSideBySide) {
  const auto runs = load({"gb171_reps.json", "gb171_blocking.json"});
  const Document doc = build_report(runs, ReportOptions{});
  const Table& runs_t = table(doc, "Runs");
  EXPECT_EQ(runs_t.rows[0][0], "gb171_reps");
  EXPECT_EQ(runs_t.rows[1][0], "gb171_blocking");
  EXPECT_EQ(runs_t.rows[1][5], "blocking");
  const Table& t = table(doc, "SmallGemm fp16 cublas: time per step (us), overhead against Async");
  EXPECT_EQ(t.header, (std::vector<std::string>{"n", "pattern", "gb171_reps", "gb171_reps +%",
                                                "gb171_blocking", "gb171_blocking +%"}));
  ASSERT_EQ(t.rows.size(), 9u);  // 3 sizes x 3 patterns
  EXPECT_EQ(t.rows[1][0], "256");
  EXPECT_EQ(t.rows[1][1], "DeviceSync");
  EXPECT_EQ(
      t.rows[1][4],
      fmt_summary(runs[1].find("SmallGemm/DeviceSync/fp16/cublas/n:256")->summary(kRealTime)));
}

TEST(Report, LabelsFromFileContextOrFlag) {
  std::vector<RunData> runs(2);
  runs[0].run.source = "a/run.json";
  runs[1].run.source = "b/run.json";
  runs[0].run.context["host_wait_mode"] = "spin";
  runs[1].run.context["host_wait_mode"] = "blocking";
  assign_labels(runs, {});
  EXPECT_EQ(runs[0].label, "spin");
  EXPECT_EQ(runs[1].label, "blocking");
  runs[1].run.context["host_wait_mode"] = "spin";
  assign_labels(runs, {});
  EXPECT_EQ(runs[0].label, "run#1");
  EXPECT_EQ(runs[1].label, "run#2");
  assign_labels(runs, {"before", "after"});
  EXPECT_EQ(runs[0].label, "before");
  runs[0].run.source = "x/h100.json";
  runs[1].run.source = "y/h200.json";
  assign_labels(runs, {});
  EXPECT_EQ(runs[0].label, "h100");
  EXPECT_EQ(runs[1].label, "h200");
}

TEST(Report, CsvHasOneRowPerBenchmarkWithFullPrecision) {
  const auto runs = load({"gb171_run.json"});
  const Document doc = build_report(runs, ReportOptions{});
  EXPECT_EQ(doc.tidy.rows.size(), 71u);
  const auto& h = doc.tidy.header;
  const auto col = [&](const char* name) {
    return static_cast<std::size_t>(std::find(h.begin(), h.end(), name) - h.begin());
  };
  for (const auto& r : doc.tidy.rows) {
    if (r[col("benchmark")] != "SmallGemm/DeviceSync/fp16/cublas/n:512") continue;
    const double async = real(runs[0], "SmallGemm/Async/fp16/cublas/n:512");
    const double sync = real(runs[0], "SmallGemm/DeviceSync/fp16/cublas/n:512");
    EXPECT_DOUBLE_EQ(std::stod(r[col("overhead_pct")]), (sync - async) / async * 100.0);
    EXPECT_DOUBLE_EQ(std::stod(r[col("median")]), sync);
    EXPECT_EQ(r[col("dtype")], "fp16");
    EXPECT_EQ(r[col("time_unit")], "us");  // the file's ns, read into us as every time is
    EXPECT_EQ(r[col("batch")], "16");
    return;
  }
  FAIL() << "row not found";
}

// The time_unit column names the unit of the row's numbers, not the one the JSON wrote: a run in
// ms says us beside 2300, not ms (which read as 2.3 s).
TEST(Report, CsvTimeUnitIsTheUnitOfItsNumbers) {
  const auto runs = load({"gb183_skipped.json"});
  const Document doc = build_report(runs, ReportOptions{});
  const auto& h = doc.tidy.header;
  const auto col = [&](const char* name) {
    return static_cast<std::size_t>(std::find(h.begin(), h.end(), name) - h.begin());
  };
  bool seen = false;
  for (const auto& r : doc.tidy.rows) {
    EXPECT_EQ(r[col("time_unit")], "us") << r[col("benchmark")];
    if (r[col("benchmark")] != "BigGemm/Async/tf32/cublas/n:8192") continue;
    EXPECT_DOUBLE_EQ(std::stod(r[col("median")]), 2200.0);  // 2.2 ms in the file
    seen = true;
  }
  EXPECT_TRUE(seen);
}

TEST(Report, LargeGroupsAreShownLong) {
  std::string json = "{\"context\": {}, \"benchmarks\": [";
  for (int p = 0; p < 150; ++p)
    for (int n = 0; n < 150; ++n)
      json += std::string(p || n ? "," : "") + "{\"name\": \"F/P" + std::to_string(p) +
              "/n:" + std::to_string(n) +
              "\", \"real_time\": 1, \"cpu_time\": 1, \"time_unit\": \"us\"}";
  json += "]}";
  std::vector<RunData> runs;
  runs.push_back(digest(parse_run(json, "big.json")));
  const Document doc = build_report(runs, ReportOptions{});
  const Table& t = table(doc, "F: time per step (us)");
  EXPECT_EQ(t.header[1], "pattern");
  EXPECT_EQ(t.rows.size(), 150u * 150u);
}

// fp8, measured (cuBLASLt only), stands beside the other dtypes of its backend, in the dtype
// order, with its own paired overhead.
TEST(Dtypes, Fp8MeasuredStandsBesideTheOthers) {
  std::vector<test::FakeBench> b;
  const double overhead[] = {7.0, 7.5, 9.0, 8.0, 6.0};
  const char* const dtypes[] = {"fp8", "tf32", "fp32", "bf16", "fp16"};  // out of order on purpose
  for (int i = 0; i < 5; ++i) {
    const std::string d = dtypes[i];
    b.push_back(test::unpaired("SmallGemm/Async/" + d + "/cublaslt/n:512", {10.0}, 0.0));
    b.push_back(test::paired("SmallGemm/DeviceSync/" + d + "/cublaslt/n:512", {overhead[i]}, 10.0));
  }
  std::vector<RunData> runs;
  runs.push_back(digest(load_run(test::write_run(testing::TempDir() + "fp8_dtypes.json", b))));
  assign_labels(runs, {});
  const Document doc = build_dtypes(runs, ReportOptions{});
  const Table& t = table(doc,
                         "SmallGemm cublaslt: DeviceSync, time per step (us) and overhead "
                         "against Async, by dtype");
  EXPECT_EQ(t.header, (std::vector<std::string>{"n", "fp16", "fp16 +%", "bf16", "bf16 +%", "fp32",
                                                "fp32 +%", "tf32", "tf32 +%", "fp8", "fp8 +%"}));
  EXPECT_EQ(row(t, "512")[column(t, "fp8")], fmt_value(17.0));
  EXPECT_EQ(row(t, "512")[column(t, "fp8 +%")], fmt_percent(0.7));
  EXPECT_EQ(row(t, "512")[column(t, "fp16 +%")], fmt_percent(0.6));
}

TEST(Dtypes, DtypesSideBySide) {
  const auto runs = load({"gb171_run.json"});
  const Document doc = build_dtypes(runs, ReportOptions{});
  const Table& t = table(doc,
                         "SmallGemm cublas: DeviceSync, time per step (us) and overhead against "
                         "Async, by dtype");
  EXPECT_EQ(t.header, (std::vector<std::string>{"n", "fp16", "fp16 +%", "bf16", "bf16 +%", "fp32",
                                                "fp32 +%", "tf32", "tf32 +%"}));
  const double async = real(runs[0], "SmallGemm/Async/fp32/cublas/n:1024");
  const double sync = real(runs[0], "SmallGemm/DeviceSync/fp32/cublas/n:1024");
  EXPECT_EQ(row(t, "1024")[6], fmt_percent((sync - async) / async));
  // The fp8 group (cublaslt, errored) gets its own table with an error cell.
  const Table& fp8 = table(doc,
                           "SmallGemm cublaslt: DeviceSync, time per step (us) and overhead "
                           "against Async, by dtype");
  EXPECT_EQ(row(fp8, "512")[1], "error");
  EXPECT_EQ(doc.tidy.rows.size(), 2u * 3u * 4u + 1u);
}

TEST(Charts, OverheadPerDtypeAndBandwidth) {
  const auto runs = load({"gb171_run.json"});
  const auto charts = build_charts(runs, std::string(kRealTime));
  std::vector<std::string> names;
  for (const auto& [name, chart] : charts) names.push_back(name);
  EXPECT_NE(std::find(names.begin(), names.end(), "overhead-SmallGemm_cublas_DeviceSync.svg"),
            names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "bandwidth-HostCopy.svg"), names.end());
  for (const auto& [name, chart] : charts) {
    if (name == "overhead-SmallGemm_cublas_DeviceSync.svg") {
      ASSERT_EQ(chart.series.size(), 4u);
      EXPECT_EQ(chart.series[0].label, "fp16");
      EXPECT_EQ(chart.series[3].label, "tf32");
      EXPECT_EQ(chart.series[0].points.size(), 3u);
      EXPECT_TRUE(chart.log_x);
      const std::string svg = render_svg(chart);
      EXPECT_EQ(svg.rfind("<svg", 0), 0u);
      EXPECT_TRUE(contains(svg, "</svg>"));
      EXPECT_TRUE(contains(svg, ">fp32</text>"));
      EXPECT_TRUE(contains(svg, "(log scale)"));
    }
    if (name == "bandwidth-HostCopy.svg") {
      EXPECT_EQ(chart.series.size(), 4u);
    }
  }
}

// y values near double's limits: a tick for each whole step where the bounds are finite, none
// where one overflows (a loop that added steps to an infinite bound once never ended).
TEST(Charts, YTicksNearDoublesLimits) {
  const auto y_ticks = [](const std::vector<std::pair<double, double>>& points) {
    Chart chart;
    chart.log_x = false;
    chart.series.push_back({"a", points});
    const std::string svg = render_svg(chart);
    std::size_t n = 0;
    for (std::size_t at = svg.find("text-anchor=\"end\""); at != std::string::npos;
         at = svg.find("text-anchor=\"end\"", at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(y_ticks({{1.0, 0.0}, {2.0, 10.0}}), 6u);        // 0, 2, ..., 10
  EXPECT_EQ(y_ticks({{1.0, -1e308}, {2.0, 0.7e308}}), 5u);  // -1e308 ... 1e308 by 5e307
  EXPECT_EQ(y_ticks({{1.0, 1.7e308}}), 0u);                 // the top bound overflows
  EXPECT_EQ(y_ticks({{1.0, -1.7e308}}), 0u);
}

// A chart plots the overhead the tables print: the paired overhead_us over its own baseline_us
// where sync_bench measured one, not the row's time against the Async row of another moment.
TEST(Charts, OverheadIsThePairedOneTheTablesPrint) {
  const std::string file =
      test::write_run(testing::TempDir() + "chart_paired.json",
                      {test::unpaired("SmallGemm/Async/fp16/cublas/n:512", {10.0}, 0.0),
                       test::unpaired("SmallGemm/Async/fp16/cublas/n:1024", {20.0}, 0.0),
                       test::paired("SmallGemm/DeviceSync/fp16/cublas/n:512", {3.0}, 12.0),
                       test::paired("SmallGemm/DeviceSync/fp16/cublas/n:1024", {4.0}, 16.0)});
  std::vector<RunData> runs;
  runs.push_back(digest(load_run(file)));
  assign_labels(runs, {});
  const auto charts = build_charts(runs, std::string(kRealTime));
  const auto it = std::find_if(charts.begin(), charts.end(), [](const auto& c) {
    return c.first == "overhead-SmallGemm_cublas_DeviceSync.svg";
  });
  ASSERT_NE(it, charts.end());
  ASSERT_EQ(it->second.series.size(), 1u);
  const auto& points = it->second.series[0].points;
  ASSERT_EQ(points.size(), 2u);
  // Unpaired, these would be (15 - 10) / 10 = 50% and (20 - 20) / 20 = 0%.
  EXPECT_DOUBLE_EQ(points[0].second, 3.0 / 12.0 * 100.0);
  EXPECT_DOUBLE_EQ(points[1].second, 4.0 / 16.0 * 100.0);

  // The report's +% for the same row is the same number.
  const Document doc = build_report(runs, ReportOptions{});
  const Table& t = table(doc, "SmallGemm fp16 cublas: time per step (us), overhead against Async");
  EXPECT_EQ(row(t, "512")[column(t, "+%")], fmt_percent(points[0].second / 100.0));
  EXPECT_EQ(row(t, "1024")[column(t, "+%")], fmt_percent(points[1].second / 100.0));
}

// A time that is not a finite positive number is bad input for every command: exit 2, the row
// named, and no table with a number made of it.
TEST(Report, BadTimesAreRefused) {
  for (const double bad : {std::nan(""), -3.0, 1e308, HUGE_VAL, 0.0}) {
    const std::string file =
        test::write_run(testing::TempDir() + "bad_times.json",
                        {test::unpaired("SmallGemm/Async/fp32/cublas/n:512", {12.5}, 0.0),
                         test::unpaired("SmallGemm/DeviceSync/bf16/cublas/n:512", {bad}, 0.0)});
    for (const char* cmd : {"report", "dtypes"}) {
      const auto r = test::run({cmd, file});
      EXPECT_EQ(r.rc, 2) << cmd << " " << bad << ": " << r.out;
      EXPECT_TRUE(test::contains(r.err, ": SmallGemm/DeviceSync/bf16/cublas/n:512: real_time is "))
          << cmd << " " << bad << ": " << r.err;
      EXPECT_EQ(r.out, "") << cmd << " " << bad;
    }
  }
}

// Control characters from the file (names, labels, context, messages) never reach the terminal
// raw: they are written as \xNN; UTF-8 text passes unchanged.
TEST(Report, ControlCharactersAreEscaped) {
  EXPECT_EQ(printable("a\x1b[2Jb\x07\r\n\x7f"), "a\\x1b[2Jb\\x07\\x0d\\x0a\\x7f");
  EXPECT_EQ(printable("\xc2\x9b"
                      "31m"),
            "\\x9b31m");  // C1 CSI
  EXPECT_EQ(printable("12.3 \xc2\xb1"
                      "1.0%"),
            "12.3 \xc2\xb1"
            "1.0%");  // the ± sign stays
  const std::string dir = testing::TempDir();
  const std::string ctx = test::write_run(
      dir + "control_ctx.json", {test::paired("NullKernel/DeviceSync", {5.0})},
      {{"gpu_name", "GPU\\u001b]0;title\\u0007"}, {"host_wait_mode", "spin\\u001b[2J"}});
  for (const char* cmd : {"report", "dtypes"}) {
    for (const char* format : {"console", "markdown", "csv"}) {
      const auto r = test::run({cmd, std::string("--format=") + format, ctx});
      EXPECT_EQ(r.rc, 0) << r.err;
      EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << cmd << " " << format;
      EXPECT_EQ(r.out.find('\x07'), std::string::npos) << cmd << " " << format;
    }
  }
  EXPECT_TRUE(test::contains(test::run({"report", ctx}).out, "GPU\\x1b]0;title\\x07"));
  const std::string other =
      test::write_run(dir + "control_ctx2.json", {test::paired("NullKernel/DeviceSync", {5.0})},
                      {{"host_wait_mode", "spin\\u001b[2J"}});
  const auto cmp = test::run({"compare", ctx, other});
  EXPECT_EQ(cmp.err.find('\x1b'), std::string::npos) << cmp.err;  // the context warning
  EXPECT_EQ(cmp.out.find('\x1b'), std::string::npos);
  // A name the grammar refuses is quoted in the error message, escaped.
  const std::string name = test::write_run(dir + "control_name.json",
                                           {test::paired("NullKernel/Async\\u001b[31mX", {5.0})});
  const auto bad = test::run({"report", name});
  EXPECT_EQ(bad.rc, 2);
  EXPECT_EQ(bad.err.find('\x1b'), std::string::npos) << bad.err;
  EXPECT_TRUE(test::contains(bad.err, "Async\\x1b[31mX")) << bad.err;
}

// MultiGpu (a trimmed results/h200x2/multigpu-1.json): its patterns take unrelated args
// (CrossDevice none, PeerCopy bytes, SyncAll devices), so each is its own group and its tables
// have only its own args: no empty arg rows or columns. CrossDevice has no Async row: its +us and
// +% are the paired overhead_us (% of baseline_us); PeerCopy shows GB/s per bytes.
TEST(Report, FamilySplitsIntoPatternsWithUnrelatedArgs) {
  std::vector<RunData> runs;
  runs.push_back(digest(load_run(std::string(SYNC_SUMMARY_FIXTURES) + "/h200x2_multigpu.json")));
  assign_labels(runs, {});
  const Document doc = build_report(runs, ReportOptions{});

  std::vector<std::string> titles;
  for (const Block& b : doc.blocks) {
    if (b.kind != Block::Kind::table || b.table.title.rfind("MultiGpu", 0) != 0) continue;
    const Table& t = b.table;
    titles.push_back(t.title);
    for (std::size_t c = 0; c < t.header.size(); ++c) {
      const bool empty =
          std::all_of(t.rows.begin(), t.rows.end(), [&](const auto& r) { return r[c].empty(); });
      EXPECT_FALSE(empty) << t.title << ": column '" << t.header[c] << "' is empty";
    }
    for (const auto& r : t.rows)
      EXPECT_FALSE(std::all_of(r.begin(), r.end(), [](const auto& x) { return x.empty(); }))
          << t.title << ": an empty row";
  }
  // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): the first title is two joined literals
  EXPECT_EQ(titles, (std::vector<std::string>{"MultiGpu CrossDevice: time per step (us), paired "
                                              "overhead against each pattern's baseline",
                                              "MultiGpu CrossDevice: step anatomy (us per step)",
                                              "MultiGpu PeerCopy: bandwidth (GB/s)",
                                              "MultiGpu PeerCopy: step anatomy (us per step)",
                                              "MultiGpu SyncAll: time per step (us)",
                                              "MultiGpu SyncAll: step anatomy (us per step)"}));

  const Table& cross = table(doc, titles[0]);
  EXPECT_EQ(cross.header,
            (std::vector<std::string>{"event_wait", "+us", "+%", "host_wait", "+us", "+%"}));
  ASSERT_EQ(cross.rows.size(), 1u);
  const Bench* event = runs[0].find("MultiGpu/CrossDevice/event_wait");
  ASSERT_NE(event, nullptr);
  const double overhead = event->summary("overhead_us").center;
  EXPECT_EQ(cross.rows[0][0], fmt_value(event->summary(kRealTime).center));
  EXPECT_EQ(cross.rows[0][1], fmt_signed(overhead));
  EXPECT_EQ(cross.rows[0][2], fmt_percent(overhead / event->summary("baseline_us").center));
  EXPECT_EQ(cross.rows[0][1], "+1.955");
  EXPECT_EQ(cross.rows[0][5], "+60.1%");  // host_wait: 6.499 over its 10.82 us baseline

  const Table& peer = table(doc, "MultiGpu PeerCopy: bandwidth (GB/s)");
  EXPECT_EQ(peer.header, (std::vector<std::string>{"bytes", "peer_on", "peer_off", "staged"}));
  ASSERT_EQ(peer.rows.size(), 2u);
  EXPECT_EQ(peer.rows[0][0], "4096");
  EXPECT_EQ(row(peer, "268435456")[column(peer, "peer_on")], "394.4");
  EXPECT_EQ(row(peer, "268435456")[column(peer, "staged")], "27.66");
  EXPECT_EQ(table(doc, "MultiGpu PeerCopy: step anatomy (us per step)").header[0], "bytes");
  EXPECT_EQ(table(doc, "MultiGpu CrossDevice: step anatomy (us per step)").header[0], "pattern");

  const Table& sync = table(doc, "MultiGpu SyncAll: time per step (us)");
  EXPECT_EQ(sync.header, (std::vector<std::string>{"devices", "device_sync_each", "event_each"}));
  EXPECT_EQ(row(sync, "2")[1], "14.14");
  EXPECT_EQ(row(sync, "4"), (std::vector<std::string>{"4", "skipped", "skipped"}));
  const Table& problems = table(doc, "Errored or skipped benchmarks");
  EXPECT_EQ(problems.rows.size(), 2u);
  EXPECT_EQ(row(problems, "MultiGpu/SyncAll/event_each/devices:4")[1], "skipped");
}

// MultiGpu on one GPU named twice (results/h200/same_gpu/call1/new-1.json as it is): SyncAll is
// paired since then, so its table gives each pattern's +us and +% as CrossDevice's does.
TEST(Report, PairedSyncAllShowsItsOverheads) {
  std::vector<RunData> runs;
  runs.push_back(
      digest(load_run(std::string(SYNC_SUMMARY_FIXTURES) + "/h200_same_gpu_multigpu.json")));
  assign_labels(runs, {});
  const Document doc = build_report(runs, ReportOptions{});
  const Table& sync = table(
      doc, "MultiGpu SyncAll: time per step (us), paired overhead against each pattern's baseline");
  EXPECT_EQ(sync.header, (std::vector<std::string>{"devices", "device_sync_each", "+us", "+%",
                                                   "event_each", "+us", "+%"}));
  ASSERT_EQ(sync.rows.size(), 1u);
  const Bench* each = runs[0].find("MultiGpu/SyncAll/device_sync_each/devices:2");
  ASSERT_NE(each, nullptr);
  const double overhead = each->summary("overhead_us").center;
  EXPECT_EQ(sync.rows[0][2], fmt_signed(overhead));
  EXPECT_EQ(sync.rows[0][3], fmt_percent(overhead / each->summary("baseline_us").center));
  EXPECT_EQ(sync.rows[0][2], "+6.899");
  EXPECT_EQ(sync.rows[0][6], "+60.3%");  // event_each: 5.175 over its 8.580 us baseline
}

// MultiGpu/DataParallel (results/h200x2/dataparallel-1.json as it is): its rows have a dtype and
// backend, so they make their own table beside the other MultiGpu groups, one row per (n, every);
// the reads' +us and +% are their paired overhead against the step that never reads.
TEST(Report, DataParallelRowsArePairedWithTheStepThatNeverReads) {
  std::vector<RunData> runs;
  runs.push_back(
      digest(load_run(std::string(SYNC_SUMMARY_FIXTURES) + "/h200x2_dataparallel.json")));
  assign_labels(runs, {});
  const Document doc = build_report(runs, ReportOptions{});
  const Table& t =
      table(doc,
            "MultiGpu bf16 cublaslt: time per step (us), paired overhead against each pattern's "
            "baseline");
  EXPECT_EQ(t.header, (std::vector<std::string>{"n", "every", "DataParallel/no_read",
                                                "DataParallel/loss_read", "+us", "+%"}));
  ASSERT_EQ(t.rows.size(), 6u);
  const Bench* each = runs[0].find("MultiGpu/DataParallel/loss_read/bf16/cublaslt/n:1024/every:1");
  ASSERT_NE(each, nullptr);
  const double overhead = each->summary("overhead_us").center;
  EXPECT_EQ(t.rows[1],
            (std::vector<std::string>{
                "1024", "1", "", fmt_value(each->summary(kRealTime).center), fmt_signed(overhead),
                fmt_percent(overhead / each->summary("baseline_us").center)}));
  EXPECT_EQ(t.rows[1][4], "+18.91");
  EXPECT_EQ(t.rows[0][0], "1024");
  EXPECT_EQ(t.rows[0][1], "") << "the step that never reads has no every";
  EXPECT_EQ(t.rows[0][4], "") << "nor an overhead of its own";
  EXPECT_EQ(table(doc, "MultiGpu bf16 cublaslt: step anatomy (us per step)").rows.size(), 6u);
}

// Patterns that share an arg key stay in one table (SyncEvery: Fit has n, StreamSync n and k), as
// does the Async baseline with its patterns; a family splits only where the args have nothing in
// common.
TEST(Report, PatternsSharingAnArgStayTogether) {
  const std::string file = test::write_run(
      testing::TempDir() + "shared_args.json",
      {test::paired("SyncEvery/StreamSync/fp16/cublas/n:512/k:2", {4.0}),
       test::paired("SyncEvery/Fit/fp16/cublas/n:512", {8.0}),
       test::unpaired("Split/Async", {2.0}, 0.0), test::paired("Split/DeviceSync", {5.0}),
       test::unpaired("Split/Copy/bytes:4096", {3.0}, 1.0)});
  std::vector<RunData> runs;
  runs.push_back(digest(load_run(file)));
  const std::vector<Group> groups = build_groups(runs);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].title(), "SyncEvery fp16 cublas");
  EXPECT_EQ(groups[0].arg_keys, (std::vector<std::string>{"n", "k"}));
  EXPECT_EQ(groups[1].title(), "Split Async + DeviceSync");
  EXPECT_TRUE(groups[1].has_baseline);
  EXPECT_TRUE(groups[1].arg_keys.empty());
  EXPECT_EQ(groups[2].title(), "Split Copy");
  EXPECT_EQ(groups[2].arg_keys, (std::vector<std::string>{"bytes"}));
  EXPECT_EQ(groups[2].label(0), "Copy");

  // No Async column: the paired overhead is shown where a pattern measured one.
  const Document doc = build_report(runs, ReportOptions{});
  const Table& t = table(
      doc,
      "SyncEvery fp16 cublas: time per step (us), paired overhead against each pattern's baseline");
  EXPECT_EQ(row(t, "512")[column(t, "+us")], "");  // StreamSync has no n:512 row without k
  EXPECT_EQ(row(t, "512")[column(t, "+us", 1)], "+8.000");
}

// The header says how fast the host's core ran when the run measured it, and a compare of two
// runs whose hosts ran far apart says so.
TEST(Report, HeaderShowsTheHostClock) {
  const std::string dir = testing::TempDir();
  const auto file = [&](const char* name, const char* clock) {
    return test::write_run(dir + name, {test::paired("NullKernel/DeviceSync", {5.0})},
                           {{"host_clock_ghz", clock}});
  };
  const std::string fast = file("clock_fast.json", "2.97"), slow = file("clock_slow.json", "2.41");
  EXPECT_TRUE(contains(test::run({"report", fast}).out,
                       "host wait mode: spin, host clock 2.97 GHz (measured at start)"));
  const auto cmp = test::run({"compare", fast, slow});
  EXPECT_TRUE(contains(cmp.err,
                       "warning: runs differ in host_clock_ghz: '2.97' vs '2.41' "
                       "(NEW's core slower, 23% apart)"))
      << cmp.err;
  EXPECT_TRUE(contains(cmp.out, "host_clock_ghz: '2.97' vs '2.41'")) << cmp.out;
}

// A run from a copy without .git names its build only by the source fingerprint: the header shows
// it, and a run from before the fingerprint shows the version alone.
TEST(Report, HeaderNamesTheSourceFingerprintWhereTheRunHasOne) {
  const std::string dir = testing::TempDir();
  const std::string with =
      test::write_run(dir + "source_with.json", {test::paired("NullKernel/DeviceSync", {5.0})},
                      {{"sync_bench_source", "0123456789abcdef"}});
  const std::string without =
      test::write_run(dir + "source_without.json", {test::paired("NullKernel/DeviceSync", {5.0})});
  const auto a = test::run({"report", with}), b = test::run({"report", without});
  ASSERT_EQ(a.rc, 0) << a.err;
  ASSERT_EQ(b.rc, 0) << b.err;
  EXPECT_TRUE(contains(a.out, " (source 0123456789abcdef, scripts/source_hash.sh)")) << a.out;
  EXPECT_FALSE(contains(b.out, "(source ")) << b.out;
}

// The Async row ran at 10 us; the pattern's own interleaved baseline at 8 us, with a paired
// overhead of 3 us, and its step at 11 us. Unpaired, the csv and dtypes said +1 us (+10%) where
// the console report says +3 us (+37.5%): every output now gives the paired overhead.
TEST(Report, CsvAndDtypesGiveThePairedOverheadAsTheConsoleDoes) {
  const std::string file = test::write_run(
      testing::TempDir() + "paired_vs_rows.json",
      {test::unpaired("SmallGemm/Async/fp16/cublas/n:512", {10.0}, 0.0),
       test::paired_processes("SmallGemm/DeviceSync/fp16/cublas/n:512", {8.0}, {3.0})});
  const auto console = test::run({"report", file});
  ASSERT_EQ(console.rc, 0) << console.err;
  EXPECT_TRUE(contains(console.out, "+37.5%")) << console.out;

  const auto report = test::run({"report", "--format=csv", file});
  ASSERT_EQ(report.rc, 0) << report.err;
  EXPECT_EQ(test::csv_cell(report.out, ",SmallGemm/DeviceSync/", "overhead"), "3");
  EXPECT_EQ(test::csv_cell(report.out, ",SmallGemm/DeviceSync/", "overhead_pct"), "37.5");
  EXPECT_EQ(test::csv_cell(report.out, ",SmallGemm/DeviceSync/", "async_median"), "10");

  const auto dtypes = test::run({"dtypes", "--format=csv", file});
  ASSERT_EQ(dtypes.rc, 0) << dtypes.err;
  EXPECT_EQ(test::csv_cell(dtypes.out, ",DeviceSync,", "overhead_pct"), "37.5") << dtypes.out;
  const auto dtypes_console = test::run({"dtypes", file});
  EXPECT_TRUE(contains(dtypes_console.out, "+37.5%")) << dtypes_console.out;
}

constexpr std::string_view kRunTimeTitle =
    "Where the run's time went (wall_s: each benchmark's wall time, untimed passes included)";

// The report's run-time table of `files` labelled `labels` (a copy: its document is gone).
Table run_time_of(const std::vector<std::string>& files, const std::vector<std::string>& labels) {
  std::vector<RunData> runs;
  for (const std::string& f : files) runs.push_back(digest(load_run(f)));
  assign_labels(runs, labels);
  return table(build_report(runs, ReportOptions{}), kRunTimeTitle);
}

// The wall_s counter summed by family, the most expensive first, then the run's total, with the
// share in timed batches (steps x the step, and x the paired baseline) of the rows that have steps;
// a bad value is left out and said, and a run from before the counter is named beside one that
// has it (alone, it gets no table).
TEST(Report, RunTimeTableSumsEachFamilysWallTime) {
  auto with = [](test::FakeBench b, double wall, double steps) {
    b.counters["wall_s"] = {wall};
    if (steps > 0) b.counters["steps"] = {steps};
    return b;
  };
  const std::string file = test::write_run(
      testing::TempDir() + "run_time.json",
      {with(test::unpaired("NullKernel/Async", {3.0}, 0.0), 0.25, 50000),  // 0.15 s timed
       with(test::paired("NullKernel/DeviceSync", {5.0}), 0.5, 25000),     // (7 + 2 us): 0.225 s
       with(test::unpaired("BigGemm/Async/bf16/cublas/n:8192", {900.0}, 1.0), 1.5, 1000),
       with(test::unpaired("BigGemm/Async/bf16/cublas/n:4096", {120.0}, 1.0), 0.5, 0),
       test::unpaired("SmallGemm/Async/fp16/cublas/n:512", {7.0}, 0.0),  // an older row
       with(test::unpaired("SpinKernel/Async/us:10", {10.0}, 1.0), NAN, 0),
       test::failing("SmallGemm/DeviceSync/fp8/cublaslt/n:512", "no fp8")});
  const Table t = run_time_of({file}, {});
  EXPECT_EQ(t.header, (std::vector<std::string>{"family", "benchmarks", "wall (s)", "share (%)",
                                                "timed (%)", "slowest", "its wall (s)"}));
  ASSERT_EQ(t.rows.size(), 3u);
  // BigGemm: 0.9 s timed of the 1.5 s of the one row with steps.
  EXPECT_EQ(t.rows[0], (std::vector<std::string>{"BigGemm", "2", "2.0", "72.7", "60",
                                                 "BigGemm/Async/bf16/cublas/n:8192", "1.50"}));
  EXPECT_EQ(t.rows[1], (std::vector<std::string>{"NullKernel", "2", "0.8", "27.3", "50",
                                                 "NullKernel/DeviceSync", "0.50"}));
  EXPECT_EQ(t.rows[2], (std::vector<std::string>{"all", "4", "2.8", "100.0", "57",
                                                 "BigGemm/Async/bf16/cublas/n:8192", "1.50"}));
  ASSERT_EQ(t.notes.size(), 3u);
  EXPECT_TRUE(contains(t.notes[0], "timed: the share of the wall")) << t.notes[0];
  // One run: its problems name no run.
  EXPECT_EQ(t.notes[1].rfind("1 measured benchmarks carry no wall_s", 0), 0u) << t.notes[1];
  EXPECT_EQ(t.notes[2].rfind("1 benchmarks have a wall_s that is not a finite", 0), 0u)
      << t.notes[2];

  // Two runs: a run column, each run's families and total, each run's problems named.
  const Table two = run_time_of({file, file}, {"a", "b"});
  EXPECT_EQ(two.header[0], "run");
  ASSERT_EQ(two.rows.size(), 6u);
  EXPECT_EQ(two.rows[2][0], "a");
  EXPECT_EQ(two.rows[2][1], "all");
  EXPECT_EQ(two.rows[5][0], "b");
  EXPECT_TRUE(std::find(two.notes.begin(), two.notes.end(),
                        "b: 1 measured benchmarks carry no wall_s (from an older sync_bench) and "
                        "are not counted") != two.notes.end());

  // Beside a run from before the counter.
  const Table mixed = run_time_of({data_path("gb171_run.json"), file}, {"old", "new"});
  EXPECT_EQ(mixed.notes.back(), "old: no benchmark carries wall_s (from an older sync_bench)");
  EXPECT_EQ(mixed.rows[0][0], "new");
  // Alone: no table.
  const Document old = build_report(load({"gb171_run.json"}), ReportOptions{});
  for (const Block& b : old.blocks)
    EXPECT_FALSE(b.kind == Block::Kind::table && b.table.title == kRunTimeTitle);
}

// A run merged from processes spent each benchmark's wall once a process: every repetition
// counts, in the wall and in the timed share.
TEST(Report, RunTimeTableCountsEveryRepetition) {
  test::FakeBench three = test::unpaired("NullKernel/Async", {3.0, 3.0, 3.0}, 0.0);
  three.counters["wall_s"] = {0.25, 0.5, 0.75};
  three.counters["steps"] = {50000, 50000, 50000};
  const Table t =
      run_time_of({test::write_run(testing::TempDir() + "run_time_reps.json", {three})}, {});
  ASSERT_EQ(t.rows.size(), 2u);
  // 1.5 s of walls; 3 x 50000 steps x 3 us = 0.45 s timed: 30%.
  EXPECT_EQ(t.rows[1], (std::vector<std::string>{"all", "1", "1.5", "100.0", "30",
                                                 "NullKernel/Async", "1.50"}));
  EXPECT_TRUE(std::find(t.notes.begin(), t.notes.end(),
                        "every repetition counts: a run merged from K processes spent K walls on "
                        "a benchmark") != t.notes.end());
}

}  // namespace
}  // namespace sync_summary
