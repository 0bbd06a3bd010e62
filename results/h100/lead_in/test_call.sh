#!/usr/bin/env bash
# The second device call: does GpuOps.ABatchStartsInTheStateItsStepsKeepTheGpuIn fail on the old
# step loop and pass on the new, then scripts/test.sh and scripts/run.sh (the default sweep, timed)
# on the working tree. Run from the repository root on the GPU machine, with old_src.tar.gz there:
#   bash test_call.sh OUT
# OUT gets summary.txt, lead_in_test.log and logs.tar.gz (test.sh's and run.sh's logs, the
# sweeps' JSON).
set -uo pipefail
out="$1"
start=$(date +%s)
summary="$out/summary.txt"
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader >"$summary"
test_name='GpuOps.ABatchStartsInTheStateItsStepsKeepTheGpuIn'
# The old step loop with the new test file: only that test is run there (the file's other changes
# are to the order the new loop runs steps in).
rm -rf build-old && mkdir -p build-old/src && tar -xzf old_src.tar.gz -C build-old/src &&
  cp tests/test_gpu_ops.cpp build-old/src/tests/ &&
  cmake -S build-old/src -B build-old/build -G Ninja -DCMAKE_BUILD_TYPE=Release >"$out/build.log" 2>&1 &&
  cmake --build build-old/build -j16 --target test_gpu_ops >>"$out/build.log" 2>&1 ||
  { echo "old build failed" >>"$summary"; tail -30 "$out/build.log"; }
{ cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build-gpu -j16 --target test_gpu_ops; } \
  >>"$out/build.log" 2>&1 || { echo "new build failed" >>"$summary"; tail -30 "$out/build.log"; }
for side in old new; do
  bin=build-gpu/tests/test_gpu_ops
  [ $side = old ] && bin=build-old/build/tests/test_gpu_ops
  for r in 1 2 3; do
    "$bin" --gtest_filter="$test_name" >>"$out/lead_in_test.log" 2>&1
    echo "$side run $r: $test_name rc=$?" >>"$summary"
  done
done
mkdir -p /tmp/fresh_logs
# scripts/test.sh and scripts/run.sh on a fresh copy (no build folder), as a new user would.
rm -rf /tmp/fresh && mkdir -p /tmp/fresh &&
  tar --exclude=./build-gpu --exclude=./build-old --exclude=./old_src.tar.gz -cf - . | tar -xf - -C /tmp/fresh
t0=$(date +%s)
(cd /tmp/fresh && scripts/test.sh) >/tmp/fresh_logs/test_sh.log 2>&1
echo "test.sh rc=$? $(( $(date +%s) - t0 )) s: $(grep -E 'tests passed|tests failed' /tmp/fresh_logs/test_sh.log | tail -1)" >>"$summary"
grep -E "test_fidelity|test_gpu" /tmp/fresh_logs/test_sh.log | grep -E "Passed|Failed|Skipped" >>"$summary"
t0=$(date +%s)
(cd /tmp/fresh && OUT_JSON=/tmp/fresh_logs/sweep.json scripts/run.sh) >/tmp/fresh_logs/run_sh.log 2>&1
echo "run.sh rc=$? $(( $(date +%s) - t0 )) s" >>"$summary"
t0=$(date +%s)
(cd /tmp/fresh && OUT_JSON=/tmp/fresh_logs/smallgemm.json scripts/run.sh --benchmark_filter=SmallGemm) \
  >/tmp/fresh_logs/run_sh_smallgemm.log 2>&1
echo "run.sh --benchmark_filter=SmallGemm rc=$? $(( $(date +%s) - t0 )) s" >>"$summary"
tar -czf "$out/logs.tar.gz" -C /tmp fresh_logs
echo "call: $(( $(date +%s) - start )) s" >>"$summary"
cat "$summary"
