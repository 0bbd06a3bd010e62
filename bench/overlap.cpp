// Overlap: not yet written.

#include "families.hpp"

namespace sync_bench {

void register_overlap() {}

}  // namespace sync_bench
