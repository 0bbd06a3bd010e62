#!/usr/bin/env bash
# The gate's false-alarm and detection rates from the runs of scripts/gate_runs.sh, one DIR per
# device call: every clean run against every other (false alarms: any REGRESSION is one), and in
# each DIR every injected run against that DIR's clean run (detection: the share of the gated rows
# the cost was applied to that compare flags). Extra arguments go to sync_summary compare.
#
#   scripts/gate_rates.sh DIR1 DIR2 [DIR3...] [-- compare flags]
set -uo pipefail
summary="${SYNC_SUMMARY:-build/summary/sync_summary}"
dirs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do dirs+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ ${#dirs[@]} -ge 1 ] || { sed -n '2,8s/^# \{0,1\}//p' "$0"; exit 2; }

# REGRESSION verdicts of one comparison among the gated rows whose name matches $APPLIED (awk
# regex), per kind of gate (paired overhead, GPU-bound time), with the rows not flagged.
rates() {
  "$summary" compare --format=csv "$@" 2>/dev/null | awk -F, -v applied="$APPLIED" '
    NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    $col["gate"] ~ /^not gated/ || $col["benchmark"] !~ applied { next }
    {
      kind = $col["gate"]
      ++n[kind]
      if ($col["verdict"] == "REGRESSION") ++hit[kind]
      else missed[kind] = missed[kind] " " $col["benchmark"]
    }
    END {
      for (kind in n) {
        printf "%s%s: %d of %d flagged", sep, kind, hit[kind], n[kind]
        if (missed[kind] != "") printf " (not:%s)", missed[kind]
        sep = "; "
      }
      printf "\n"
    }'
}

echo "False alarms (clean vs clean, different device calls):"
for a in "${dirs[@]}"; do
  for b in "${dirs[@]}"; do
    [ "$a" = "$b" ] && continue
    printf '  %s -> %s: ' "$a" "$b"
    APPLIED='.' rates "$@" "$a/clean.json" "$b/clean.json"
  done
done
echo "Detection (clean vs injected, same device call):"
for d in "${dirs[@]}"; do
  for v in host1us host10 gpu10; do
    [ -r "$d/$v.json" ] || continue
    applied='.'
    [ "$v" = host1us ] && applied='^(NullKernel|SmallGemm|SyncEvery|TrainLoop)/'
    printf '  %s %-8s ' "$d" "$v:"
    APPLIED="$applied" rates "$@" "$d/clean.json" "$d/$v.json"
  done
done
