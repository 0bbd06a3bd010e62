#pragma once
// One input through the whole of sync_summary, as a file would go: parse, digest, report,
// dtypes and compare in every format, charts, report through a --filter; merge (with itself, with
// and without a filter) and salvage (the input, and the input cut short), whose output every
// command must read; and the timeline command's reader and SVG. Used by the libFuzzer target
// (fuzz_summary.cpp) and by the tests that replay its findings. Returns 0 (accepted) or 2 (refused
// with a message).

#include <string>

namespace sync_summary {

int fuzz_one_input(const std::string& text);

}  // namespace sync_summary
