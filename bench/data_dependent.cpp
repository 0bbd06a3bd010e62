// DataDependent: not yet written.

#include "families.hpp"

namespace sync_bench {

void register_data_dependent() {}

}  // namespace sync_bench
