// MultiStream: not yet written.

#include "families.hpp"

namespace sync_bench {

void register_multi_stream() {}

}  // namespace sync_bench
