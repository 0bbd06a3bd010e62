#!/usr/bin/env bash
# Every H200 gate run kept in results/h200 as one pool, judged on the gate's default set as it is
# now: gate/call1..14, host_distance/call1..4, acceptance2/call1..7, acceptance3/call1..4,
# acceptance4/call1..3, spin10/call1..3 and acceptance5/call1..3 (38 device calls, 35 GPUs). Each run is cut to
# scripts/ci_regress.sh's DEFAULT_FILTER (sync_summary merge --filter: older runs hold rows that
# left the set). The runs made before sync_bench had baseline_host_us (gate, host_distance,
# acceptance2) also lose SpinKernel's DeviceSync and ScalarRead/pinned after 10 us: those rows are
# in the set because compare host-adjusts them on that counter, and without it they stay raw. Then
# scripts/gate_rates.sh judges every clean run against every other (1406 ordered pairs: false
# alarms) and each injected run against the clean runs (detection). Prints the clean pairs with a
# false alarm (the lists of rows not flagged cut) and gate_rates.sh's totals. From the repository
# root, after a build:
#   results/h200/gate_pool/pool.sh [CALL_DIR...] > OUT.txt   (default: the 38 above; SYNC_SUMMARY
#                                                           picks the sync_summary)
set -euo pipefail
summary="${SYNC_SUMMARY:-build/summary/sync_summary}"
filter="$(sed -n "s/^DEFAULT_FILTER='\(.*\)'$/\1/p" scripts/ci_regress.sh)"
[ -n "$filter" ] || { echo "pool.sh: no DEFAULT_FILTER in scripts/ci_regress.sh" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
dirs=()
# ECMAScript, as sync_summary merge reads it: a look-ahead in front of the set. merge also tries
# each name without its suffix ("/manual_time"); the set's SpinKernel patterns end in "/", so that
# form matches neither and the look-ahead's cut holds.
before_counter="^(?!SpinKernel/(DeviceSync|ScalarRead/pinned)/us:10/)(?:$filter)"
calls=("$@")
[ ${#calls[@]} -gt 0 ] || calls=(results/h200/gate/call{1..14} results/h200/host_distance/call{1..4}
  results/h200/acceptance2/call{1..7} results/h200/acceptance3/call{1..4}
  results/h200/acceptance4/call{1..3} results/h200/spin10/call{1..3}
  results/h200/acceptance5/call{1..3})
for d in "${calls[@]}"; do
  d="${d%/}"
  name="$work/$(echo "$d" | sed 's|results/h200/||; s|/|-|g')"
  mkdir -p "$name"
  cut="$filter"
  case "$d" in */gate/* | */host_distance/* | */acceptance2/*) cut="$before_counter" ;; esac
  for run in clean host1us host10 gpu10; do
    [ -r "$d/$run.json" ] || continue
    "$summary" merge --filter="$cut" --output="$name/$run.json" "$d/$run.json" 2>/dev/null ||
      { echo "pool.sh: cannot cut $d/$run.json to the set" >&2; exit 2; }
  done
  dirs+=("$name")
done
SYNC_SUMMARY="$summary" scripts/gate_rates.sh "${dirs[@]}" ${POOL_COMPARE_FLAGS:+-- $POOL_COMPARE_FLAGS} | sed "s|$work/||g; s| (not: [^)]*)||g" |
  awk '/^False alarms/ { alarms = 1; print; next }
       /^Detection/ { alarms = 0 }
       /^Totals/ { totals = 1 }
       totals || (alarms && / [1-9][0-9]* of [0-9]* flagged/)'
for d in "${dirs[@]}"; do
  printf '%s %s\n' "$(basename "$d")" "$(jq -r .context.gpu_uuid "$d/clean.json" | cut -c1-12)"
done | sort -k2 | awk '{ n[$2]++ } END { printf "%d device calls, %d GPUs\n", NR, length(n) }'
