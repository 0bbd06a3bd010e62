#!/usr/bin/env bash
# Device call A (2026-12-02): test.sh on a fresh copy, TrainLoop in 6 processes, a mutant without
# the lagged reader's wait.
set -u
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader > $OUT/gpu.txt
export ACCEPTANCE_WORK=/tmp/acc
BUDGET_S=330 scripts/acceptance_call.sh $OUT test > $OUT/call.log 2>&1
tree=$(ls -d /tmp/acc/tree* | tail -1)
bench=$tree/build/bench/sync_bench
mkdir -p /tmp/tl
for i in 1 2 3 4 5 6; do
  $bench --benchmark_filter='^TrainLoop/' --benchmark_out=/tmp/tl/p$i.json --benchmark_out_format=json > /tmp/tl/p$i.log 2>&1
  echo "process $i: exit $?" >> /tmp/tl/log.txt
done
# Mutant: the lagged reader without its wait.
sed -i 's/  CUDA_CHECK(cudaEventSynchronize(copied_\[pending_slot_\].get()));/  \/\/ mutant: no wait/' $tree/bench/lagged_reader.cpp
grep -c "mutant: no wait" $tree/bench/lagged_reader.cpp >> /tmp/tl/log.txt
cmake --build $tree/build --target sync_bench > /tmp/tl/mutant_build.log 2>&1; echo "mutant build: $?" >> /tmp/tl/log.txt
$bench --benchmark_filter='^(TrainLoop/LaggedItem|SmallGemm/LaggedRead/fp16/cublas/n:512|BigGemm/LaggedRead/bf16/cublas/n:8192|NullKernel/LaggedRead)/' --benchmark_out=/tmp/tl/mutant.json --benchmark_out_format=json > /tmp/tl/mutant.log 2>&1
echo "mutant run: exit $?" >> /tmp/tl/log.txt
cp /tmp/tl/mutant.json $OUT/ 2>/dev/null
tar czf $OUT/tl_logs.tar.gz -C /tmp tl
cat $OUT/summary.txt /tmp/tl/log.txt
grep -h '"name"\|overhead_us\|error_message' /tmp/tl/mutant.json | head -30
