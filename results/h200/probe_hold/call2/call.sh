#!/usr/bin/env bash
# Where the default sweep's wall time goes: every console line of sync_bench timestamped.
set -uo pipefail
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
out="$1"
t0=$(date +%s)
BUILD_DIR=/tmp/b bash scripts/setup.sh >"$out/build.txt" 2>&1 || { echo "build failed"; tail -20 "$out/build.txt"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
nvidia-smi -L | head -1
stamp() { perl -MTime::HiRes=time -ne 'BEGIN{$|=1} printf "%.4f %s", time, $_'; }
t1=$(date +%s.%N)
echo "start $t1" >"$out/sweep_ts.txt"
stdbuf -oL -eL /tmp/b/bench/sync_bench --benchmark_out="$out/sweep.json" --benchmark_out_format=json 2>&1 | stamp >>"$out/sweep_ts.txt"
echo "sweep rc=${PIPESTATUS[0]} $(perl -e "printf '%.1f', $(date +%s.%N) - $t1") s"
t2=$(date +%s.%N)
/tmp/b/summary/sync_summary report "$out/sweep.json" >"$out/report.txt" 2>&1
echo "report rc=$? $(perl -e "printf '%.1f', $(date +%s.%N) - $t2") s"
gzip -9 "$out/sweep.json"
