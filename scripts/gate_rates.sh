#!/usr/bin/env bash
# The gate's false-alarm and detection rates from the runs of scripts/gate_runs.sh, one DIR per
# device call: every clean run against every other (false alarms: any REGRESSION is one), and
# every injected run against its own DIR's clean run and every other DIR's (detection: the share
# of the gated rows the cost was applied to that compare flags); totals at the end. A host cost
# counts only on rows whose step the host paces, alone or taking turns with the GPU at a sync
# (compare's bound: host or sync); on a GPU-bound step that never blocks the host the GPU's queue
# hides it, and those rows are listed apart. Extra arguments go to sync_summary compare.
#
# With --merged-base, each DIR is judged against a baseline merged from every other DIR's clean
# run instead (leave one out): a BASE from several machines, which measures how much they differ
# row by row (sync_summary compare --help). A --filter among the compare flags also picks what is
# merged (runs of different benchmark sets merge on what they share). With --base BASE.json, each
# DIR is judged against that one baseline instead (the one CI runners built with
# scripts/ci_regress.sh --add-to-baseline, say), and one DIR is enough.
#
#   scripts/gate_rates.sh [--merged-base | --base BASE.json] DIR1 [DIR2...] [-- compare flags]
set -uo pipefail
summary="${SYNC_SUMMARY:-$(cd "$(dirname "$0")/.." && pwd)/build/summary/sync_summary}"
# Where gate_runs.sh injects +1 us (kept in step with it).
HOST1US_FAMILIES='^(NullKernel|SmallGemm|SyncEvery)/'
usage() { sed -n '2,${/^#/!q;s/^# \{0,1\}//p}' "$0"; }  # the header comment
merged_base=0
given_base=''
case "${1:-}" in
  --merged-base) merged_base=1; shift ;;
  --base)
    given_base="${2:-}"
    [ -r "$given_base" ] || { echo "gate_rates.sh: cannot read --base '$given_base'" >&2; exit 2; }
    shift 2
    ;;
esac
[ -x "$summary" ] ||
  { echo "gate_rates.sh: no sync_summary at $summary (build it, or set SYNC_SUMMARY)" >&2; exit 2; }
dirs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do dirs+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ ${#dirs[@]} -ge 1 ] || { usage >&2; exit 2; }
for d in "${dirs[@]}"; do
  [ -r "$d/clean.json" ] ||
    { echo "gate_rates.sh: no $d/clean.json (scripts/gate_runs.sh DIR makes it)" >&2; exit 2; }
done
filter=()
for flag in "$@"; do
  case "$flag" in --filter=*) filter=("$flag") ;; esac
done

# REGRESSION verdicts of one comparison among the gated rows whose name matches $APPLIED (awk
# regex), per kind of gate (paired overhead, GPU-bound time), with the rows not flagged; with
# HOST_COST=1 the GPU-bound rows form a kind of their own.
# shellcheck disable=SC2153  # APPLIED and SECTION: set by each caller, for its call alone
rates() {
  # Exit 1 is a verdict (a regression); 2 is a comparison that could not be made: no rates then.
  "$summary" compare --format=csv "$@" >"$work/compare.csv" 2>"$work/compare.err"
  if [ $? -gt 1 ]; then
    echo "gate_rates.sh: sync_summary compare $*: $(cat "$work/compare.err")" >&2
    exit 2
  fi
  awk -F, -v applied="$APPLIED" \
    -v host_cost="${HOST_COST:-0}" '
    NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    $col["gate"] ~ /^not gated/ || $col["benchmark"] !~ applied { next }
    {
      kind = $col["gate"]
      sub(/ \(.*/, "", kind)  # the gate without its details (host-adjusted, between GPUs...)
      if (host_cost && $col["bound"] == "gpu") kind = "GPU-bound, host cost hidden (not counted)"
      ++n[kind]
      if ($col["verdict"] == "REGRESSION") ++hit[kind]
      else missed[kind] = missed[kind] " " $col["benchmark"]
    }
    END {
      for (kind in n) {
        printf "%s%s: %d of %d flagged", sep, kind, hit[kind], n[kind]
        if (missed[kind] != "") printf " (not:%s)", missed[kind]
        printf "%s\t%s\t%d\t%d\n", section, kind, hit[kind], n[kind] >> totals
        sep = "; "
      }
      printf "\n"
    }' section="$SECTION" totals="$totals" "$work/compare.csv"
}
totals="$(mktemp)"
work="$(mktemp -d)"
trap 'rm -rf "$totals" "$work"' EXIT

# One injected run against a clean BASE: the same device call's (same machine), another call's
# (another machine, or the same one again: compare says which threshold it used), or a merged one.
detect() {  # detect SECTION BASE.json INJECTED_DIR [compare flags]
  local section="$1" base="$2" injected="$3" v applied host_cost
  shift 3
  for v in host1us host10 gpu10; do
    [ -r "$injected/$v.json" ] || continue
    applied='.'
    [ "$v" = host1us ] && applied="$HOST1US_FAMILIES"
    host_cost=0
    case "$v" in host*) host_cost=1 ;; esac
    printf '  %s -> %s %-8s ' "$base" "$injected" "$v:"
    SECTION="$section $v" APPLIED="$applied" HOST_COST=$host_cost rates "$@" "$base" \
      "$injected/$v.json"
  done
}

if [ -n "$given_base" ]; then
  echo "Against $given_base:"
  for d in "${dirs[@]}"; do
    printf '  %s -> %s: ' "$given_base" "$d"
    SECTION='false alarms' APPLIED='.' rates "$@" "$given_base" "$d/clean.json"
    detect 'detection, given base,' "$given_base" "$d" "$@"
  done
elif [ $merged_base -eq 1 ]; then
  echo "Against a baseline merged from every other DIR's clean run (leave one out):"
  for d in "${dirs[@]}"; do
    others=()
    for o in "${dirs[@]}"; do [ "$o" = "$d" ] || others+=("$o/clean.json"); done
    base="$work/base_without_$(basename "$d").json"
    "$summary" merge "${filter[@]}" --output="$base" "${others[@]}" 2>/dev/null ||
      { echo "gate_rates.sh: cannot merge the clean runs of every DIR but $d" >&2; exit 2; }
    printf '  %s -> %s: ' "$base" "$d"
    SECTION='false alarms' APPLIED='.' rates "$@" "$base" "$d/clean.json"
    detect 'detection, merged base,' "$base" "$d" "$@"
  done
else
  echo "False alarms (clean vs clean, different device calls):"
  for a in "${dirs[@]}"; do
    for b in "${dirs[@]}"; do
      [ "$a" = "$b" ] && continue
      printf '  %s -> %s: ' "$a" "$b"
      SECTION='false alarms' APPLIED='.' rates "$@" "$a/clean.json" "$b/clean.json"
    done
  done
  echo "Detection (clean vs injected, same device call):"
  for d in "${dirs[@]}"; do detect 'detection, same call,' "$d/clean.json" "$d" "$@"; done
  echo "Detection (clean of one device call vs injected of another):"
  for a in "${dirs[@]}"; do
    for b in "${dirs[@]}"; do
      [ "$a" = "$b" ] || detect 'detection, across calls,' "$a/clean.json" "$b" "$@"
    done
  done
fi
echo "Totals:"
awk -F'\t' '{ hit[$1 ": " $2] += $3; n[$1 ": " $2] += $4 }
  END { for (k in n) printf "  %s: %d of %d flagged\n", k, hit[k], n[k] }' "$totals" | sort
