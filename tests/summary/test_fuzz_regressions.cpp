// Inputs the fuzzer (summary/fuzz_summary.cpp, scripts/fuzz_summary.sh) once crashed on, kept in
// tests/data/fuzz/, plus every bad-input fixture: the whole pipeline must answer with exit 0 or
// 2 and never crash. The fuzz target itself is fuzz_one_input below, shared with the fuzzer.

#include <gtest/gtest.h>

#include "fuzz_target.hpp"
#include "test_util.hpp"

namespace sync_summary {
namespace {

namespace fs = std::filesystem;

TEST(FuzzRegressions, EveryKeptInputIsHandled) {
  std::size_t n = 0;
  for (const char* dir : {"fuzz", "."}) {
    const fs::path p = fs::path(SYNC_SUMMARY_TEST_DATA) / dir;
    if (!fs::exists(p)) continue;
    for (const auto& e : fs::directory_iterator(p)) {
      if (!e.is_regular_file()) continue;
      const std::string text = test::read_file(e.path().string());
      const int rc = fuzz_one_input(text);
      EXPECT_TRUE(rc == 0 || rc == 2) << e.path() << " rc " << rc;
      ++n;
    }
  }
  EXPECT_GT(n, 10u);
}

// The bad-input fixtures are refused (2), the runs of every Google Benchmark version we read are
// read through (0; gb183_skipped.json is not: compare refuses its NaN times): a pipeline that
// refused everything, or nothing, fails here.
TEST(FuzzRegressions, BadFixturesAreRefusedAndGoodOnesRead) {
  const char* refused[] = {"malformed_trailing_comma.json",
                           "malformed_truncated.json",
                           "not_gb_array.json",
                           "not_gb_trace.json",
                           "wrong_types.json",
                           "empty_file.json",
                           "unknown_name.json"};
  for (const char* name : refused)
    EXPECT_EQ(fuzz_one_input(test::read_file(test::data_path(name))), 2) << name;
  const char* read[] = {"gb171_run.json", "gb171_aggregates_only.json", "gb183_run.json",
                        "h100_async_base.json", "compare_base.json"};
  for (const char* name : read)
    EXPECT_EQ(fuzz_one_input(test::read_file(test::data_path(name))), 0) << name;
}

TEST(FuzzRegressions, HandWrittenNastyInputs) {
  const std::string nasty[] = {
      "",
      "{",
      std::string(100000, '['),
      std::string(100000, '{'),
      // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): the long inputs are joined literals
      "{\"context\": {}, \"benchmarks\": [{\"name\": \"A/B\", \"real_time\": 1e308, "
      "\"cpu_time\": -1e308, \"time_unit\": \"s\", \"repetitions\": -5}]}",
      "{\"context\": {}, \"benchmarks\": [{\"name\": \"A/Async/n:1\", \"real_time\": 0}, "
      "{\"name\": \"A/B/n:1\", \"real_time\": NaN}, {\"name\": \"A/Eager/n:x\", \"real_time\": "
      "Infinity}, {\"name\": \"A/C/n:1\", \"real_time\": 1, \"bytes_per_second\": -Infinity}]}",
      "{\"context\": {}, \"benchmarks\": [{\"name\": \"A/B\", \"run_name\": \"\", \"run_type\": "
      "\"aggregate\", \"aggregate_name\": \"cv\", \"real_time\": 1}]}",
      "{\"context\": {\"a\": \"\\u0000\\ud83d\\ude00\"}, \"benchmarks\": [{\"name\": \"A/B\", "
      "\"real_time\": 1, \"label\": \"\\\"|,\\n\"}]}",
  };
  for (const auto& text : nasty) {
    const int rc = fuzz_one_input(text);
    EXPECT_TRUE(rc == 0 || rc == 2) << text.substr(0, 80);  // the test: no crash, no other throw
  }
}

}  // namespace
}  // namespace sync_summary
