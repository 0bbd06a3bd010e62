// GraphReplay: not yet written.

#include "families.hpp"

namespace sync_bench {

void register_graph_replay() {}

}  // namespace sync_bench
