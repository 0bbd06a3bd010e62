#!/usr/bin/env bash
# Everything results/ holds, in one go on the GPU machine: tests (with the fidelity lines), the
# default sweep, a repetition run for the spread, the same subset in blocking wait mode, the
# implicit-sync map and compute-sanitizer. Writes into DIR (default results/latest); the
# summaries are made from the JSON afterwards with sync_summary, anywhere.
#
#   scripts/results.sh [DIR]
#
# Every step runs even where an earlier one failed (one failure must not cost the rest of a device
# call), each printing one line with its exit status; a failing step's log is DIR/<step>.log
# (test.log, sweep_report.txt, sanitize.log for the scripts), and its last lines are printed.
# compute-sanitizer missing on the machine (sanitize_gpu.sh's skip status, 77) is reported as
# skipped, not failed.
#
# Exit status: 0 every step passed (or sanitize skipped), 1 some step failed (named at the end),
# 2 bad input: DIR cannot be written, or no sync_bench after the build (see DIR/test.log).
set -uo pipefail
usage() { sed -n '2,${/^#/!q;s/^# \{0,1\}//p}' "$0"; }  # the header comment
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  -*) echo "results.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
esac
if [ $# -gt 1 ]; then
  echo "results.sh: one DIR at most, got $#: $*" >&2
  usage >&2
  exit 2
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${1:-$ROOT/results/latest}"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
export BUILD_DIR
if ! mkdir -p "$DIR" || [ ! -w "$DIR" ]; then
  echo "results.sh: cannot write to $DIR" >&2
  exit 2
fi
bench="$BUILD_DIR/bench/sync_bench"
# The rows the README quotes, five times over: what the spread is measured on.
REPEAT_FILTER='^(NullKernel/|SmallGemm/.*/cublas/n:512/|BigGemm/.*/bf16/cublas/n:8192/|TrainLoop/)'
WAIT_FILTER='^(NullKernel/|SmallGemm/.*/fp16/cublas/n:512/)'

failed=()
# step NAME RC LOG [DETAIL]: its line; a failure is remembered and its log's end printed.
step() {
  local name="$1" rc="$2" log="$3" detail="${4:-}"
  if [ "$rc" -eq 0 ]; then
    printf '%-10s %s\n' "$name" "exit 0$detail"
    return 0
  fi
  printf '%-10s %s\n' "$name" "FAILED: exit $rc$detail (log: $log)"
  [ -f "$log" ] && tail -n 5 "$log" | sed 's/^/           | /'
  failed+=("$name")
}

"$ROOT/scripts/test.sh" -V >"$DIR/test.log" 2>&1
rc=$?
counts="$(grep -E 'tests passed|tests failed' "$DIR/test.log" | tail -1)"
step tests $rc "$DIR/test.log" "${counts:+ ($counts)}"
grep -h '^[0-9]*: fidelity:' "$DIR/test.log" | sed 's/^[0-9]*: //'
if [ ! -x "$bench" ]; then
  echo "results.sh: no sync_bench at $bench after the build (see $DIR/test.log; BUILD_DIR?)" >&2
  exit 2
fi

start=$(date +%s)
OUT_JSON="$DIR/sweep.json" "$ROOT/scripts/run.sh" >"$DIR/sweep_report.txt" 2>&1
rc=$?
step sweep $rc "$DIR/sweep_report.txt" ", $(($(date +%s) - start)) s"

"$bench" --benchmark_filter="$REPEAT_FILTER" --benchmark_repetitions=5 \
  --benchmark_out="$DIR/repeat.json" --benchmark_out_format=json >"$DIR/repeat.log" 2>&1
step repeat $? "$DIR/repeat.log"
"$bench" --sync_mode=blocking --benchmark_filter="$WAIT_FILTER" \
  --benchmark_out="$DIR/blocking.json" --benchmark_out_format=json >"$DIR/blocking.log" 2>&1
step blocking $? "$DIR/blocking.log"
"$bench" --sync_map="$DIR/sync_map" >"$DIR/sync_map.log" 2>&1
step sync_map $? "$DIR/sync_map.log"
LOG_DIR="$BUILD_DIR/sanitizer" "$ROOT/scripts/sanitize_gpu.sh" >"$DIR/sanitize.log" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
  printf '%-10s %s\n' sanitize \
    "skipped: $(sed -n 's/^sanitize_gpu.sh: skipped: //p' "$DIR/sanitize.log" | tail -n 1)"
else
  step sanitize $rc "$DIR/sanitize.log"
fi
cat "$DIR/sanitize.log"

if ((${#failed[@]})); then
  echo "results.sh: ${#failed[@]} step(s) failed: ${failed[*]} (logs in $DIR)" >&2
  exit 1
fi
