#!/usr/bin/env bash
# Everything results/ holds, in one go on the GPU machine: tests (with the fidelity lines), the
# default sweep, a repetition run for the spread, the same subset in blocking wait mode, the
# implicit-sync map and compute-sanitizer. Writes into DIR (default results/latest); the
# summaries are made from the JSON afterwards with sync_summary, anywhere.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${1:-$ROOT/results/latest}"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
export BUILD_DIR
mkdir -p "$DIR"
bench="$BUILD_DIR/bench/sync_bench"
# The rows the README quotes, five times over: what the spread is measured on.
REPEAT_FILTER='^(NullKernel/|SmallGemm/.*/cublas/n:512/|BigGemm/.*/bf16/cublas/n:8192/|TrainLoop/)'
WAIT_FILTER='^(NullKernel/|SmallGemm/.*/fp16/cublas/n:512/)'

step() { printf '%-10s %s\n' "$1" "$2"; }
"$ROOT/scripts/test.sh" -V >"$DIR/test.log" 2>&1
step tests "exit $? ($(grep -E 'tests passed|tests failed' "$DIR/test.log" | tail -1))"
grep -h '^[0-9]*: fidelity:' "$DIR/test.log" | sed 's/^[0-9]*: //'

start=$(date +%s)
OUT_JSON="$DIR/sweep.json" "$ROOT/scripts/run.sh" >"$DIR/sweep_report.txt" 2>&1
step sweep "exit $?, $(($(date +%s) - start)) s"

"$bench" --benchmark_filter="$REPEAT_FILTER" --benchmark_repetitions=5 \
  --benchmark_out="$DIR/repeat.json" --benchmark_out_format=json >/dev/null 2>&1
step repeat "exit $?"
"$bench" --sync_mode=blocking --benchmark_filter="$WAIT_FILTER" \
  --benchmark_out="$DIR/blocking.json" --benchmark_out_format=json >/dev/null 2>&1
step blocking "exit $?"
"$bench" --sync_map="$DIR/sync_map" >/dev/null 2>&1
step sync_map "exit $?"
LOG_DIR="$BUILD_DIR/sanitizer" "$ROOT/scripts/sanitize_gpu.sh" >"$DIR/sanitize.log" 2>&1
step sanitize "exit $?"
cat "$DIR/sanitize.log"
