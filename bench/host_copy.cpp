// HostCopy: not yet written.

#include "families.hpp"

namespace sync_bench {

void register_host_copy() {}

}  // namespace sync_bench
