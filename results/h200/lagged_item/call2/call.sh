#!/usr/bin/env bash
# Device call B (2026-12-02): the default sweep and SmallGemm timed; TrainLoop in 10 processes
# (default rule) and 4 at 1 s a benchmark; its anatomy; the two GPU tests alone twice; a mutant
# whose lagged read waits for its own step, against the GPU tests.
set -u
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader > $OUT/gpu.txt
export ACCEPTANCE_WORK=/tmp/acc
BUDGET_S=300 scripts/acceptance_call.sh $OUT sweep > $OUT/call.log 2>&1
tree=$(ls -d /tmp/acc/tree* | tail -1)
bench=$tree/build/bench/sync_bench
w=/tmp/tl; mkdir -p $w; log=$w/log.txt
for i in 1 2; do
  for t in test_gpu_graphs test_gpu_ops; do
    (cd $tree/build && ctest -R "^$t\$" --output-on-failure > $w/$t-$i.txt 2>&1); echo "$t $i: exit $?" >> $log
  done
done
for i in $(seq 1 10); do
  $bench --benchmark_filter='^TrainLoop/' --benchmark_out=$w/p$i.json --benchmark_out_format=json > $w/p$i.log 2>&1
  echo "process $i: exit $?" >> $log
done
for i in 1 2 3 4; do
  $bench --benchmark_filter='^TrainLoop/(Async|ItemEveryStep|LaggedItem)/' --benchmark_min_time=1 --benchmark_out=$w/long$i.json --benchmark_out_format=json > $w/long$i.log 2>&1
  echo "long process $i: exit $?" >> $log
done
$bench --benchmark_filter='^TrainLoop/(Async|ItemEveryStep|LaggedItem)/' --anatomy_timeline=$w/timeline.json --benchmark_out=$w/anatomy.json --benchmark_out_format=json > $w/anatomy.log 2>&1
echo "anatomy: exit $?" >> $log
# Mutant: the lagged read waits for the step it just queued (no lag).
sed -i 's/^  CUDA_CHECK(cudaEventRecord(copied_\[next\].get(), stream_));$/&\n  CUDA_CHECK(cudaStreamSynchronize(stream_));  \/\/ mutant: no lag/' $tree/bench/lagged_reader.cpp
grep -c "mutant: no lag" $tree/bench/lagged_reader.cpp >> $log
cmake --build $tree/build > $w/mutant_build.log 2>&1; echo "mutant build: $?" >> $log
$tree/build/tests/test_gpu_graphs --gtest_filter='*TrainLoop*' > $w/mutant_graphs.txt 2>&1; echo "mutant test_gpu_graphs TrainLoop: exit $?" >> $log
$tree/build/tests/test_gpu_patterns --gtest_filter='*LaggedRead*' > $w/mutant_patterns.txt 2>&1; echo "mutant test_gpu_patterns LaggedRead: exit $?" >> $log
$tree/build/tests/test_gpu_ops --gtest_filter='*Lagged*' > $w/mutant_ops.txt 2>&1; echo "mutant test_gpu_ops Lagged: exit $?" >> $log
tar czf $OUT/tl_logs.tar.gz -C /tmp tl
cat $OUT/summary.txt $log
grep -h "Failure\|Expected\|Which is\|lagged\|LaggedItem" $w/mutant_graphs.txt | head -12
