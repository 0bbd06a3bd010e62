// The summarizer at scale: report, dtypes and compare of a run of 100,000 benchmarks (the shape of
// summary/bench_summary.cpp: 10 families x 10 patterns x 4 dtypes x 2 backends x 125 sizes, with
// sync_bench's paired counters and gpu_bound) must finish in under 20 s (Release; the sanitized
// build's bound is SYNC_SUMMARY_SCALE_LIMIT_S, tests/summary/CMakeLists.txt), the files read from
// disk as the CLI does. Its own executable and CTest (sync_summary_scale_100k,
// tests/summary/CMakeLists.txt).

#include <gtest/gtest.h>

#include <chrono>

#include "gb_builder.hpp"
#include "test_util.hpp"

namespace sync_summary {
namespace {

constexpr int kBenchmarks = 100000;
constexpr double kLimitSeconds = SYNC_SUMMARY_SCALE_LIMIT_S;

// factor scales every time; the overheads of the paired (non-Async) rows move with it.
std::vector<test::FakeBench> hundred_thousand(double factor) {
  static const char* const kPatterns[] = {
      "Async",          "DeviceSync", "StreamSync", "EventSync",         "ScalarRead",
      "ScalarReadIdle", "Print",      "BulkRead",   "ScalarRead/pinned", "BulkRead/pinned"};
  static const char* const kDtypes[] = {"fp16", "bf16", "fp32", "tf32"};
  static const char* const kBackends[] = {"cublas", "cublaslt"};
  std::vector<test::FakeBench> out;
  out.reserve(kBenchmarks);
  for (int f = 0; f < 10; ++f)
    for (const char* dtype : kDtypes)
      for (const char* backend : kBackends)
        for (int size = 1; size <= 125; ++size)
          for (int p = 0; p < 10; ++p) {
            const std::string name = "Family" + std::to_string(f) + "/" + kPatterns[p] + "/" +
                                     dtype + "/" + backend + "/n:" + std::to_string(size * 64);
            const double async = (5.0 + size * 0.25) * factor;
            if (p == 0)
              out.push_back(test::unpaired(name, {async}, size > 100 ? 1.0 : 0.0));
            else
              out.push_back(test::paired(name, {p * 1.5 * factor}, async));
          }
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(Scale, HundredThousandBenchmarksReportDtypesAndCompare) {
  const std::string dir = testing::TempDir();
  const std::string base = test::write_run(dir + "scale_base.json", hundred_thousand(1.0));
  const std::string next = test::write_run(dir + "scale_new.json", hundred_thousand(1.2));

  const auto start = std::chrono::steady_clock::now();
  const auto report = test::run({"report", base});
  const double report_s = seconds_since(start);
  EXPECT_EQ(report.rc, 0) << report.err;
  EXPECT_TRUE(test::contains(report.out, "Family9")) << report.out.substr(0, 2000);

  const auto after_report = std::chrono::steady_clock::now();
  const auto dtypes = test::run({"dtypes", base});
  const double dtypes_s = seconds_since(after_report);
  EXPECT_EQ(dtypes.rc, 0) << dtypes.err;
  EXPECT_TRUE(test::contains(dtypes.out, "by dtype")) << dtypes.out.substr(0, 2000);

  const auto middle = std::chrono::steady_clock::now();
  const auto compare = test::run({"compare", base, next});
  const double compare_s = seconds_since(middle);
  EXPECT_EQ(compare.rc, 1) << compare.err;  // overheads 20% up: regressions
  EXPECT_TRUE(test::contains(compare.out, std::to_string(kBenchmarks) + " compared"))
      << compare.out.substr(compare.out.size() - 2000);

  const double total = report_s + dtypes_s + compare_s;
  RecordProperty("report_s", std::to_string(report_s));
  RecordProperty("dtypes_s", std::to_string(dtypes_s));
  RecordProperty("compare_s", std::to_string(compare_s));
  std::printf("report %.2f s, dtypes %.2f s, compare %.2f s\n", report_s, dtypes_s, compare_s);
  EXPECT_LT(total, kLimitSeconds) << "report " << report_s << " s, dtypes " << dtypes_s
                                  << " s, compare " << compare_s << " s";
}

}  // namespace
}  // namespace sync_summary
