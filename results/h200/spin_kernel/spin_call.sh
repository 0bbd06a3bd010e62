#!/usr/bin/env bash
# The device call behind this folder: builds the tree, runs test_gpu_patterns (the SpinKernel test
# REPEAT times more), then the SpinKernel rows beside BigGemm bf16 n=8192 Async/DeviceSync in
# PROCESSES processes (the default stopping rule) and the SpinKernel Async/DeviceSync rows in
# LONG_PROCESSES processes at 2 s a benchmark; merges each set and reports it.
#   bash spin_call.sh OUT   (from the repository root, results/ moved aside)
set -uo pipefail
out="${1:?usage: spin_call.sh OUT}"
logs=/tmp/spin_logs
rm -rf "$logs" && mkdir -p "$logs"
start=$(date +%s)
stamp() { echo "$1: $(($(date +%s) - start)) s${2:+, $2}" | tee -a "$out/summary.txt"; }
nvidia-smi -L | tee "$out/summary.txt"
cmake -S . -B /tmp/build -DCMAKE_BUILD_TYPE=Release >"$logs/build.log" 2>&1 &&
  cmake --build /tmp/build -j "$(nproc)" >>"$logs/build.log" 2>&1 ||
  { stamp "build failed"; tail -30 "$logs/build.log"; exit 1; }
stamp build
/tmp/build/tests/test_gpu_patterns >"$logs/gpu_patterns.txt" 2>&1
stamp test_gpu_patterns "exit $?, $(grep -c '^\[       OK \]' "$logs/gpu_patterns.txt") passed, $(grep -c '^\[  FAILED  \] GpuPatterns' "$logs/gpu_patterns.txt") failed"
for i in $(seq 1 "${REPEAT:-3}"); do
  /tmp/build/tests/test_gpu_patterns --gtest_filter='*SpinKernel*' >"$logs/spin_test$i.txt" 2>&1
  stamp "SpinKernel test $i" "exit $?"
done
grep -h -A3 'Failure' "$logs"/gpu_patterns.txt "$logs"/spin_test*.txt | head -40

bench=/tmp/build/bench/sync_bench summary=/tmp/build/summary/sync_summary
SYNC_BENCH=$bench scripts/processes.sh "${PROCESSES:-6}" "$logs/spin" \
  --benchmark_filter='^(SpinKernel/|BigGemm/(Async|DeviceSync)/bf16/[^/]+/n:8192/)'
stamp "spin processes" "exit $?"
SYNC_BENCH=$bench scripts/processes.sh "${LONG_PROCESSES:-3}" "$logs/spin_long" \
  --benchmark_filter='^SpinKernel/(Async|DeviceSync)/' --benchmark_min_time=2
stamp "spin_long processes" "exit $?"
for set in spin spin_long; do
  $summary merge --output="$out/$set.json" "$logs/$set"/run-*.json >>"$logs/merge.log" 2>&1 ||
    stamp "merge $set failed"
done
$summary report "$out/spin.json" --format=markdown >"$out/spin_report.md" 2>"$logs/report.err"
$summary report "$out/spin_long.json" --format=markdown >"$out/spin_long_report.md" 2>>"$logs/report.err"
tar czf "$out/logs.tar.gz" -C "$logs" .
# Last: per process, each SpinKernel and BigGemm DeviceSync row's paired overhead.
for set in spin spin_long; do
  for f in "$logs/$set"/run-*.json; do
    python3 - "$f" "$set" <<'PY' 2>/dev/null || grep -o '"name": "[^"]*DeviceSync[^"]*"\|"overhead_us": [0-9.e+-]*' "$f" | paste - - | sed "s|^|$set ${f##*/} |"
import json, sys
d = json.load(open(sys.argv[1]))
row = [f"{b['name'].replace('/manual_time','').replace('SpinKernel/','S/').replace('BigGemm/DeviceSync/bf16/','BG/')}={b['overhead_us']:.1f}"
       for b in d["benchmarks"] if "overhead_us" in b and ("/DeviceSync/" in b["name"] or "ScalarRead/pinned" in b["name"])]
print(sys.argv[2], sys.argv[1].rsplit("/", 1)[-1], " ".join(row))
PY
  done
done | tee -a "$out/summary.txt"
