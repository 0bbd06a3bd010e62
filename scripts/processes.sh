#!/usr/bin/env bash
# Runs sync_bench as K separate processes, one after the other, each writing DIR/run-<i>.json:
# what varies from one process to the next (the host side of a step moves 10-40%) shows only
# across processes. `sync_summary merge` then makes them one Google Benchmark JSON whose
# repetitions are the processes.
#
#   scripts/processes.sh K DIR [sync_bench flags...]
#
# Environment: SYNC_BENCH (default: the repository's build/bench/sync_bench). Exit status: 0, or the first failing
# process's (its JSON is kept; the others still run).
set -uo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,11s/^# \{0,1\}//p' "$0"
  exit 2
fi
k="$1"
dir="$2"
shift 2
case "$k" in
  '' | *[!0-9]* | 0*) echo "processes.sh: K must be a whole number of processes, 1 or more (got '$k')" >&2; exit 2 ;;
esac
bench="${SYNC_BENCH:-$(cd "$(dirname "$0")/.." && pwd)/build/bench/sync_bench}"
[ -x "$bench" ] || { echo "processes.sh: no sync_bench at $bench (build it, or set SYNC_BENCH)" >&2; exit 2; }
mkdir -p "$dir"
status=0
for i in $(seq 1 "$k"); do
  "$bench" --benchmark_out="$dir/run-$i.json" --benchmark_out_format=json "$@" >"$dir/run-$i.log" 2>&1
  rc=$?
  [ $rc -ne 0 ] && [ $status -eq 0 ] && status=$rc && echo "processes.sh: process $i exited $rc (see $dir/run-$i.log)" >&2
done
exit $status
