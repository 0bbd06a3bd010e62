#!/usr/bin/env bash
# After the exit-path change in bench/main.cpp: the GPU tests of that path in three processes, a
# run whose JSON and timeline both fail (/dev/full) and one with a failing benchmark and a timeline.
out="$1"
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
f='*AFailed*:*AJson*:*Anatomy*:*WaitMode*:*ClockThrottle*:*CudaFree*:*SyncMap*'
{
  nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
  s=$(date +%s)
  { cmake -S . -B build-dev -DCMAKE_BUILD_TYPE=Release && cmake --build build-dev -j16; } >/tmp/build.txt 2>&1
  echo "build: exit $?, $(( $(date +%s) - s )) s"
  for i in 1 2 3; do
    (cd build-dev/tests && timeout 150 ./test_gpu_patterns --gtest_filter="$f") >/tmp/gp$i.txt 2>&1
    echo "test_gpu_patterns, process $i: exit $? $(grep -E '^\[  (PASSED|FAILED) ' /tmp/gp$i.txt | tr '\n' ' ')"
  done
  (cd build-dev/tests && timeout 60 ./test_cli) >/tmp/cli.txt 2>&1
  echo "test_cli: exit $? $(grep -E '^\[  (PASSED|FAILED) ' /tmp/cli.txt | tr '\n' ' ')"
  b=build-dev/bench/sync_bench
  $b --benchmark_filter='^NullKernel/Async/manual_time$' --benchmark_out=/dev/full \
    --anatomy_timeline=/dev/full >/tmp/both.txt 2>&1
  echo "JSON and timeline to /dev/full: exit $?"; grep '^sync_bench:' /tmp/both.txt
  $b --benchmark_filter='^NullKernel/(Async|DeviceSync)/manual_time$' --sync_inject=fail \
    --sync_inject_filter=/DeviceSync --benchmark_out=/tmp/f.json --anatomy_timeline=/tmp/t.json >/tmp/fail.txt 2>&1
  echo "failing benchmark with a timeline: exit $?, timeline $(stat -c %s /tmp/t.json) bytes"; grep '^sync_bench:' /tmp/fail.txt
} >"$out/extra.txt" 2>&1
tar czf "$out/logs.tar.gz" -C /tmp build.txt gp1.txt gp2.txt gp3.txt cli.txt both.txt fail.txt 2>/dev/null
