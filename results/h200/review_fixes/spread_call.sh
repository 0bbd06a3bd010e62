#!/usr/bin/env bash
# A device call behind results/h200/review_fixes/call4, call5: on a fresh copy, scripts/test.sh,
# then the headline rows in 6 separate processes (scripts/processes.sh), merged, and each
# process's paired overhead printed.
#   bash results/h200/review_fixes/spread_call.sh OUT     (OUT: an absolute folder)
set -uo pipefail
out="${1:?usage: spread_call.sh OUT}"
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
rm -rf /tmp/fresh /tmp/procs && mkdir -p /tmp/fresh
tar cf - --exclude='./build*' --exclude=./.git --exclude=./spread_call.sh . | (cd /tmp/fresh && tar xf -)
cd /tmp/fresh || exit 1
nvidia-smi -L >"$out/gpu.txt"
start=$(date +%s)
(BUILD_DIR=/tmp/fresh/build bash scripts/test.sh) >"$out/test1.txt" 2>&1
echo "test.sh: exit $?, $(($(date +%s) - start)) s, $(grep -o '[0-9]*% tests passed.*' "$out/test1.txt")"
scripts/processes.sh 6 /tmp/procs \
  --benchmark_filter='^(NullKernel/(Async|DeviceSync)|SmallGemm/(Async|DeviceSync)/fp16/cublas/n:512)/'
echo "processes.sh: exit $?"
build/summary/sync_summary merge --output="$out/processes.json" /tmp/procs/run-*.json
for f in /tmp/procs/run-*.json; do
  build/summary/sync_summary report --format=csv --metric=overhead_us \
    --filter='DeviceSync' "$f" | awk -F, -v f="$(basename "$f")" 'NR > 1 { printf "%s %s %.3f\n", f, $2, $14 }'
done | tee "$out/overheads.txt"
cat "$out/gpu.txt"
