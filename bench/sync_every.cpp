// SyncEvery: not yet written.

#include "families.hpp"

namespace sync_bench {

void register_sync_every() {}

}  // namespace sync_bench
