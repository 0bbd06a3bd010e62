// The benchmark-name grammar: the examples of the spec, Google Benchmark's suffixes, and names
// that must be refused.

#include <gtest/gtest.h>

#include "errors.hpp"
#include "name_grammar.hpp"

namespace sync_summary {
namespace {

using Args = std::vector<std::pair<std::string, std::string>>;

TEST(NameGrammar, FamilyPatternAndSuffix) {
  const BenchName b = parse_name("NullKernel/Async/manual_time");
  EXPECT_EQ(b.family, "NullKernel");
  EXPECT_EQ(b.pattern, "Async");
  EXPECT_TRUE(b.variants.empty());
  EXPECT_EQ(b.dtype, "");
  EXPECT_EQ(b.backend, "");
  EXPECT_TRUE(b.args.empty());
  EXPECT_EQ(b.gb_suffixes, std::vector<std::string>{"manual_time"});
  EXPECT_EQ(b.identity, "NullKernel/Async");
  EXPECT_TRUE(b.is_baseline());
}

TEST(NameGrammar, VariantDtypeBackendArgs) {
  const BenchName b = parse_name("SmallGemm/ScalarRead/pinned/bf16/cublaslt/n:256/manual_time");
  EXPECT_EQ(b.family, "SmallGemm");
  EXPECT_EQ(b.pattern, "ScalarRead");
  EXPECT_EQ(b.variants, std::vector<std::string>{"pinned"});
  EXPECT_EQ(b.dtype, "bf16");
  EXPECT_EQ(b.backend, "cublaslt");
  EXPECT_EQ(b.args, (Args{{"n", "256"}}));
  EXPECT_EQ(b.column(), "ScalarRead/pinned");
  EXPECT_EQ(b.identity, "SmallGemm/ScalarRead/pinned/bf16/cublaslt/n:256");
  EXPECT_FALSE(b.is_baseline());
  EXPECT_EQ(b.baseline_identity(), "SmallGemm/Async/bf16/cublaslt/n:256");
}

TEST(NameGrammar, SeveralVariantsAndNoDtype) {
  const BenchName b = parse_name("HostCopy/D2H/pinned/memcpy_async/bytes:4096/manual_time");
  EXPECT_EQ(b.family, "HostCopy");
  EXPECT_EQ(b.pattern, "D2H");
  EXPECT_EQ(b.variants, (std::vector<std::string>{"pinned", "memcpy_async"}));
  EXPECT_EQ(b.dtype, "");
  EXPECT_EQ(b.args, (Args{{"bytes", "4096"}}));
}

TEST(NameGrammar, DtypeWithoutBackendAndBackendWithoutDtype) {
  EXPECT_EQ(parse_name("BigGemm/BulkRead/pageable/tf32/n:8192").dtype, "tf32");
  const BenchName b = parse_name("SmallGemm/DeviceSync/cublas/n:512");
  EXPECT_EQ(b.dtype, "");
  EXPECT_EQ(b.backend, "cublas");
}

TEST(NameGrammar, AllGoogleBenchmarkSuffixesAreStripped) {
  const BenchName b = parse_name(
      "SmallGemm/DeviceSync/fp16/cublas/n:512/k:10/min_time:0.500/iterations:100/"
      "repeats:5/manual_time/threads:2");
  EXPECT_EQ(b.gb_suffixes, (std::vector<std::string>{"min_time:0.500", "iterations:100",
                                                     "repeats:5", "manual_time", "threads:2"}));
  // Each thread count is a benchmark of its own: threads:N stays in the identity, as an arg.
  EXPECT_EQ(b.args, (Args{{"n", "512"}, {"k", "10"}, {"threads", "2"}}));
  EXPECT_EQ(b.identity, "SmallGemm/DeviceSync/fp16/cublas/n:512/k:10/threads:2");
  // The name as written stays whole: what --benchmark_filter and merge --filter see.
  EXPECT_EQ(b.written,
            "SmallGemm/DeviceSync/fp16/cublas/n:512/k:10/min_time:0.500/iterations:100/"
            "repeats:5/manual_time/threads:2");
  EXPECT_EQ(parse_name("NullKernel/Async/real_time").identity, "NullKernel/Async");
}

TEST(NameGrammar, UnknownFamiliesAndPatternsParseByGrammar) {
  const BenchName b = parse_name("TrainLoop/Overlapped/double_buffer/fp8/k:3");
  EXPECT_EQ(b.family, "TrainLoop");
  EXPECT_EQ(b.pattern, "Overlapped");
  EXPECT_EQ(b.variants, std::vector<std::string>{"double_buffer"});
  EXPECT_EQ(b.dtype, "fp8");
}

TEST(NameGrammar, RefusesNamesOutsideTheGrammar) {
  for (const char* bad :
       {"BM_memcpy", "BM_memcpy/8", "", "/Async", "NullKernel/", "Null Kernel/Async",
        "SmallGemm/Async/n:512/pinned",     // word after args
        "SmallGemm/Async/fp16/pinned",      // variant after dtype
        "SmallGemm/Async/cublas/fp16",      // dtype after backend
        "SmallGemm/Async/fp16/bf16",        // two dtypes
        "SmallGemm/Async/cublas/cublaslt",  // two backends
        "SmallGemm/Async/n:", "SmallGemm/Async/:5", "SmallGemm/Async//x",
        "SmallGemm/Async/n:5\"x"}) {
    EXPECT_THROW(parse_name(bad), InputError) << bad;
  }
}

TEST(NameGrammar, ErrorNamesTheName) {
  try {
    parse_name("SmallGemm/Async/n:512/pinned");
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'SmallGemm/Async/n:512/pinned'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("after the key:value arguments"), std::string::npos);
  }
}

TEST(NameGrammar, StripAggregateSuffix) {
  EXPECT_EQ(strip_aggregate_suffix("A/B/manual_time_mean", "mean"), "A/B/manual_time");
  EXPECT_EQ(strip_aggregate_suffix("A/B/manual_time_cv", "cv"), "A/B/manual_time");
  EXPECT_EQ(strip_aggregate_suffix("A/B/manual_time", "mean"), "A/B/manual_time");
  EXPECT_EQ(strip_aggregate_suffix("A/B/manual_time_median", ""), "A/B/manual_time_median");
}

TEST(NameGrammar, WordSets) {
  for (const char* d : {"fp16", "bf16", "fp32", "tf32", "fp8"}) EXPECT_TRUE(is_dtype_word(d));
  EXPECT_FALSE(is_dtype_word("pinned"));
  EXPECT_TRUE(is_backend_word("cublas"));
  EXPECT_TRUE(is_backend_word("cublaslt"));
  EXPECT_FALSE(is_backend_word("cutlass"));
  EXPECT_LT(dtype_rank("fp16"), dtype_rank("bf16"));
  EXPECT_LT(dtype_rank("tf32"), dtype_rank("something"));
}

}  // namespace
}  // namespace sync_summary
