#pragma once
// The one name grammar every benchmark follows, so that filters and the summarizer can read it:
//
//   Family/Pattern[/variant...][/dtype/backend][/key:value...]
//
// Google Benchmark appends "/manual_time" (and "_mean", "_median", ... for aggregates).
// Example: SmallGemm/ScalarRead/pinned/bf16/cublaslt/n:256

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace sync_bench {

struct NameArg {
  std::string_view key;
  std::int64_t value;
};

// words: family, pattern, then variants, dtype and backend, in that order; empty words are
// skipped, so an optional variant can be passed as "".
std::string bench_name(std::initializer_list<std::string_view> words,
                       std::initializer_list<NameArg> args = {});

}  // namespace sync_bench
