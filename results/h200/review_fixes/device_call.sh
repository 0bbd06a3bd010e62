#!/usr/bin/env bash
# One device call behind results/h200/review_fixes/, run from the repository root: on a fresh
# copy, scripts/test.sh, then scripts/run.sh, then the checks the review's fixes call for: the
# sync counters of the rows whose untimed passes now run whole periods, and an unknown output
# format's exit status.
#   bash results/h200/review_fixes/device_call.sh OUT
set -uo pipefail
out="${1:?usage: device_call.sh OUT}"
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
rm -rf /tmp/fresh && mkdir -p /tmp/fresh
tar cf - --exclude='./build*' --exclude=./.git --exclude=./device_call.sh . |
  (cd /tmp/fresh && tar xf -)
cd /tmp/fresh || exit 1
nvidia-smi -L >"$out/gpu.txt"
start=$(date +%s)
(BUILD_DIR=/tmp/fresh/build bash scripts/test.sh) >"$out/test1.txt" 2>&1
echo "test.sh: exit $?, $(($(date +%s) - start)) s, $(grep -o '[0-9]*% tests passed.*' "$out/test1.txt")"
grep -E "Test +#[0-9]+: (test_fidelity|GpuGraphs)" "$out/test1.txt"
start=$(date +%s)
OUT_JSON=$out/sweep.json bash scripts/run.sh >"$out/run.txt" 2>&1
echo "run.sh: exit $?, $(($(date +%s) - start)) s"
summary=/tmp/fresh/build/summary/sync_summary
{
  echo "== syncs_per_step"
  "$summary" report --format=csv --metric=syncs_per_step \
    --filter='^(SyncEvery/StreamSync|TrainLoop/(ItemEveryStep|ReadEveryN|GraphReadEveryN))' \
    "$out/sweep.json" | cut -d, -f2,14
  echo "== sync_bench --benchmark_out_format=jsn"
  /tmp/fresh/build/bench/sync_bench --benchmark_out=/tmp/x.json --benchmark_out_format=jsn
  echo "exit $?"
  echo "== headline paired overheads"
  "$summary" report --format=csv --metric=overhead_us \
    --filter='^(NullKernel/DeviceSync|SmallGemm/DeviceSync/fp16/cublas/n:512)$' "$out/sweep.json" |
    cut -d, -f2,14
} >"$out/checks.txt" 2>&1
cat "$out/checks.txt"
cat "$out/gpu.txt"
