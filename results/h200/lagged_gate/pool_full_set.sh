#!/usr/bin/env bash
# The whole default set's clean runs of calls 3-7 against each other and against each of the 42
# earlier H200 gate calls' clean runs (results/h200/current_713c480f/pool42_calls.txt), both ways,
# every run cut to scripts/ci_regress.sh's DEFAULT_FILTER as results/h200/gate_pool/pool.sh cuts it.
set -uo pipefail
summary=${SYNC_SUMMARY:-build/summary/sync_summary}
filter="$(sed -n "s/^DEFAULT_FILTER='\(.*\)'$/\1/p" scripts/ci_regress.sh)"
before_counter="^(?!SpinKernel/(DeviceSync|ScalarRead/pinned)/us:10/)(?:$filter)"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
here=results/h200/lagged_gate
new=()
for c in 3 4 5 6 7; do
  f=$here/call$c/clean.json
  [ $c = 3 ] && f=$here/call3/full_clean.json
  [ $c -ge 6 ] && f=$here/call$c/new.json  # scripts/ci_regress.sh's OUT
  mkdir -p $work/lagged_gate-call$c
  $summary merge --filter="$filter" --output=$work/lagged_gate-call$c/clean.json $f 2>/dev/null || exit 2
  new+=($work/lagged_gate-call$c)
done
judge() { SYNC_SUMMARY=$summary scripts/gate_rates.sh "$@" 2>&1 | sed -n '/^False alarms/,/^Detection/p' |
  grep -v "^False\|^Detection" | sed "s|$work/||g; s| (not: [^)]*)||g"; }
judge "${new[@]}"
while read -r d; do
  cut="$filter"
  case "$d" in */gate/* | */host_distance/* | */acceptance2/*) cut="$before_counter" ;; esac
  name=$work/$(echo "$d" | sed 's|results/h200/||; s|/|-|g'); mkdir -p $name
  $summary merge --filter="$cut" --output=$name/clean.json $d/clean.json 2>/dev/null || { echo "cannot cut $d" >&2; exit 2; }
  for n in "${new[@]}"; do judge $name $n; done
done < results/h200/current_713c480f/pool42_calls.txt
