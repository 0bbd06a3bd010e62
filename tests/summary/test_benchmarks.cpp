// Grouping rows into benchmarks: repetitions, aggregates, failures, unit conversion, filters.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "benchmarks.hpp"
#include "errors.hpp"
#include "gb_builder.hpp"
#include "gb_json.hpp"
#include "test_util.hpp"

namespace sync_summary {
namespace {

using test::data_path;

RunData load(const std::string& name) {
  return digest(load_run(data_path(name)));
}

// string_view, not const std::string&: a literal would bind a temporary to a reference the
// result seems to depend on (GCC 13's -Wdangling-reference).
const Bench& bench(const RunData& d, std::string_view identity) {
  const Bench* b = d.find(std::string(identity));
  if (!b) throw std::runtime_error("no benchmark " + std::string(identity));
  return *b;
}

TEST(Benchmarks, OneRowPerBenchmarkConvertedToUs) {
  const RunData d = load("gb171_run.json");
  EXPECT_EQ(d.benches.size(), 71u);
  const Bench& b = bench(d, "SmallGemm/DeviceSync/fp16/cublas/n:512");
  EXPECT_EQ(b.unit, TimeUnit::ns);
  const Summary s = b.summary("real_time");
  EXPECT_EQ(s.n, 1u);
  EXPECT_FALSE(s.from_aggregates);
  EXPECT_GT(s.center, 9.0);  // 9.27 us written as 9270 ns
  EXPECT_LT(s.center, 9.6);
  EXPECT_DOUBLE_EQ(b.summary("batch").center, 16.0);
  EXPECT_FALSE(b.summary("no_such_counter").valid());
}

TEST(Benchmarks, RepetitionsGiveMedianMinMaxAndCv) {
  const RunData d = load("gb171_reps.json");
  const Bench& b = bench(d, "NullKernel/DeviceSync");
  EXPECT_EQ(b.repetitions, 5u);
  const Metric* m = b.metric("real_time");
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->reps.size(), 5u);  // the aggregate rows are not repetitions
  const Summary s = b.summary("real_time");
  EXPECT_EQ(s.n, 5u);
  EXPECT_DOUBLE_EQ(s.center, median(m->reps));
  EXPECT_DOUBLE_EQ(s.min, *std::min_element(m->reps.begin(), m->reps.end()));
  EXPECT_DOUBLE_EQ(s.max, *std::max_element(m->reps.begin(), m->reps.end()));
  EXPECT_NEAR(s.cv, describe(m->reps).cv, 1e-15);
  // Google Benchmark's own aggregates agree with ours.
  EXPECT_NEAR(m->agg_median, s.center, 1e-9);
  EXPECT_NEAR(m->agg_cv, s.cv, 1e-9);
}

TEST(Benchmarks, AggregatesOnlyUseMedianAndCv) {
  const RunData d = load("gb171_aggregates_only.json");
  const Bench& b = bench(d, "NullKernel/DeviceSync");
  const Summary s = b.summary("real_time");
  EXPECT_TRUE(s.from_aggregates);
  EXPECT_EQ(s.n, 3u);
  EXPECT_DOUBLE_EQ(s.center, b.metric("real_time")->agg_median);
  EXPECT_DOUBLE_EQ(s.cv, b.metric("real_time")->agg_cv);
  EXPECT_TRUE(std::isnan(s.min));
}

TEST(Benchmarks, AggregatesInMillisecondsAndCvAsFraction) {
  const RunData d = load("gb183_skipped.json");
  const Summary s = bench(d, "BigGemm/BulkRead/pageable/tf32/cublas/n:8192").summary("real_time");
  EXPECT_DOUBLE_EQ(s.center, 2300.0);  // median, 2.3 ms
  EXPECT_NEAR(s.cv, 0.017316017316017316, 1e-15);
  EXPECT_DOUBLE_EQ(
      bench(d, "BigGemm/BulkRead/pageable/tf32/cublas/n:8192").summary("bytes_per_second").center,
      1.17e10);
}

TEST(Benchmarks, FailuresKeepTheirReasonAndNoTimes) {
  const RunData d = load("gb183_skipped.json");
  const Bench& skipped = bench(d, "NullKernel/DeviceSync");
  EXPECT_EQ(skipped.status, Status::skipped);
  EXPECT_EQ(skipped.reason, "wait mode blocking: DeviceSync measured by the blocking family");
  EXPECT_FALSE(skipped.summary("real_time").valid());
  const Bench& error = bench(d, "NullKernel/StreamSync");
  EXPECT_EQ(error.status, Status::error);
  EXPECT_FALSE(error.summary("real_time").valid());

  const RunData r = load("gb183_run.json");  // 3 errored repetitions
  const Bench& fp8 = bench(r, "BigGemm/Async/fp8/cublaslt/n:8192");
  EXPECT_EQ(fp8.status, Status::error);
  EXPECT_EQ(fp8.failed, 3u);
  EXPECT_EQ(fp8.reason, "fp8 needs compute capability 8.9 or newer");
}

// Google Benchmark 1.7 has no skip: sync_bench writes a skip there as an error whose message
// starts "skipped: " (bench/families.cpp). Read as the skip it is, with the reason after the
// prefix; an error that merely mentions the word stays an error.
TEST(Benchmarks, SkipWrittenAsAnErrorByGoogleBenchmark17IsASkip) {
  const std::string file = test::write_run(
      testing::TempDir() + "gb171_skip.json",
      {test::failing("BigGemm/Async/fp8/cublaslt/n:8192",
                     "skipped: fp8 needs compute capability 8.9 or newer"),
       test::failing("NullKernel/StreamSync", "cudaErrorIllegalAddress (skipped: no)"),
       test::unpaired("NullKernel/Async", {4.0}, 0.0)});
  const RunData d = digest(load_run(file));
  const Bench& fp8 = bench(d, "BigGemm/Async/fp8/cublaslt/n:8192");
  EXPECT_EQ(fp8.status, Status::skipped);
  EXPECT_EQ(fp8.reason, "fp8 needs compute capability 8.9 or newer");
  EXPECT_EQ(fp8.failed, 1u);
  EXPECT_EQ(bench(d, "NullKernel/StreamSync").status, Status::error);
}

TEST(Benchmarks, PartlyFailedRepetitionsKeepTheOthers) {
  const sync_summary::Run run = parse_run(
      R"({"context": {}, "benchmarks": [
        {"name": "A/B/manual_time", "repetitions": 3, "repetition_index": 0, "real_time": 2,
         "cpu_time": 2, "time_unit": "us"},
        {"name": "A/B/manual_time", "repetitions": 3, "repetition_index": 1,
         "error_occurred": true, "error_message": "boom", "real_time": 0, "cpu_time": 0,
         "time_unit": "us"},
        {"name": "A/B/manual_time", "repetitions": 3, "repetition_index": 2, "real_time": 4,
         "cpu_time": 4, "time_unit": "us"}]})",
      "t.json");
  const RunData d = digest(run);
  const Bench& b = bench(d, "A/B");
  EXPECT_EQ(b.status, Status::error);
  EXPECT_EQ(b.failed, 1u);
  EXPECT_EQ(b.summary("real_time").n, 2u);
  EXPECT_DOUBLE_EQ(b.summary("real_time").center, 3.0);
}

