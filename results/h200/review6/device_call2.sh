#!/usr/bin/env bash
# After acceptance_call.sh's test part: the new GPU tests in two more processes, the sync map on
# this GPU, and a build with -DSYNC_BENCH_NCCL=OFF (DataParallel must say why it cannot run).
out="$1"
tree="$(ls -d /tmp/acceptance/tree* | tail -1)"
b="$tree/build"
new='*WaitMode*:*ClockThrottle*:*CudaFree*:*AFailed*:*AJson*:*Anatomy*:*SyncMap*'
{
  nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
  for i in 1 2; do
    (cd "$b/tests" && timeout 150 ./test_gpu_patterns --gtest_filter="$new") >/tmp/gp$i.txt 2>&1
    echo "test_gpu_patterns new tests, process $i: exit $? $(grep -E '^\[  (PASSED|FAILED) ' /tmp/gp$i.txt | tr '\n' ' ')"
  done
  timeout 60 "$b/bench/sync_bench" --sync_map="$out/sync_map" >/tmp/map.txt 2>&1
  echo "sync_map: exit $?"
  { cmake -S "$tree" -B /tmp/nonccl -DCMAKE_BUILD_TYPE=Release -DSYNC_BENCH_NCCL=OFF \
      -DSYNC_BENCH_BUILD_TESTS=OFF && timeout 240 cmake --build /tmp/nonccl -j16 --target sync_bench; } \
    >/tmp/nonccl.txt 2>&1
  echo "NCCL off build: exit $?"
  /tmp/nonccl/bench/sync_bench --benchmark_filter=DataParallel --benchmark_out=/tmp/nonccl.json \
    >/tmp/nonccl_run.txt 2>&1
  echo "NCCL off DataParallel run: exit $?"
  grep -o '"nccl": "[^"]*"' /tmp/nonccl.json
  echo "rows: $(grep -c '"run_name"' /tmp/nonccl.json), skipped: $(grep -c '"skipped": true' /tmp/nonccl.json)"
  grep -o '"skip_message": "[^"]*"' /tmp/nonccl.json | sort | uniq -c
} >"$out/extra.txt" 2>&1
tar czf "$out/logs2.tar.gz" -C /tmp gp1.txt gp2.txt map.txt nonccl.txt nonccl_run.txt nonccl.json 2>/dev/null
