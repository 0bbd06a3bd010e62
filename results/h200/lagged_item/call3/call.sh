#!/usr/bin/env bash
# Device call C (2026-12-02): test.sh and the headline on the final tree; TrainLoop in 6 processes.
set -u
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader > $OUT/gpu.txt
export ACCEPTANCE_WORK=/tmp/acc
BUDGET_S=320 scripts/acceptance_call.sh $OUT test headline > $OUT/call.log 2>&1
tree=$(ls -d /tmp/acc/tree* | tail -1)
bench=$tree/build/bench/sync_bench
mkdir -p /tmp/tl
for i in 1 2 3 4 5 6; do
  $bench --benchmark_filter='^TrainLoop/' --benchmark_out=/tmp/tl/p$i.json --benchmark_out_format=json > /tmp/tl/p$i.log 2>&1
  echo "process $i: exit $?" >> /tmp/tl/log.txt
done
tar czf $OUT/tl_logs.tar.gz -C /tmp tl
cat $OUT/summary.txt /tmp/tl/log.txt
