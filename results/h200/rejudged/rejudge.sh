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
# Exit status: 0 every comparison ran; 2 one could not (no sync_summary, a run missing, a merge or
# compare that failed, a CSV without the columns read): stops there, with sync_summary's message.
# compare's own notes on stderr are shown only when it fails (exit 2 or more; 1 is a regression).
set -uo pipefail
given="${SYNC_SUMMARY:-build/summary/sync_summary}"
die() { echo "rejudge.sh: $*" >&2; exit 2; }
if ! summary="$(realpath -e "$given" 2>/dev/null)" || [ ! -x "$summary" ]; then
  die "no sync_summary at $given (build it, or set SYNC_SUMMARY)"
fi
cd "$(dirname "$0")/.." || die "cannot cd to $(dirname "$0")/.."
filter='--filter=^(?!SmallGemm/BulkRead/pageable/|[^/]+/EventSync/blocking|NullKernel/(Print|ScalarRead/))'
runs=(gate/call{1..14}/clean.json runners/call{2,3,4,5,6,9}/new.json runners/call{7,8}/clean.json)
missing=()
for r in "${runs[@]}"; do [ -r "$r" ] || missing+=("$PWD/$r"); done
((${#missing[@]} == 0)) || die "missing runs: ${missing[*]}"
tmp="$(mktemp -d)" || die "cannot make a temporary folder"
trap 'rm -rf "$tmp"' EXIT

# verdicts BASE NEW LABEL FILE: appends "LABEL row verdict change%" to FILE for each false
# REGRESSION or improvement; stops the script where compare could not judge.
verdicts() {
  local rc=0
  "$summary" compare --format=csv "$filter" "$1" "$2" >"$tmp/csv" 2>"$tmp/err" || rc=$?
  if [ $rc -gt 1 ]; then
    cat "$tmp/err" >&2
    die "sync_summary compare $1 $2 failed (exit $rc)"
  fi
  # The columns read: 1 benchmark, 7 change_pct, 15 verdict.
  awk -F, 'NR == 1 { exit !($1 == "benchmark" && $7 == "change_pct" && $15 == "verdict") }
            END { if (NR == 0) exit 1 }' "$tmp/csv" ||
    die "sync_summary compare $1 $2: no CSV header with benchmark, change_pct and verdict in" \
      "columns 1, 7 and 15: $(head -c 300 "$tmp/csv")"
  awk -F, '$15 == "REGRESSION" || $15 == "improvement" { printf "%s %s %+.1f%%\n", $1, $15, $7 }' \
    "$tmp/csv" | sed "s|^|$3 |" >>"$4" || die "could not write $4"
}
# merge OUTPUT RUN...: the runs merged, or the script stops with merge's message.
merge() {
  local out="$1"
  shift
  "$summary" merge "$filter" --output="$out" "$@" >"$tmp/merge.log" 2>&1 ||
    { cat "$tmp/merge.log" >&2; die "merge failed: $*"; }
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

merge "$tmp/slow2.json" runners/call7/clean.json runners/call8/clean.json
: >"$tmp/mirror"; n=0
for r in "${runs[@]}"; do
  case "$r" in gate/call4/* | gate/call6/* | runners/call7/* | runners/call8/*) continue ;; esac
  n=$((n + 1))
  verdicts "$tmp/slow2.json" "$r" "slow2>$r" "$tmp/mirror"
done
tally mirror "$tmp/mirror" "$n"

: >"$tmp/pairwise"; n=0
for a in "${runs[@]}"; do
  for b in "${runs[@]}"; do
    [ "$a" = "$b" ] && continue
    n=$((n + 1))
    verdicts "$a" "$b" "$a>$b" "$tmp/pairwise"
  done
done
tally pairwise "$tmp/pairwise" "$n"

: >"$tmp/merged"; n=0
for a in "${runs[@]}"; do
  others=()
  for b in "${runs[@]}"; do [ "$a" != "$b" ] && others+=("$b"); done
  merge "$tmp/others.json" "${others[@]}"
  n=$((n + 1))
  verdicts "$tmp/others.json" "$a" "others>$a" "$tmp/merged"
done
tally merged "$tmp/merged" "$n"
