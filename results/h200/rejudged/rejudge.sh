#!/usr/bin/env bash
# Re-judges the clean runs already committed from 22 H200 device calls (../gate/call1..14 and
# ../runners/call2..9, 21 GPUs: calls 2 and 3 of ../gate/ shared one) with the sync_summary given
# (SYNC_SUMMARY, default build/summary/sync_summary), no GPU needed. Three setups, each clean run
# against clean runs of other calls, so every REGRESSION or improvement is a false one:
#   mirror:   BASE merged from the two slow-host runner calls (../runners/call7, call8), NEW each
#             of the 18 runs from other machines but gate/call4 and gate/call6 (slow hosts too);
#   pairwise: every run against every other, one machine a side (462 pairs);
#   merged:   every run against a BASE merged from the other 21 (leave one out).
# Prints the rows flagged, with their count, and a total per setup.
#   results/h200/rejudged/rejudge.sh > OUT.txt     (from the repository root)
set -uo pipefail
summary="$(realpath "${SYNC_SUMMARY:-build/summary/sync_summary}")"
cd "$(dirname "$0")/.."
filter='--filter=^(?!SmallGemm/BulkRead/pageable/|[^/]+/EventSync/blocking|NullKernel/(Print|ScalarRead/))'
runs=(gate/call{1..14}/clean.json runners/call{2,3,4,5,6,9}/new.json runners/call{7,8}/clean.json)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# verdicts BASE NEW: "row verdict change%" for each false REGRESSION or improvement.
verdicts() {
  "$summary" compare --format=csv "$filter" "$1" "$2" 2>/dev/null |
    awk -F, '$15 == "REGRESSION" || $15 == "improvement" { printf "%s %s %+.1f%%\n", $1, $15, $7 }'
}
# tally SETUP FILE PAIRS: the rows flagged, and how many comparisons had any.
tally() {
  echo "== $1: $3 comparisons"
  local verdict
  for verdict in REGRESSION improvement; do
    echo "  false $verdict: $(grep -c " $verdict " "$2") rows, in" \
      "$(awk -v v="$verdict" '$3 == v {print $1}' "$2" | sort -u | wc -l) comparisons"
  done
  awk '{print $2, $3}' "$2" | sort | uniq -c | sort -rn
}

"$summary" merge "$filter" --output="$tmp/slow2.json" runners/call7/clean.json \
  runners/call8/clean.json >/dev/null 2>&1 || { echo "rejudge.sh: merge failed" >&2; exit 2; }
: >"$tmp/mirror"; n=0
for r in "${runs[@]}"; do
  case "$r" in gate/call4/* | gate/call6/* | runners/call7/* | runners/call8/*) continue ;; esac
  n=$((n + 1))
  verdicts "$tmp/slow2.json" "$r" | sed "s|^|slow2>$r |" >>"$tmp/mirror"
done
tally mirror "$tmp/mirror" "$n"

: >"$tmp/pairwise"; n=0
for a in "${runs[@]}"; do
  for b in "${runs[@]}"; do
    [ "$a" = "$b" ] && continue
    n=$((n + 1))
    verdicts "$a" "$b" | sed "s|^|$a>$b |" >>"$tmp/pairwise"
  done
done
tally pairwise "$tmp/pairwise" "$n"

: >"$tmp/merged"; n=0
for a in "${runs[@]}"; do
  others=()
  for b in "${runs[@]}"; do [ "$a" != "$b" ] && others+=("$b"); done
  "$summary" merge "$filter" --output="$tmp/others.json" "${others[@]}" >/dev/null 2>&1 ||
    { echo "rejudge.sh: merge failed" >&2; exit 2; }
  n=$((n + 1))
  verdicts "$tmp/others.json" "$a" | sed "s|^|others>$a |" >>"$tmp/merged"
done
tally merged "$tmp/merged" "$n"
