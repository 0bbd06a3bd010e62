#!/usr/bin/env bash
# Judges the calls here with scripts/acceptance.sh on the gate's default set as it is now: the runs
# were made with the set before three of its rows were left out (SpinKernel's DeviceSync and
# ScalarRead/pinned after 10 us, TrainLoop/ItemEveryStep n=512: scripts/ci_regress.sh says why),
# so those rows are taken out of the gate's runs (sync_summary merge --filter) before judging.
# Everything else is judged as measured. Writes verdict.txt (and prints it).
#
#   results/h200/acceptance2/judge.sh   (from the repository root, after a build)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
summary="${SYNC_SUMMARY:-build/summary/sync_summary}"
left_out='^(?!SpinKernel/(DeviceSync|ScalarRead/pinned)/us:10/|TrainLoop/ItemEveryStep/bf16/cublas/n:512/)'
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
calls=()
for d in "$here"/call*/; do
  call="$work/$(basename "$d")"
  mkdir -p "$call"
  for f in "$d"*; do ln -s "$f" "$call/"; done
  for run in clean host1us host10 gpu10; do
    [ -r "$d/$run.json" ] || continue
    rm "$call/$run.json"
    "$summary" merge --filter="$left_out" --output="$call/$run.json" "$d/$run.json" 2>/dev/null
  done
  calls+=("$call")
done
SYNC_SUMMARY="$summary" scripts/acceptance.sh "${calls[@]}" | sed "s|$work/|results/h200/acceptance2/|g" |
  tee "$here/verdict.txt"
