#!/usr/bin/env bash
# The device call behind this folder: scripts/test.sh on the tree (its GPU tests check the
# context's host_clock_ghz), then the headline rows (NullKernel and SmallGemm fp16 n=512, Async
# and DeviceSync) in PROCESSES processes, merged, with each process's measured host clock beside
# its Async times, and report's header of the merged run.
#   bash results/h200/host_clock/clock_call.sh OUT   (from the repository root)
set -uo pipefail
out="${1:?usage: clock_call.sh OUT}"
work="$(mktemp -d)"
nvidia-smi -L >"$out/gpu.txt"
scripts/test.sh >"$work/test.txt" 2>&1
echo "test.sh: exit $?, $(grep -o '[0-9]*% tests passed.*' "$work/test.txt" | tail -1)" | tee "$out/summary.txt"
SYNC_BENCH=build/bench/sync_bench scripts/processes.sh "${PROCESSES:-8}" "$work/proc" \
  --benchmark_filter='^(NullKernel/(Async|DeviceSync)|SmallGemm/(Async|DeviceSync)/fp16/cublas/n:512)/' \
  >"$work/processes.log" 2>&1 || echo "processes.sh: exit $?" | tee -a "$out/summary.txt"
build/summary/sync_summary merge --output="$out/headline.json" "$work"/proc/run-*.json >>"$work/processes.log" 2>&1
# Per process: the clock, and the Async time per step and the DeviceSync overhead of each row.
for f in "$work"/proc/run-*.json; do
  clock=$(grep -o '"host_clock_ghz": "[^"]*"' "$f" | cut -d'"' -f4)
  rows=$(grep -o '"name": "[^"]*/manual_time"\|"real_time": [0-9.e+-]*\|"overhead_us": [0-9.e+-]*' "$f" |
    awk -F': ' '/name/ { n = $2; gsub(/"|\/manual_time/, "", n) } /real_time/ && n ~ /Async/ { printf " %s %.2f us;", n, $2 }
      /overhead_us/ { printf " %s overhead %.2f us;", n, $2 }')
  echo "${f##*/}: host_clock_ghz $clock;$rows"
done | tee -a "$out/summary.txt"
build/summary/sync_summary report "$out/headline.json" 2>&1 | head -12 | tee -a "$out/summary.txt"
cp "$work/test.txt" "$out/test.txt"
tar czf "$out/logs.tar.gz" -C "$work" proc processes.log
