#pragma once
// The implicit-sync map: which CUDA calls make the host wait for the GPU.

#include <string>

namespace sync_bench {

// Holds a stream busy with a spin kernel, calls each API under test, and records whether the
// host blocked (the call took longer with the GPU busy than idle, by at least half the spin).
// Prints a markdown table; with a prefix, also writes <prefix>.md and <prefix>.json.
// Returns the process exit code. The device must already be chosen.
int run_sync_map(const std::string& prefix);

}  // namespace sync_bench
