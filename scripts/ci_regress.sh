#!/usr/bin/env bash
# The CI regression gate: runs the sync_bench sweep with repetitions and compares it with a
# stored baseline run; prints the comparison as a markdown table and fails on a regression.
#
#   scripts/ci_regress.sh BASE.json [extra sync_bench flags...]
#
# e.g. scripts/ci_regress.sh results/h100-baseline.json --benchmark_filter='SmallGemm/.*'
#
# Environment:
#   SYNC_BENCH     the sync_bench binary          (default build/bench/sync_bench)
#   SYNC_SUMMARY   the sync_summary binary        (default build/summary/sync_summary)
#   OUT            where the new run is written   (default sync_bench_ci.json)
#   REPETITIONS    --benchmark_repetitions        (default 5; the U test needs at least 2)
#   THRESHOLD      regression threshold, percent  (default 5)
#   ALPHA          U test significance level      (default 0.05)
#   FILTER         only compare matching names    (sync_summary compare --filter)
#
# Exit status: 0 no regression, 1 regression, 2 bad input or sync_bench failed. The sweep's own
# console output goes to stderr, so stdout is the markdown table alone (append it to
# $GITHUB_STEP_SUMMARY, a merge-request note, ...).
set -uo pipefail

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  sed -n '2,20s/^# \{0,1\}//p' "$0"
  [ $# -ge 1 ] && exit 0 || exit 2
fi
base="$1"
shift
bench="${SYNC_BENCH:-build/bench/sync_bench}"
summary="${SYNC_SUMMARY:-build/summary/sync_summary}"
out="${OUT:-sync_bench_ci.json}"

for tool in "$bench" "$summary"; do
  if [ ! -x "$tool" ]; then
    echo "ci_regress.sh: $tool not found or not executable (build first, or set SYNC_BENCH /" \
      "SYNC_SUMMARY)" >&2
    exit 2
  fi
done
if [ ! -r "$base" ]; then
  echo "ci_regress.sh: cannot read baseline $base" >&2
  exit 2
fi

if ! "$bench" --benchmark_repetitions="${REPETITIONS:-5}" --benchmark_out="$out" \
  --benchmark_out_format=json "$@" >&2; then
  echo "ci_regress.sh: $bench failed" >&2
  exit 2
fi

compare=(compare --format=markdown --threshold="${THRESHOLD:-5}" --alpha="${ALPHA:-0.05}")
[ -n "${FILTER:-}" ] && compare+=(--filter="$FILTER")
"$summary" "${compare[@]}" "$base" "$out"
status=$?
case $status in
  0) echo "ci_regress.sh: no regression against $base" >&2 ;;
  1) echo "ci_regress.sh: REGRESSION against $base (new run kept in $out)" >&2 ;;
  *) echo "ci_regress.sh: sync_summary could not compare $base and $out" >&2 ;;
esac
exit $status
