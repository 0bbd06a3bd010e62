#!/usr/bin/env bash
# Temporary: test.sh on a fresh copy, test_gpu_multigpu in 3 more processes, then CrossDevice and
# SyncAll on one GPU named twice (--devices=0,0): the new baseline against the old one (a null
# kernel on B), alternating binaries over 6 rounds.
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
  echo "test_gpu_multigpu process $i: exit $? ($(grep -cE '^\[       OK \]' "$W/logs/multigpu-$i.log") ok, $(grep -cE '^\[  SKIPPED \]' "$W/logs/multigpu-$i.log") skipped, $(grep -cE '^\[  FAILED  \]' "$W/logs/multigpu-$i.log") failed lines)"
done
t "variant build"
new_line='launch_read_then_stamp_kernel(slots_b, v, slots_b + 3, sb);'
old_line='launch_null_kernel(slots_b + 3, v, sb);'
cp build/bench/sync_bench "$W/sync_bench_new"
[ "$(grep -cF "$new_line" bench/multi_gpu.cpp)" = 1 ] || { echo "variant: line not found"; exit 1; }
sed -i "s/launch_read_then_stamp_kernel(slots_b, v, slots_b + 3, sb);/$old_line/" bench/multi_gpu.cpp
cmake --build build --target sync_bench -j16 >"$W/logs/variant_build.log" 2>&1 || { echo "variant build failed"; tail "$W/logs/variant_build.log"; }
cp build/bench/sync_bench "$W/sync_bench_nullbase"
t "measure"
filter='^MultiGpu/(CrossDevice|SyncAll/.*/devices:2)'
for r in 1 2 3 4 5 6; do
  order="new nullbase"; [ $((r % 2)) = 0 ] && order="nullbase new"
  for v in $order; do
    "$W/sync_bench_$v" --devices=0,0 --benchmark_filter="$filter" --benchmark_min_time=0.5 \
      --benchmark_out="$W/json/$v-$r.json" --benchmark_out_format=json >"$W/logs/$v-$r.txt" 2>&1
    echo "$v round $r: exit $?"
  done
done
t "done"
cp "$W"/json/new-1.json "$OUT/new-1.json"
(cd "$W" && tar czf "$OUT/logs.tar.gz" logs json)
for v in new nullbase; do
  build/summary/sync_summary merge --output="$OUT/$v-merged.json" "$W"/json/$v-*.json >"$W/logs/merge-$v.log" 2>&1 || cat "$W/logs/merge-$v.log"
done
build/summary/sync_summary report "$OUT/new-merged.json" "$OUT/nullbase-merged.json" >"$OUT/report.txt" 2>&1
for f in "$W"/json/*.json; do
  printf '%s ' "$(basename "$f" .json)"
  grep -oE '"name": "MultiGpu/[^"]*"|"overhead_us": [-0-9.e+]*|"baseline_us": [-0-9.e+]*' "$f" | tr '\n' ' ' | sed 's/"name": /\n  /g'
  echo
done | sed 's/"MultiGpu\///' | tail -60
