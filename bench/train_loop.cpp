// TrainLoop: not yet written.

#include "families.hpp"

namespace sync_bench {

void register_train_loop() {}

}  // namespace sync_bench
