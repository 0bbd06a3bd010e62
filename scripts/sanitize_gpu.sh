#!/usr/bin/env bash
# compute-sanitizer's memcheck, racecheck and synccheck over a filtered sync_bench run (GPU machine).
# Exits non-zero if any tool reports an error. Logs go to $LOG_DIR (default build/sanitizer).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
LOG_DIR="${LOG_DIR:-$BUILD_DIR/sanitizer}"
FILTER="${1:-^(NullKernel/|SmallGemm/.*/(fp16|tf32)/cublas(lt)?/n:128/)}"
mkdir -p "$LOG_DIR"
# CUPTI cannot subscribe under the sanitizer: accounting off. Few steps: the tools are slow.
args=(--benchmark_filter="$FILTER" --benchmark_min_time=0.0001 --sync_accounting=off)
status=0
for tool in memcheck racecheck synccheck; do
  log="$LOG_DIR/$tool.log"
  compute-sanitizer --tool "$tool" --error-exitcode 3 "$BUILD_DIR/bench/sync_bench" "${args[@]}" \
    >"$log" 2>&1
  rc=$?
  summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)
  echo "compute-sanitizer $tool: exit $rc; ${summary:-no summary}"
  [ $rc -eq 0 ] || status=1
done
exit $status
