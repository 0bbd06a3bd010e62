#!/usr/bin/env bash
# The device call behind this folder: (1) wait_probe.cu in PROBE_PROCESSES rounds of processes, one
# per wait mode (spin, yield, blocking) and step (kernel, gemm), all in probe.txt; (2) sync_bench's
# BigGemm Async/DeviceSync bf16 n=8192 rows under --sync_mode=auto, blocking and yield, in
# BIGGEMM_PROCESSES rounds of alternating processes, merged per mode into biggemm-MODE.json.
#   bash sync_wait_call.sh OUT   (from the repository root, results/ moved aside, wait_probe.cu beside it)
set -uo pipefail
out="${1:?usage: sync_wait_call.sh OUT}"
here="$(cd "$(dirname "$0")" && pwd)"
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
logs=/tmp/sync_wait_logs
mkdir -p "$logs"
nvidia-smi -L | tee "$out/gpu.txt"
start=$(date +%s)

nvcc -O2 -arch=sm_90 -o /tmp/wait_probe "$here/wait_probe.cu" -lcublas || exit 1
for i in $(seq 1 "${PROBE_PROCESSES:-2}"); do
  for mode in spin yield blocking; do
    for step in kernel gemm; do
      echo "## process $i"
      /tmp/wait_probe "$mode" "$step" 15 || echo "# wait_probe $mode $step: exit $?"
    done
  done
done >"$out/probe.txt" 2>&1
echo "probe: $(($(date +%s) - start)) s" | tee "$out/summary.txt"

cmake -S . -B /tmp/build -DCMAKE_BUILD_TYPE=Release >"$logs/build.log" 2>&1 &&
  cmake --build /tmp/build -j "$(nproc)" --target sync_bench sync_summary >>"$logs/build.log" 2>&1 ||
  { echo "build failed" | tee -a "$out/summary.txt"; tail -30 "$logs/build.log"; exit 1; }
echo "build: $(($(date +%s) - start)) s" | tee -a "$out/summary.txt"

filter='^BigGemm/(Async|DeviceSync)/bf16/[^/]+/n:8192/'
for i in $(seq 1 "${BIGGEMM_PROCESSES:-3}"); do
  for mode in auto blocking yield; do
    /tmp/build/bench/sync_bench --sync_mode="$mode" --benchmark_filter="$filter" \
      --benchmark_out="$logs/biggemm-$mode-$i.json" --benchmark_out_format=json \
      >"$logs/biggemm-$mode-$i.log" 2>&1 || echo "biggemm $mode $i: exit $?" | tee -a "$out/summary.txt"
  done
done
for mode in auto blocking yield; do
  /tmp/build/summary/sync_summary merge --output="$out/biggemm-$mode.json" "$logs"/biggemm-"$mode"-*.json \
    >>"$logs/merge.log" 2>&1 || echo "merge $mode failed" | tee -a "$out/summary.txt"
done
echo "biggemm: $(($(date +%s) - start)) s" | tee -a "$out/summary.txt"
tar czf "$out/logs.tar.gz" -C "$logs" .

# Short summary, last: the probe's sync rows (paired gap per X) and the BigGemm overheads.
awk '/^# mode/ { hdr = $0 } $2 == "sync" { print hdr " | X " $1 " us: launch " $3 " gap " $5 " paired " $7 }' \
  "$out/probe.txt" | sed 's/# mode //; s/, [0-9]* rounds.*|/ |/' | tee -a "$out/summary.txt"
for mode in auto blocking yield; do
  for f in "$logs"/biggemm-"$mode"-*.json; do
    grep -o '"name": "BigGemm/DeviceSync[^"]*"\|"overhead_us": [0-9.e+-]*' "$f" | paste - - |
      sed "s|^|$mode ${f##*/}: |"
  done
done | tee -a "$out/summary.txt"
