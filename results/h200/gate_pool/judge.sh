#!/usr/bin/env bash
# Judges device calls (folders of scripts/acceptance_call.sh) with scripts/acceptance.sh after
# cutting their gate runs to the gate's default set as it is now (scripts/ci_regress.sh's
# DEFAULT_FILTER, sync_summary merge --filter: runs made before a row left the set still hold it),
# by the sync_summary built from this tree. Everything else is judged as measured. Prints the
# verdict; exits as acceptance.sh does.
#
#   results/h200/gate_pool/judge.sh CALL_DIR...   (from the repository root, after a build)
set -euo pipefail
summary="${SYNC_SUMMARY:-build/summary/sync_summary}"
filter="$(sed -n "s/^DEFAULT_FILTER='\(.*\)'$/\1/p" scripts/ci_regress.sh)"
[ -n "$filter" ] || { echo "judge.sh: no DEFAULT_FILTER in scripts/ci_regress.sh" >&2; exit 2; }
[ $# -gt 0 ] || { sed -n '2,7s/^# \{0,1\}//p' "$0" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
calls=()
for d in "$@"; do
  d="${d%/}"
  call="$work/$d"
  mkdir -p "$call"
  for f in "$d"/*; do ln -s "$(realpath "$f")" "$call/"; done
  for run in clean host1us host10 gpu10; do
    [ -r "$d/$run.json" ] || continue
    rm "$call/$run.json"
    "$summary" merge --filter="$filter" --output="$call/$run.json" "$d/$run.json" 2>/dev/null ||
      { echo "judge.sh: cannot cut $d/$run.json to the set" >&2; exit 2; }
  done
  calls+=("$call")
done
SYNC_SUMMARY="$summary" scripts/acceptance.sh "${calls[@]}" | sed "s|$work/||g"
