// The copies group (HostCopy, Overlap, Alloc, MultiStream) as --benchmark_list_tests shows it,
// on any machine: the documented matrix, built here independently of the registration code, and
// names that follow the grammar. No GPU is needed.

#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "command.hpp"

namespace sync_bench::test {
namespace {

const char* const kFamilies[] = {"HostCopy", "Overlap", "Alloc", "MultiStream"};

std::vector<std::string> listed_matching(const std::string& filter) {
  return list_benchmarks("--benchmark_filter='" + filter + "'");
}

std::vector<std::string> copies_group() {
  return listed_matching("^(HostCopy|Overlap|Alloc|MultiStream)/");
}

std::string with_bytes(const std::string& stem, std::uint64_t bytes) {
  return stem + "/bytes:" + std::to_string(bytes) + "/manual_time";
}

std::set<std::string> documented_matrix() {
  std::set<std::string> names;
  const std::vector<std::uint64_t> copy_sizes = {4, 4096, 65536, 1 << 20, 16 << 20, 256 << 20};
  for (const char* direction : {"H2D", "D2H"})
    for (const char* memory : {"pageable", "pinned"}) {
      for (const char* api : {"memcpy", "memcpy_async"})
        for (std::uint64_t bytes : copy_sizes)
          names.insert(
              with_bytes(std::string("HostCopy/") + direction + "/" + memory + "/" + api, bytes));
      // The call alone exists only for the API that can return before the copy is done.
      for (std::uint64_t bytes : copy_sizes)
        names.insert(with_bytes(
            std::string("HostCopy/") + direction + "Call/" + memory + "/memcpy_async", bytes));
    }
  for (const char* pattern : {"DoubleBuffer", "Serial", "PageableBlocking"})
    for (std::uint64_t bytes : {16u << 20, 64u << 20})
      names.insert(with_bytes(std::string("Overlap/") + pattern, bytes));
  for (const char* pattern : {"Async", "MallocFree", "MallocAsyncPool"})
    for (std::uint64_t bytes : {4096u, 1u << 20, 64u << 20})
      names.insert(with_bytes(std::string("Alloc/") + pattern, bytes));
  for (const char* p : {"StreamSyncOther", "DeviceSyncOther", "LegacyMemcpy/blocking_stream",
                        "LegacyMemcpy/non_blocking_stream"})
    names.insert(std::string("MultiStream/") + p + "/spin_us:200/manual_time");
  return names;
}

TEST(CopiesNames, ListsTheDocumentedMatrixWithoutAGpu) {
  const std::vector<std::string> names = copies_group();
  const std::set<std::string> unique(names.begin(), names.end());
  EXPECT_EQ(unique.size(), names.size()) << "duplicate names";
  EXPECT_EQ(unique, documented_matrix());
}

// Every name's grammar is checked for all families in test_cli.cpp; HostCopy's own words here.
TEST(CopiesNames, HostCopyNamesSayDirectionMemoryAndApi) {
  const std::regex host_copy(
      "HostCopy/(H2D|D2H)(Call)?/(pageable|pinned)/(memcpy|memcpy_async)/bytes:[0-9]+/manual_time");
  std::size_t checked = 0;
  for (const auto& name : listed_matching("^HostCopy/")) {
    EXPECT_TRUE(std::regex_match(name, host_copy)) << name;
    ++checked;
  }
  EXPECT_GT(checked, 0u);
}

TEST(CopiesNames, HostCopySizesAreALogSweepFromOneWordTo256MiB) {
  std::set<std::uint64_t> sizes;
  const std::regex bytes_arg("/bytes:([0-9]+)/");
  for (const auto& name : listed_matching("^HostCopy/")) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(name, m, bytes_arg)) << name;
    sizes.insert(std::stoull(m[1]));
  }
  ASSERT_GE(sizes.size(), 4u);
  EXPECT_EQ(*sizes.begin(), 4u);
  EXPECT_EQ(*sizes.rbegin(), 256u << 20);
  std::uint64_t previous = 0;
  for (std::uint64_t s : sizes) {
    EXPECT_EQ(s & (s - 1), 0u) << s << " is not a power of two";
    if (previous) {
      EXPECT_LE(s / previous, 1024u) << "a gap from " << previous << " to " << s;
    }
    previous = s;
  }
}

TEST(CopiesNames, EachFamilyFilterSelectsOnlyThatFamily) {
  std::size_t total = 0;
  for (const char* family : kFamilies) {
    const std::string prefix = std::string(family) + "/";
    const std::vector<std::string> names = listed_matching("^" + prefix);
    EXPECT_FALSE(names.empty()) << family;
    for (const auto& name : names) EXPECT_EQ(name.rfind(prefix, 0), 0u) << name;
    total += names.size();
  }
  EXPECT_EQ(total, copies_group().size());
}

}  // namespace
}  // namespace sync_bench::test
