#!/usr/bin/env bash
# Judges acceptance3's five calls and the three here together with scripts/acceptance.sh: one
# sync_bench (bench/ and common/ as 29013f3) on eight H200s. The gate's runs are first cut to the
# gate's default set as it is now (scripts/ci_regress.sh's DEFAULT_FILTER, sync_summary merge
# --filter: these runs hold rows that have left it since), and judged by the sync_summary built
# from this tree. Everything else is judged as measured. Writes verdict.txt (and prints it).
#
#   results/h200/acceptance4/judge.sh   (from the repository root, after a build)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
summary="${SYNC_SUMMARY:-build/summary/sync_summary}"
filter="$(sed -n "s/^DEFAULT_FILTER='\(.*\)'$/\1/p" scripts/ci_regress.sh)"
[ -n "$filter" ] || { echo "judge.sh: no DEFAULT_FILTER in scripts/ci_regress.sh" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
calls=()
for d in "$here"/../acceptance3/call*/ "$here"/call*/; do
  call="$work/$(basename "$(dirname "$d")")-$(basename "$d")"
  mkdir -p "$call"
  for f in "$d"*; do ln -s "$(realpath "$f")" "$call/"; done
  for run in clean host1us host10 gpu10; do
    [ -r "$d/$run.json" ] || continue
    rm "$call/$run.json"
    "$summary" merge --filter="$filter" --output="$call/$run.json" "$d/$run.json" 2>/dev/null ||
      { echo "judge.sh: cannot cut $d/$run.json to the set" >&2; exit 2; }
  done
  calls+=("$call")
done
SYNC_SUMMARY="$summary" scripts/acceptance.sh "${calls[@]}" | sed "s|$work/||g" | tee "$here/verdict.txt"
