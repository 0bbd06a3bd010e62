#!/usr/bin/env bash
# The gate's false-alarm and detection rates from the runs of scripts/gate_runs.sh, one DIR per
# device call: every clean run against every other (false alarms: any REGRESSION is one), and
# every injected run against its own DIR's clean run and every other DIR's (detection: the share
# of the gated rows the cost was applied to that compare flags); totals at the end. A host cost
# counts only on rows whose step the host paces, alone or taking turns with the GPU at a sync
# (compare's bound: host or sync); on a GPU-bound step that never blocks the host the GPU's queue
# hides it, and those rows are listed apart. Extra arguments go to sync_summary compare.
#
#   scripts/gate_rates.sh DIR1 DIR2 [DIR3...] [-- compare flags]
set -uo pipefail
summary="${SYNC_SUMMARY:-build/summary/sync_summary}"
# Where gate_runs.sh injects +1 us (kept in step with it).
HOST1US_FAMILIES='^(NullKernel|SmallGemm|SyncEvery)/'
dirs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do dirs+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ ${#dirs[@]} -ge 1 ] || { sed -n '2,8s/^# \{0,1\}//p' "$0"; exit 2; }

# REGRESSION verdicts of one comparison among the gated rows whose name matches $APPLIED (awk
# regex), per kind of gate (paired overhead, GPU-bound time), with the rows not flagged; with
# HOST_COST=1 the GPU-bound rows form a kind of their own.
rates() {
  "$summary" compare --format=csv "$@" 2>/dev/null | awk -F, -v applied="$APPLIED" \
    -v host_cost="${HOST_COST:-0}" '
    NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    $col["gate"] ~ /^not gated/ || $col["benchmark"] !~ applied { next }
    {
      kind = $col["gate"]
      sub(/ \((host-adjusted|baseline GPU-bound).*/, "", kind)
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
    }' section="$SECTION" totals="$totals"
}
totals="$(mktemp)"
trap 'rm -f "$totals"' EXIT

echo "False alarms (clean vs clean, different device calls):"
for a in "${dirs[@]}"; do
  for b in "${dirs[@]}"; do
    [ "$a" = "$b" ] && continue
    printf '  %s -> %s: ' "$a" "$b"
    SECTION='false alarms' APPLIED='.' rates "$@" "$a/clean.json" "$b/clean.json"
  done
done
# One injected run against a clean run: the same device call's (same machine), or every other
# call's (another machine, or the same one again: compare says which threshold it used).
detect() {  # detect SECTION CLEAN_DIR INJECTED_DIR
  local section="$1" clean="$2" injected="$3" v applied host_cost
  shift 3
  for v in host1us host10 gpu10; do
    [ -r "$injected/$v.json" ] || continue
    applied='.'
    [ "$v" = host1us ] && applied="$HOST1US_FAMILIES"
    host_cost=0
    case "$v" in host*) host_cost=1 ;; esac
    printf '  %s -> %s %-8s ' "$clean" "$injected" "$v:"
    SECTION="$section $v" APPLIED="$applied" HOST_COST=$host_cost rates "$@" "$clean/clean.json" \
      "$injected/$v.json"
  done
}
echo "Detection (clean vs injected, same device call):"
for d in "${dirs[@]}"; do detect 'detection, same call,' "$d" "$d" "$@"; done
echo "Detection (clean of one device call vs injected of another):"
for a in "${dirs[@]}"; do
  for b in "${dirs[@]}"; do
    [ "$a" = "$b" ] || detect 'detection, across calls,' "$a" "$b" "$@"
  done
done
echo "Totals:"
awk -F'\t' '{ hit[$1 ": " $2] += $3; n[$1 ": " $2] += $4 }
  END { for (k in n) printf "  %s: %d of %d flagged\n", k, hit[k], n[k] }' "$totals" | sort
