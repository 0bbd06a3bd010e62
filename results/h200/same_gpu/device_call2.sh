#!/usr/bin/env bash
# Device call 2 (a second H200, the final tree): test.sh on a fresh copy, test_gpu_multigpu in 3
# more processes, then CrossDevice and SyncAll on the GPU named twice in 6 processes: do the
# one-GPU overheads of call 1 reproduce on another machine?
set -uo pipefail
OUT="$1"
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
start=$(date +%s)
t() { echo "[$(($(date +%s) - start))s] $*"; }
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
W=/tmp/w
rm -rf "$W" && mkdir -p "$W/logs" "$W/json"
tar --exclude=./build --exclude=./results -cf - . | (mkdir -p "$W/tree" && cd "$W/tree" && tar xf -)
cd "$W/tree" || exit 1
t "test.sh"
scripts/test.sh >"$W/logs/test.log" 2>&1
echo "test.sh exit $?"; grep -E "tests passed|tests failed" "$W/logs/test.log"
for i in 1 2 3; do
  build/tests/test_gpu_multigpu >"$W/logs/multigpu-$i.log" 2>&1
  echo "test_gpu_multigpu process $i: exit $? ($(grep -cE '^\[       OK \]' "$W/logs/multigpu-$i.log") ok, $(grep -cE '^\[  FAILED  \]' "$W/logs/multigpu-$i.log") failed lines)"
done
t "measure"
filter='^MultiGpu/(CrossDevice|SyncAll/.*/devices:2)'
for r in 1 2 3 4 5 6; do
  build/bench/sync_bench --devices=0,0 --benchmark_filter="$filter" --benchmark_min_time=0.5 \
    --benchmark_out="$W/json/new-$r.json" --benchmark_out_format=json >"$W/logs/new-$r.txt" 2>&1
  echo "process $r: exit $?"
done
t "done"
build/summary/sync_summary merge --output="$OUT/new-merged.json" "$W"/json/new-*.json >"$W/logs/merge.log" 2>&1 || cat "$W/logs/merge.log"
build/summary/sync_summary report "$OUT/new-merged.json" >"$OUT/report.txt" 2>&1
(cd "$W" && tar czf "$OUT/logs.tar.gz" logs json)
grep -o '"multi_gpu_devices": "[^"]*"' "$W/json/new-1.json"
grep -A12 "CrossDevice: time" "$OUT/report.txt"
