#!/usr/bin/env bash
# scripts/gate_runs.sh's arguments, no GPU: a copy of it runs in a made-up repository whose
# ci_regress.sh is a stub that notes each run. Bad input (no DIR, an unknown option, a name that is
# not a run, a PROCESSES that is not a count, a DIR that cannot be made, no sync_bench) gives the
# reason, the usage and exit 2, and runs nothing; good input runs the runs named.
#
#   tests/test_gate_runs_sh.sh ROOT
set -uo pipefail
root="${1:?usage: test_gate_runs_sh.sh ROOT}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
unset PROCESSES

repo="$work/repo"
mkdir -p "$repo/scripts" "$work/bin"
cp "$root/scripts/gate_runs.sh" "$repo/scripts/"
# shellcheck disable=SC2016  # the stub's own variables
printf '#!/bin/sh\necho "$2 $3" >>"%s"\n: >"$2"\n' "$work/calls" >"$repo/scripts/ci_regress.sh"
printf '#!/bin/sh\nexit 0\n' >"$work/bin/sync_bench"
cp "$work/bin/sync_bench" "$work/bin/sync_summary"
chmod +x "$repo/scripts/ci_regress.sh" "$work/bin"/*
export SYNC_BENCH="$work/bin/sync_bench" SYNC_SUMMARY="$work/bin/sync_summary"

# bad NAME PATTERN ARGS...: exit 2 with PATTERN and the usage, nothing run. Runs in $work/cwd.
mkdir -p "$work/cwd"
bad() {
  local name="$1" pattern="$2"
  shift 2
  rm -f "$work/calls"
  local out status
  out="$(cd "$work/cwd" && "$repo/scripts/gate_runs.sh" "$@" 2>&1)"
  status=$?
  [ $status -eq 2 ] || fail "$name: exit $status, expected 2: $out"
  grep -qE "$pattern" <<<"$out" || fail "$name: no '$pattern' in: $out"
  grep -qF 'scripts/gate_runs.sh DIR [NAME...]' <<<"$out" || fail "$name: no usage: $out"
  [ ! -e "$work/calls" ] || fail "$name: ran something: $(cat "$work/calls")"
}
bad no_args 'missing DIR'
bad empty_dir 'DIR is empty' ''
bad unknown_option "unknown option '--processes=5'" "$work/d" --processes=5
bad option_first "unknown option '-n'" -n 3 "$work/d"
bad not_a_run "unknown run 'clena'" "$work/d" clena
bad glob "unknown run '\\*'" "$work/d" '*'
bad two_in_one "unknown run 'clean host10'" "$work/d" 'clean host10'
bad empty_name "unknown run ''" "$work/d" clean ''
bad dir_forgotten "a run's name, not a DIR" clean host10
PROCESSES=abc bad processes_word "PROCESSES must be .* got 'abc'" "$work/d"
PROCESSES=0 bad processes_zero "PROCESSES must be" "$work/d"
PROCESSES=-3 bad processes_negative "PROCESSES must be" "$work/d"
if [ -e "$work/d" ] || [ -n "$(ls -A "$work/cwd")" ]; then fail "bad input made a folder"; fi

: >"$work/a_file"
rm -f "$work/calls"
out="$("$repo/scripts/gate_runs.sh" "$work/a_file/d" 2>&1)"
[ $? -eq 2 ] || fail "DIR under a file: not exit 2: $out"
out="$(SYNC_BENCH="$work/none" "$repo/scripts/gate_runs.sh" "$work/d" 2>&1)"
status=$?
if [ $status -ne 2 ] || ! grep -q "$work/none not found" <<<"$out"; then
  fail "no sync_bench: exit $status: $out"
fi
[ ! -e "$work/calls" ] || fail "ran with bad input: $(cat "$work/calls")"

out="$("$repo/scripts/gate_runs.sh" --help 2>&1)" || fail "--help: not exit 0: $out"
grep -qF 'DIR [NAME...]' <<<"$out" || fail "--help: no usage: $out"

out="$(PROCESSES=3 "$repo/scripts/gate_runs.sh" "$work/d" gpu10 clean 2>&1)" ||
  fail "good: exit not 0: $out"
[ "$(cat "$work/calls")" = "$work/d/clean.json 
$work/d/gpu10.json --sync_inject=gpu:10%" ] || fail "good: ran $(cat "$work/calls")"
rm -f "$work/calls"
out="$("$repo/scripts/gate_runs.sh" -- "$work/d" 2>&1)"
[ "$(wc -l <"$work/calls")" -eq 4 ] || fail "default: not the four runs: $out"

[ $failures -eq 0 ] || exit 1
echo "gate_runs.sh: bad arguments give the reason, the usage and exit 2; good ones run"
