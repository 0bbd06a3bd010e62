#!/usr/bin/env bash
# One device call: sync_bench as of 0fc4619 (every timed batch starts on an idle GPU) against the
# working tree (every batch after a lead-in of one period of its own steps), in alternating fresh
# processes on one GPU. Run from the repository root of the working tree on the GPU machine:
#   [PROCS=3] [MIN_TIME=0.5] [TESTS=1] [BUDGET_S=540] bash ab_call.sh OUT
# Builds both (build-old/ holds 0fc4619's sources, from old_src.tar.gz: `git archive --format=tar.gz
# -o old_src.tar.gz 0fc4619 -- . ':!results'`, and build, build-gpu/ the working tree's; both
# kept for a later call on a warm machine), runs test_gpu_ops and test_fidelity on the new build
# when TESTS=1, then PROCS processes of each build over FILTER, old first, alternating, while the
# budget lasts. OUT gets summary.txt, the tests' log and ab.tar.gz (one JSON a process).
set -uo pipefail
out="$1"
procs="${PROCS:-3}" min_time="${MIN_TIME:-0.5}" budget="${BUDGET_S:-540}"
filter="${FILTER:-^(BigGemm/(Async|DeviceSync)/((fp16|bf16)/cublas|fp8/cublaslt)/n:8192/|SyncEvery/|NullKernel/DeviceSync/|SmallGemm/DeviceSync/fp16/cublas/n:512/|SpinKernel/(Async|DeviceSync)/)}"
export NCCL_NVLS_ENABLE=0
start=$(date +%s)
left() { echo $((budget - ($(date +%s) - start))); }
summary="$out/summary.txt"
mkdir -p "$out/ab"
{
  nvidia-smi --query-gpu=name,uuid,driver_version,power.limit --format=csv,noheader
  echo "new tree: $(git rev-parse HEAD 2>/dev/null) plus the working tree's changes"
} >"$summary"
if [ ! -x build-old/build/bench/sync_bench ]; then
  rm -rf build-old && mkdir -p build-old/src &&
    tar -xzf old_src.tar.gz -C build-old/src &&
    cmake -S build-old/src -B build-old/build -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DSYNC_BENCH_BUILD_TESTS=OFF >"$out/build.log" 2>&1 &&
    cmake --build build-old/build -j16 --target sync_bench >>"$out/build.log" 2>&1 ||
    { echo "old build failed" >>"$summary"; tail -20 "$out/build.log"; exit 1; }
fi
{ cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build-gpu -j16; } \
  >>"$out/build.log" 2>&1 || { echo "new build failed" >>"$summary"; tail -20 "$out/build.log"; exit 1; }
echo "built at $(( $(date +%s) - start )) s" >>"$summary"
if [ "${TESTS:-1}" = 1 ]; then
  ctest --test-dir build-gpu -R '^(test_gpu_ops|test_fidelity)$' --output-on-failure \
    >"$out/tests.log" 2>&1
  echo "tests rc=$? at $(( $(date +%s) - start )) s: $(grep -E 'tests passed|tests failed' "$out/tests.log")" >>"$summary"
fi
for p in $(seq 1 "$procs"); do
  for side in old new; do
    [ "$(left)" -gt 60 ] || { echo "budget: stopped before $side $p" >>"$summary"; break 2; }
    bin=build-gpu/bench/sync_bench
    [ $side = old ] && bin=build-old/build/bench/sync_bench
    t0=$(date +%s)
    "$bin" --benchmark_filter="$filter" --benchmark_min_time="$min_time" \
      --benchmark_out="$out/ab/$side$p.json" --benchmark_out_format=json >"$out/ab/$side$p.log" 2>&1
    echo "$side $p rc=$? $(( $(date +%s) - t0 )) s" >>"$summary"
  done
done
tar -czf "$out/ab.tar.gz" -C "$out" ab && rm -rf "$out/ab"
cat "$summary"
