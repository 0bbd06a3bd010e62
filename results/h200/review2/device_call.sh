#!/usr/bin/env bash
# One device call behind results/h200/review2/, run from the repository root (results/ moved
# aside, this script copied to the root): on a fresh copy of the tree, scripts/test.sh; the
# Overlap family in three processes (DoubleBuffer's batch now covers its last copy); scripts/run.sh
# with sync_bench killed mid-sweep (salvage); scripts/run.sh whole; scripts/sanitize_gpu.sh on the
# null kernel (does it find compute-sanitizer?).
#   bash device_call.sh OUT
set -uo pipefail
out="${1:?usage: device_call.sh OUT}"
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
rm -rf /tmp/fresh && mkdir -p /tmp/fresh
tar cf - --exclude='./build*' --exclude=./.git --exclude=./device_call.sh . |
  (cd /tmp/fresh && tar xf -)
cd /tmp/fresh || exit 1
export BUILD_DIR=/tmp/fresh/build
nvidia-smi -L >"$out/gpu.txt"
summary=$BUILD_DIR/summary/sync_summary
{
  start=$(date +%s)
  bash scripts/test.sh >"$out/test.txt" 2>&1
  echo "test.sh: exit $?, $(($(date +%s) - start)) s, $(grep -o '[0-9]*% tests passed.*' "$out/test.txt")"
  echo "  -Wdangling-reference warnings: $(grep -c 'Wdangling-reference' "$out/test.txt")"
  grep -E "AnAllocationThatDoesNotFit|PairedBaselineIsWarmedUp" "$out/test.txt" | head -4

  for p in 1 2 3; do
    "$BUILD_DIR/bench/sync_bench" --benchmark_filter='^Overlap/' \
      --benchmark_out="/tmp/overlap$p.json" --benchmark_out_format=json >/dev/null 2>&1
    echo "overlap process $p: exit $?"
  done
  "$summary" merge --output="$out/overlap.json" /tmp/overlap{1,2,3}.json
  echo "== Overlap, 3 processes: step us and overlap_efficiency (median, min, max)"
  for m in real_time overlap_efficiency; do
    "$summary" report --format=csv --metric=$m "$out/overlap.json" | cut -d, -f2,13-16
  done

  echo "== run.sh with sync_bench killed after 30 s"
  (sleep 30; pkill -KILL -x sync_bench) &
  start=$(date +%s)
  OUT_JSON=/tmp/killed/run.json bash scripts/run.sh >"$out/killed.txt" 2>&1
  echo "run.sh: exit $?, $(($(date +%s) - start)) s; files: $(ls /tmp/killed | tr '\n' ' ')"
  grep -E "salvage|run.sh:" "$out/killed.txt" | cut -c1-300
  wait
  "$summary" report --format=csv /tmp/killed/run.json >/dev/null && echo "report on it: ok"
  "$summary" report /tmp/killed/run.json.partial 2>&1 | head -2 | cut -c1-300

  start=$(date +%s)
  OUT_JSON=$out/sweep.json bash scripts/run.sh >"$out/run.txt" 2>&1
  echo "run.sh: exit $?, $(($(date +%s) - start)) s"
  "$summary" report --format=csv --metric=overhead_us \
    --filter='^(NullKernel/DeviceSync|SmallGemm/DeviceSync/fp16/cublas/n:512)$' "$out/sweep.json" |
    cut -d, -f2,14

  echo "== sanitize_gpu.sh on the null kernel"
  start=$(date +%s)
  LOG_DIR=/tmp/sanitizer timeout 120 bash scripts/sanitize_gpu.sh '^NullKernel/(Async|DeviceSync)$' \
    >"$out/sanitize.txt" 2>&1
  echo "sanitize_gpu.sh: exit $?, $(($(date +%s) - start)) s"
  tail -5 "$out/sanitize.txt"
} 2>&1 | tee "$out/summary.txt"
cat "$out/gpu.txt"
