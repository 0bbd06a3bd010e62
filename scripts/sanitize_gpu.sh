#!/usr/bin/env bash
# compute-sanitizer's memcheck, racecheck and synccheck over a filtered sync_bench run (GPU machine).
# Exits non-zero if any tool reports an error. Logs go to $LOG_DIR (default build/sanitizer).
#
#   scripts/sanitize_gpu.sh [FILTER]
#
# compute-sanitizer is looked for, in order: $COMPUTE_SANITIZER, PATH, $CUDA_HOME (and $CUDA_PATH)
# /compute-sanitizer/, next to nvcc (NVCC_DIR/../compute-sanitizer/, nvcc from PATH or
# /usr/local/cuda/bin), /usr/local/cuda/compute-sanitizer/: CUDA installs it there, off PATH.
#
# Exit status: 0 no tool reported an error, 1 some did (see the logs), 2 no sync_bench in
# $BUILD_DIR, 77 skipped: no compute-sanitizer found (the places looked are printed).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
LOG_DIR="${LOG_DIR:-$BUILD_DIR/sanitizer}"
FILTER="${1:-^(NullKernel/|SmallGemm/.*/(fp16|tf32)/cublas(lt)?/n:128/)}"
bench="$BUILD_DIR/bench/sync_bench"

# find_sanitizer: sets `sanitizer` to the first compute-sanitizer found, else fails with the places
# it looked in `looked`.
sanitizer=''
looked=()
find_sanitizer() {
  local candidates=() c nvcc
  [ -n "${COMPUTE_SANITIZER:-}" ] && candidates+=("$COMPUTE_SANITIZER")
  c="$(command -v compute-sanitizer)" && candidates+=("$c")
  [ -n "${CUDA_HOME:-}" ] && candidates+=("$CUDA_HOME/compute-sanitizer/compute-sanitizer"
                                           "$CUDA_HOME/bin/compute-sanitizer")
  [ -n "${CUDA_PATH:-}" ] && candidates+=("$CUDA_PATH/compute-sanitizer/compute-sanitizer")
  nvcc="$(command -v nvcc)" || nvcc=/usr/local/cuda/bin/nvcc
  candidates+=("$(dirname "$nvcc")/../compute-sanitizer/compute-sanitizer"
               /usr/local/cuda/compute-sanitizer/compute-sanitizer)
  for c in "${candidates[@]}"; do
    if [ -f "$c" ] && [ -x "$c" ]; then
      sanitizer="$c"
      return 0
    fi
    looked+=("$c")
  done
  return 1
}
if ! find_sanitizer; then
  echo "sanitize_gpu.sh: no compute-sanitizer on PATH, and none at:" >&2
  printf '  %s\n' "${looked[@]}" >&2
  echo "sanitize_gpu.sh: skipped: compute-sanitizer not found (set COMPUTE_SANITIZER or CUDA_HOME)"
  exit 77
fi
if [ ! -x "$bench" ]; then
  echo "sanitize_gpu.sh: no sync_bench at $bench (build it, or set BUILD_DIR)" >&2
  exit 2
fi
mkdir -p "$LOG_DIR" || exit 2
echo "sanitize_gpu.sh: $sanitizer"
# CUPTI cannot subscribe under the sanitizer: accounting off. Few steps: the tools are slow.
args=(--benchmark_filter="$FILTER" --benchmark_min_time=0.0001 --sync_accounting=off)
status=0
for tool in memcheck racecheck synccheck; do
  log="$LOG_DIR/$tool.log"
  "$sanitizer" --tool "$tool" --error-exitcode 3 "$bench" "${args[@]}" >"$log" 2>&1
  rc=$?
  summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)
  echo "compute-sanitizer $tool: exit $rc; ${summary:-no summary}"
  # No summary: the tool itself failed before checking anything; its last words say why.
  [ -z "$summary" ] && [ $rc -ne 0 ] && tail -n 5 "$log" | sed 's/^/    /'
  [ $rc -eq 0 ] || status=1
done
exit $status
