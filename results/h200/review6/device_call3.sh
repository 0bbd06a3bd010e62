#!/usr/bin/env bash
# A third H200: the new GPU tests in three more processes; a failing benchmark through run.sh and
# through the CI gate (scripts/ci_regress.sh, 3 processes a side).
out="$1"
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
new='*WaitMode*:*ClockThrottle*:*CudaFree*:*AFailed*:*AJson*:*Anatomy*:*SyncMap*'
{
  nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
  git log -1 --format=%h 2>/dev/null
  s=$(date +%s)
  { cmake -S . -B build-dev -DCMAKE_BUILD_TYPE=Release && cmake --build build-dev -j16; } >/tmp/build.txt 2>&1
  echo "build: exit $?, $(( $(date +%s) - s )) s"
  for i in 1 2 3; do
    (cd build-dev/tests && timeout 150 ./test_gpu_patterns --gtest_filter="$new") >/tmp/gp$i.txt 2>&1
    echo "test_gpu_patterns new tests, process $i: exit $? $(grep -E '^\[  (PASSED|FAILED) ' /tmp/gp$i.txt | tr '\n' ' ')"
  done
  (cd build-dev/tests && timeout 60 ./test_cli) >/tmp/cli.txt 2>&1
  echo "test_cli: exit $? $(grep -E '^\[  (PASSED|FAILED) ' /tmp/cli.txt | tr '\n' ' ')"
  BUILD_DIR=build-dev OUT_JSON=/tmp/runfail.json timeout 120 scripts/run.sh \
    --benchmark_filter='^NullKernel/' --sync_inject=fail --sync_inject_filter='/Print$' >/tmp/runfail.txt 2>&1
  echo "run.sh with NullKernel/Print failing: exit $?"
  grep -E "benchmark\(s\) failed|injected failure|wrote " /tmp/runfail.txt | head -5
  export SYNC_BENCH=build-dev/bench/sync_bench SYNC_SUMMARY=build-dev/summary/sync_summary PROCESSES=3
  timeout 120 scripts/ci_regress.sh --make-baseline /tmp/ci_base.json >/tmp/ci_base.txt 2>&1
  echo "ci_regress.sh --make-baseline (3 processes): exit $?"
  OUT=/tmp/ci_clean.json timeout 120 scripts/ci_regress.sh /tmp/ci_base.json >/tmp/ci_clean.txt 2>&1
  echo "ci_regress.sh, unchanged: exit $? $(grep -o 'Result: .*' /tmp/ci_clean.txt | cut -c1-120)"
  OUT=/tmp/ci_fail.json timeout 120 scripts/ci_regress.sh /tmp/ci_base.json --sync_inject=fail \
    --sync_inject_filter='^NullKernel/DeviceSync$' >/tmp/ci_fail.txt 2>&1
  echo "ci_regress.sh, NullKernel/DeviceSync failing: exit $? $(grep -o 'Result: .*' /tmp/ci_fail.txt | cut -c1-120)"
  grep -E "NullKernel/DeviceSync " /tmp/ci_fail.txt | head -2
} >"$out/extra.txt" 2>&1
cp /tmp/ci_base.json "$out/" 2>/dev/null
tar czf "$out/logs.tar.gz" -C /tmp build.txt gp1.txt gp2.txt gp3.txt cli.txt runfail.txt runfail.json \
  ci_base.txt ci_clean.txt ci_fail.txt ci_clean.json ci_fail.json 2>/dev/null
