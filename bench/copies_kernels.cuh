#pragma once
// Helpers of the copies group (HostCopy, Overlap, Alloc, MultiStream): data whose every word can
// be checked, a kernel that keeps a stream busy for a known time, and a tally of host-side
// measurements taken inside steps. No device helper synchronizes but pattern_mismatches, which
// says so.

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace sync_bench {

// Word i of pattern `seed`: a hash of (seed, i), so a missing, misplaced or stale word shows.
std::uint32_t pattern_word(std::size_t i, std::uint32_t seed);

// data[i] = pattern_word(i, seed) for i in [0, words).
void fill_pattern(std::uint32_t* data, std::size_t words, std::uint32_t seed, cudaStream_t stream);

// Adds to *device_count the words of data[first, words) that differ from pattern `seed`.
void count_pattern_mismatches(const std::uint32_t* data, std::size_t first, std::size_t words,
                              std::uint32_t seed, unsigned long long* device_count,
                              cudaStream_t stream);

// Setup and teardown only (synchronizes the stream): the mismatching words of data[first, words).
std::uint64_t pattern_mismatches(const std::uint32_t* data, std::size_t first, std::size_t words,
                                 std::uint32_t seed, cudaStream_t stream);

// data[i] = value for i in [0, words).
void fill_words(std::uint32_t* data, std::size_t words, std::uint32_t value, cudaStream_t stream);

// One thread: adds 1 to *device_bad unless the first, middle and last words of data hold `value`,
// and copies the last word to *device_last (memory that outlives data).
void probe_words(const std::uint32_t* data, std::size_t words, std::uint32_t value,
                 unsigned long long* device_bad, std::uint32_t* device_last, cudaStream_t stream);

}  // namespace sync_bench
