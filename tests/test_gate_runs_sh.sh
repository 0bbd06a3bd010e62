#!/usr/bin/env bash
# scripts/gate_runs.sh's arguments, no GPU: a copy of it runs in a made-up repository whose
# ci_regress.sh is a stub that notes each run. Bad input (no DIR, an unknown option, a name that is
# not a run, a PROCESSES that is not a count, a DIR that cannot be made, no sync_bench) gives the
# reason, the usage and exit 2, and runs nothing; good input runs the runs named. With the real
# ci_regress.sh, a run whose process fails keeps that process's log.
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
PROCESSES=00 bad processes_zeros "PROCESSES must be" "$work/d"
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
rm -f "$work/calls"
# Empty, as unset: ci_regress.sh's default, as ci_regress.sh and acceptance_call.sh read it.
out="$(PROCESSES='' "$repo/scripts/gate_runs.sh" "$work/d" clean 2>&1)" ||
  fail "empty PROCESSES: exit not 0: $out"
[ "$(cat "$work/calls" 2>/dev/null)" = "$work/d/clean.json " ] || fail "empty PROCESSES: ran $out"

# With the real ci_regress.sh: a run whose second process fails keeps the log ci_regress.sh points
# to (and the first process's JSON); a run that succeeds leaves only its merged JSON.
real="$work/real"
mkdir -p "$real/scripts"
cp "$root/scripts/gate_runs.sh" "$root/scripts/ci_regress.sh" "$real/scripts/"
cat >"$work/bin/failing_bench" <<STUB
#!/bin/sh
# Fails on its second call, as sync_bench without a GPU does; otherwise writes a JSON to merge.
n=\$((\$(cat "$work/bench_calls" 2>/dev/null || echo 0) + 1))
echo \$n >"$work/bench_calls"
if [ \$n -eq 2 ]; then echo "sync_bench: no CUDA GPU available"; exit 2; fi
for a in "\$@"; do case "\$a" in --benchmark_out=*) echo '{}' >"\${a#--benchmark_out=}" ;; esac; done
STUB
cat >"$work/bin/merging_summary" <<'STUB'
#!/bin/sh
for a in "$@"; do case "$a" in --output=*) echo '{}' >"${a#--output=}" ;; esac; done
STUB
chmod +x "$work/bin/failing_bench" "$work/bin/merging_summary"
gate_real() {  # gate_real DIR: the clean run of 3 processes with the failing bench
  SYNC_BENCH="$work/bin/failing_bench" SYNC_SUMMARY="$work/bin/merging_summary" PROCESSES=3 \
    "$real/scripts/gate_runs.sh" "$1" clean 2>&1
}
out="$(gate_real "$work/f")"
status=$?
[ $status -eq 2 ] || fail "failed process: exit $status, expected 2: $out"
grep -qF "see $work/f/clean.json.d/run-2.log" "$work/f/clean.log" ||
  fail "failed process: clean.log names no run-2.log: $(cat "$work/f/clean.log")"
grep -q 'no CUDA GPU available' "$work/f/clean.json.d/run-2.log" 2>/dev/null ||
  fail "failed process: its log was not kept: $(ls -R "$work/f")"
[ -s "$work/f/clean.json.d/run-1.json" ] || fail "failed process: run-1.json was not kept"
echo 2 >"$work/bench_calls"  # past the failing call
out="$(gate_real "$work/s")" || fail "good run: exit not 0: $out"
[ -s "$work/s/clean.json" ] || fail "good run: no clean.json: $(ls -R "$work/s")"
[ ! -e "$work/s/clean.json.d" ] || fail "good run: its processes' folder was left behind"

# ci_regress.sh itself: its new run cannot be written over the baseline it is compared with, and
# a count written with a leading zero is refused; both before any process runs.
printf 'the baseline\n' >"$work/base.json"
for env in "OUT=$work/base.json" "OUT=$work/../$(basename "$work")/base.json" "PROCESSES=00"; do
  rm -f "$work/bench_calls"
  out="$(env "$env" SYNC_BENCH="$work/bin/failing_bench" SYNC_SUMMARY="$work/bin/merging_summary" \
    "$root/scripts/ci_regress.sh" "$work/base.json" 2>&1)"
  status=$?
  [ $status -eq 2 ] || fail "ci_regress $env: exit $status, expected 2: $out"
  grep -qE "is the baseline|PROCESSES must be" <<<"$out" || fail "ci_regress $env: no reason: $out"
  [ "$(cat "$work/base.json")" = "the baseline" ] || fail "ci_regress $env: the baseline changed"
  [ ! -e "$work/bench_calls" ] || fail "ci_regress $env: sync_bench ran"
done

[ $failures -eq 0 ] || exit 1
echo "gate_runs.sh: bad arguments give the reason, the usage and exit 2; good ones run; a failed" \
  "run keeps its processes' logs"
