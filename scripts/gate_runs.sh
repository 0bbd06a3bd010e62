#!/usr/bin/env bash
# The runs behind the gate's measured false-alarm and detection rates (README, "The CI gate"):
# on the GPU machine, the default gated set (scripts/ci_regress.sh) as PROCESSES processes merged,
# four times: clean, and with a known cost injected (sync_bench --sync_inject):
#   clean.json    nothing injected
#   host1us.json  +1 us host busy-wait per step, in the launch-bound families (where 1 us matters)
#   host10.json   +10% of the step as a host busy-wait, everywhere (what the paired rows must catch)
#   gpu10.json    +10% of the step as a GPU spin kernel, everywhere (what GPU-bound rows must catch)
# Compare them anywhere: sync_summary compare clean.json host10.json, and clean.json from one
# device call against clean.json from another for the false alarms.
#
#   scripts/gate_runs.sh DIR [NAME...]     (NAME: some of clean host1us host10 gpu10; default all)
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:?usage: scripts/gate_runs.sh DIR [NAME...]}"
shift
wanted=" ${*:-clean host1us host10 gpu10} "
for name in $wanted; do
  case "$name" in clean | host1us | host10 | gpu10) ;;
    *) echo "gate_runs.sh: unknown run '$name' (clean, host1us, host10 or gpu10)" >&2; exit 2 ;;
  esac
done
mkdir -p "$dir"
export SYNC_BENCH="${SYNC_BENCH:-$ROOT/build/bench/sync_bench}"
export SYNC_SUMMARY="${SYNC_SUMMARY:-$ROOT/build/summary/sync_summary}"
status=0
run() {  # run NAME [sync_bench flags...]
  local name="$1"
  shift
  [[ "$wanted" == *" $name "* ]] || return 0
  local start=$(date +%s)
  "$ROOT/scripts/ci_regress.sh" --make-baseline "$dir/$name.json" "$@" 2>"$dir/$name.log"
  local rc=$?
  printf '%-8s exit %d, %d s\n' "$name" $rc $(($(date +%s) - start))
  [ $rc -ne 0 ] && status=$rc
  rm -rf "$dir/$name.json.d"
}
run clean
run host1us --sync_inject=host:1us --sync_inject_filter='^(NullKernel|SmallGemm|SyncEvery)/'
run host10 --sync_inject=host:10%
run gpu10 --sync_inject=gpu:10%
exit $status
