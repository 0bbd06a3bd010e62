#pragma once
// What a benchmark throws when it cannot run here (the GPU lacks the dtype, the problem does not
// fit in memory): the benchmark is skipped with the reason, which is not a failure. Any other
// exception is a failure.

#include <stdexcept>

namespace sync_bench {

class Unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace sync_bench
