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
#
# Environment: PROCESSES (default: ci_regress.sh's), SYNC_BENCH, SYNC_SUMMARY (default: the
# repository's build/), as scripts/ci_regress.sh takes them. No options but -h/--help; -- ends them
# (for a DIR that starts with -). Exit status: 0 every run made, 2 bad arguments or environment
# (with the usage), else the last failing run's ci_regress.sh status (its log: DIR/NAME.log; its
# processes' logs and JSON are kept in DIR/NAME.json.d/).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNS=(clean host1us host10 gpu10)
usage() { sed -n '2,${/^#/!q;s/^# \{0,1\}//p}' "$0"; }  # the header comment
bad() {  # bad MESSAGE: the reason, the usage, exit 2
  echo "gate_runs.sh: $*" >&2
  usage >&2
  exit 2
}
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --) shift; args+=("$@"); break ;;
    -*) bad "unknown option '$1' (PROCESSES, SYNC_BENCH and SYNC_SUMMARY go in the environment)" ;;
    *) args+=("$1") ;;
  esac
  shift
done
[ ${#args[@]} -ge 1 ] || bad "missing DIR"
dir="${args[0]}"
[ -n "$dir" ] || bad "DIR is empty"
names=("${args[@]:1}")
[ ${#names[@]} -ge 1 ] || names=("${RUNS[@]}")
for name in "${names[@]}"; do
  case "$name" in clean | host1us | host10 | gpu10) ;;
    *) bad "unknown run '$name' (clean, host1us, host10 or gpu10)" ;;
  esac
done
# `gate_runs.sh clean` would make a folder named clean: DIR forgotten.
case "$dir" in clean | host1us | host10 | gpu10)
  [ -d "$dir" ] || bad "'$dir' is a run's name, not a DIR (DIR comes first)" ;;
esac
# Checked here too, so that a bad count stops before the first run; unset or empty, ci_regress.sh's
# default.
if [ -n "${PROCESSES:-}" ]; then
  case "$PROCESSES" in *[!0-9]* | 0*)
    bad "PROCESSES must be a whole number of processes from 1, got '$PROCESSES'" ;;
  esac
fi
export SYNC_BENCH="${SYNC_BENCH:-$ROOT/build/bench/sync_bench}"
export SYNC_SUMMARY="${SYNC_SUMMARY:-$ROOT/build/summary/sync_summary}"
for tool in "$SYNC_BENCH" "$SYNC_SUMMARY"; do
  [ -x "$tool" ] ||
    { echo "gate_runs.sh: $tool not found or not executable (build first, or set SYNC_BENCH /" \
      "SYNC_SUMMARY)" >&2; exit 2; }
done
mkdir -p "$dir" || { echo "gate_runs.sh: cannot make DIR '$dir'" >&2; exit 2; }
wanted=" ${names[*]} "
status=0
run() {  # run NAME [sync_bench flags...]
  local name="$1"
  shift
  [[ "$wanted" == *" $name "* ]] || return 0
  local start
  start=$(date +%s)
  "$ROOT/scripts/ci_regress.sh" --make-baseline "$dir/$name.json" "$@" 2>"$dir/$name.log"
  local rc=$?
  printf '%-8s exit %d, %d s\n' "$name" $rc $(($(date +%s) - start))
  # The processes' JSON and logs go once merged; a failed run keeps them: its log
  # (DIR/NAME.log) points into NAME.json.d/ for why.
  if [ $rc -eq 0 ]; then rm -rf "$dir/$name.json.d"; else status=$rc; fi
}
run clean
run host1us --sync_inject=host:1us --sync_inject_filter='^(NullKernel|SmallGemm|SyncEvery)/'
run host10 --sync_inject=host:10%
run gpu10 --sync_inject=gpu:10%
exit $status