// Two rows of one repetition (a row copied, or a name registered twice with different suffixes)
// are not two repetitions: refused, where they would have read as a spread.
TEST(Benchmarks, TwoRowsOfOneRepetitionAreAnInputError) {
  for (const char* second : {"A/B/manual_time", "A/B/real_time"}) {
    const std::string text = std::string(R"({"context": {}, "benchmarks": [
        {"name": "A/B/manual_time", "repetitions": 1, "repetition_index": 0, "real_time": 3,
         "cpu_time": 3, "time_unit": "us"},
        {"name": ")") + second +
                             R"(", "repetitions": 1, "repetition_index": 0,
         "real_time": 30, "cpu_time": 30, "time_unit": "us"}]})";
    try {
      digest(parse_run(text, "t.json"));
      ADD_FAILURE() << second << " taken for a repetition";
    } catch (const InputError& e) {
      EXPECT_TRUE(test::contains(
          e.what(), "t.json: " + std::string(second) + ": two rows of repetition 0 of A/B"))
          << e.what();
    }
  }
}

// Google Benchmark writes repetition_index on every iteration row: a row without it beside another
// row of its benchmark cannot be told from a copy, and is not taken for a second repetition.
TEST(Benchmarks, ARowWithoutRepetitionIndexMustBeItsBenchmarksOnly) {
  const std::string one = R"({"name": "A/B", "real_time": 3, "cpu_time": 3, "time_unit": "us"})";
  EXPECT_NO_THROW(digest(parse_run(R"({"context": {}, "benchmarks": [)" + one + "]}", "t.json")));
  const std::string indexed =
      R"({"name": "A/B", "repetition_index": 1, "real_time": 4, "cpu_time": 4, "time_unit": "us"})";
  for (const std::string& rows : {one + ", " + one, one + ", " + indexed, indexed + ", " + one}) {
    try {
      digest(parse_run(R"({"context": {}, "benchmarks": [)" + rows + "]}", "t.json"));
      ADD_FAILURE() << rows << ": taken for two repetitions";
    } catch (const InputError& e) {
      EXPECT_TRUE(test::contains(e.what(), "names no repetition_index")) << e.what();
    }
  }
}

TEST(Benchmarks, UnknownNameIsAnInputErrorNamingTheFile) {
  try {
    load("unknown_name.json");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_TRUE(test::contains(e.what(), "unknown_name.json")) << e.what();
    EXPECT_TRUE(test::contains(e.what(), "'BM_memcpy/8'")) << e.what();
  }
}

TEST(Benchmarks, FilterKeepsMatchingIdentities) {
  RunData d = load("gb171_run.json");
  apply_filter(d, std::regex("^SmallGemm/.*/fp16/"));
  EXPECT_EQ(d.benches.size(), 9u);  // 3 patterns x 3 sizes
  for (const auto& b : d.benches) EXPECT_EQ(b.name.dtype, "fp16");
  EXPECT_NE(d.find("SmallGemm/Async/fp16/cublas/n:256"), nullptr);
  EXPECT_EQ(d.find("NullKernel/Async"), nullptr);
}

}  // namespace
}  // namespace sync_summary
