#!/usr/bin/env bash
# The clean runs of 26 H200s judged one machine a side, every run against every other (650 pairs):
# ../gate/call1..14 and ../runners/call2..9 (22 device calls, 21 GPUs) and call1..4 here. Every
# REGRESSION or improvement is a false one. Prints each, then the count per row and verdict.
# SYNC_SUMMARY picks the sync_summary (default build/summary/sync_summary).
#   results/h200/host_distance/judge.sh > OUT.txt     (from any folder)
set -uo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
summary="$(realpath "${SYNC_SUMMARY:-$root/build/summary/sync_summary}" 2>/dev/null)"
[ -x "$summary" ] ||
  { echo "judge.sh: no sync_summary (build it, or set SYNC_SUMMARY)" >&2; exit 2; }
cd "$(dirname "$0")/.."
filter='--filter=^(?!SmallGemm/BulkRead/pageable/|[^/]+/EventSync/blocking|NullKernel/(Print|ScalarRead/))'
runs=(gate/call{1..14}/clean.json runners/call{2,3,4,5,6,9}/new.json runners/call{7,8}/clean.json
  host_distance/call{1..4}/clean.json)
flagged="$(mktemp)"
csv="$(mktemp)"
trap 'rm -f "$flagged" "$csv"' EXIT
pairs=0
for a in "${runs[@]}"; do
  for b in "${runs[@]}"; do
    [ "$a" = "$b" ] && continue
    pairs=$((pairs + 1))
    "$summary" compare --format=csv "$filter" "$a" "$b" >"$csv" 2>/dev/null
    [ $? -le 1 ] || { echo "judge.sh: sync_summary could not compare $a and $b" >&2; exit 2; }
    awk -F, -v p="$a>$b" 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
      $col["verdict"] == "REGRESSION" || $col["verdict"] == "improvement" {
        printf "%s %s %s %+.1f%%\n", p, $1, $col["verdict"], $col["change_pct"] }' "$csv" >>"$flagged"
  done
done
cat "$flagged"
echo "== $pairs pairs: false REGRESSION in $(grep -c ' REGRESSION ' "$flagged"), false improvement" \
  "in $(grep -c ' improvement ' "$flagged")"
awk '{print $2, $3}' "$flagged" | sort | uniq -c | sort -rn
