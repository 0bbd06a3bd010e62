#!/usr/bin/env bash
# Every H200 gate run kept in results/h200 as one pool, judged on the gate's default set as it is
# now: gate/call1..14, host_distance/call1..4, acceptance2/call1..7 and acceptance3/call1..4 (29
# device calls, 26 GPUs). Each run is cut to scripts/ci_regress.sh's DEFAULT_FILTER (sync_summary
# merge --filter: older runs hold rows that left the set), then scripts/gate_rates.sh judges every
# clean run against every other (812 ordered pairs: false alarms) and each injected run against
# the clean runs (detection). Prints the clean pairs with a false alarm (the lists of rows not
# flagged cut) and gate_rates.sh's totals. From the repository root, after a build:
#   results/h200/gate_pool/pool.sh > OUT.txt      (SYNC_SUMMARY picks the sync_summary)
set -euo pipefail
summary="${SYNC_SUMMARY:-build/summary/sync_summary}"
filter="$(sed -n "s/^DEFAULT_FILTER='\(.*\)'$/\1/p" scripts/ci_regress.sh)"
[ -n "$filter" ] || { echo "pool.sh: no DEFAULT_FILTER in scripts/ci_regress.sh" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
dirs=()
for d in results/h200/gate/call{1..14} results/h200/host_distance/call{1..4} \
  results/h200/acceptance2/call{1..7} results/h200/acceptance3/call{1..4}; do
  name="$work/$(echo "$d" | sed 's|results/h200/||; s|/|-|g')"
  mkdir -p "$name"
  for run in clean host1us host10 gpu10; do
    [ -r "$d/$run.json" ] || continue
    "$summary" merge --filter="$filter" --output="$name/$run.json" "$d/$run.json" 2>/dev/null
  done
  dirs+=("$name")
done
SYNC_SUMMARY="$summary" scripts/gate_rates.sh "${dirs[@]}" | sed "s|$work/||g; s| (not: [^)]*)||g" |
  awk '/^False alarms/ { alarms = 1; print; next }
       /^Detection/ { alarms = 0 }
       /^Totals/ { totals = 1 }
       totals || (alarms && / [1-9][0-9]* of [0-9]* flagged/)'
for d in "${dirs[@]}"; do
  printf '%s %s\n' "$(basename "$d")" "$(jq -r .context.gpu_uuid "$d/clean.json" | cut -c1-12)"
done | sort -k2 | awk '{ n[$2]++ } END { printf "%d device calls, %d GPUs\n", NR, length(n) }'
