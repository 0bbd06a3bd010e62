#!/usr/bin/env bash
# The second device call behind results/h200/review2/ (call2): on a fresh copy, scripts/test.sh;
# the headline rows in 6 separate processes (scripts/processes.sh), each process's paired
# overhead printed; then scripts/sanitize_gpu.sh on the null kernel, with compute-sanitizer's
# version, to see why its tools exited 255 in call1.
#   bash spread_call.sh OUT     (from the repository root, results/ moved aside)
set -uo pipefail
out="${1:?usage: spread_call.sh OUT}"
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
rm -rf /tmp/fresh /tmp/procs && mkdir -p /tmp/fresh
tar cf - --exclude='./build*' --exclude=./.git --exclude=./spread_call.sh . | (cd /tmp/fresh && tar xf -)
cd /tmp/fresh || exit 1
export BUILD_DIR=/tmp/fresh/build
nvidia-smi -L >"$out/gpu.txt"
{
  start=$(date +%s)
  bash scripts/test.sh >"$out/test.txt" 2>&1
  echo "test.sh: exit $?, $(($(date +%s) - start)) s, $(grep -o '[0-9]*% tests passed.*' "$out/test.txt")"
  grep -E "Skipped|skipped:" "$out/test.txt" | grep -v "Check for" | head -6
  scripts/processes.sh 6 /tmp/procs \
    --benchmark_filter='^(NullKernel/(Async|DeviceSync)|SmallGemm/(Async|DeviceSync)/fp16/cublas/n:512)/'
  echo "processes.sh: exit $?"
  build/summary/sync_summary merge --output="$out/processes.json" /tmp/procs/run-*.json
  for f in /tmp/procs/run-*.json; do
    build/summary/sync_summary report --format=csv --metric=overhead_us \
      --filter='DeviceSync' "$f" | awk -F, -v f="$(basename "$f")" 'NR > 1 { printf "%s %s %.3f\n", f, $2, $14 }'
  done
  echo "== compute-sanitizer"
  /usr/local/cuda/bin/compute-sanitizer --version 2>&1 | tail -2
  start=$(date +%s)
  LOG_DIR=/tmp/sanitizer timeout 150 bash scripts/sanitize_gpu.sh '^NullKernel/(Async|DeviceSync)$'
  echo "sanitize_gpu.sh: exit $?, $(($(date +%s) - start)) s"
  head -c 3000 /tmp/sanitizer/memcheck.log
} 2>&1 | tee "$out/summary.txt"
cat "$out/gpu.txt"
