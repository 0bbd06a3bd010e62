// Alloc: not yet written.

#include "families.hpp"

namespace sync_bench {

void register_alloc() {}

}  // namespace sync_bench
