#!/usr/bin/env bash
# scripts/run.sh when sync_bench does not finish: a killed run (SIGKILL, or run.sh terminated with
# it, as `timeout` does) leaves a JSON cut off after its last complete benchmark. run.sh must keep
# the raw file as OUT_JSON.partial, salvage the complete benchmarks into OUT_JSON, say so, print
# the report and exit nonzero; where nothing can be salvaged, keep the .partial and remove nothing.
# A run that failed normally (exit 1, complete JSON) is reported as before. An older file at
# OUT_JSON that this run did not write is left alone, and the flags that only print pass through.
#
# No GPU or build needed: cmake, nvcc and c++ are stubs on PATH (setup.sh builds nothing), and
# BUILD_DIR is a made-up one with a fake sync_bench and a stub sync_summary (salvage in awk). With
# BUILD_DIR_REAL, the killed run is salvaged with its sync_summary too (missing there: a failure).
#
#   tests/test_run_sh_salvage.sh ROOT [BUILD_DIR_REAL]
set -uo pipefail
root="${1:?usage: test_run_sh_salvage.sh ROOT [BUILD_DIR_REAL]}"
real_build="${2:-}"
fixture="$root/tests/data/gb171_run.json"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Stubs: setup.sh finds its tools and builds nothing.
mkdir -p "$work/bin"
# (c++ reads its input: setup.sh pipes a header test into it, and under pipefail a stub that
# did not would fail it with SIGPIPE now and then, and send setup.sh to apt-get.)
for tool in cmake nvcc; do printf '#!/bin/sh\nexit 0\n' >"$work/bin/$tool"; done
printf '#!/bin/sh\ncat >/dev/null\nexit 0\n' >"$work/bin/c++"
printf '#!/bin/sh\nexit 1\n' >"$work/bin/nvidia-smi"
chmod +x "$work/bin"/*
export PATH="$work/bin:$PATH"

# fake_build DIR SUMMARY: a build folder with the fake sync_bench and SUMMARY as its sync_summary.
fake_build() {
  mkdir -p "$1/bench" "$1/summary"
  : >"$1/CMakeCache.txt"
  : >"$1/build.ninja"
  cat >"$1/bench/sync_bench" <<'EOF'
#!/bin/sh
# FAKE_MODE: killed (JSON cut off in its third benchmark, SIGKILL), killed_with_run_sh (run.sh
# gets SIGTERM too, as from `timeout`), killed_early (cut off in the first benchmark), failed
# (complete JSON, exit 1), refused (writes nothing, exit 2), args (prints its arguments, exit 0).
out=
for a in "$@"; do case "$a" in --benchmark_out=*) out="${a#--benchmark_out=}" ;; esac; done
case "$FAKE_MODE" in
  refused) echo "fake: refused" >&2; exit 2 ;;
  args) echo "fake args: $*"; exit 0 ;;
  killed | killed_with_run_sh) head -n 90 "$FIXTURE" >"$out" ;;
  killed_early) head -n 55 "$FIXTURE" >"$out" ;;
  failed) cat "$FIXTURE" >"$out"; exit 1 ;;
esac
[ "$FAKE_MODE" = killed_with_run_sh ] && kill -TERM "$PPID"
kill -KILL $$
EOF
  chmod +x "$1/bench/sync_bench"
  if [ -n "$2" ]; then cp "$2" "$1/summary/sync_summary"; fi
}

# A stand-in sync_summary with the salvage contract: exit 0, the complete benchmarks written and a
# note on stderr; exit 3 for a complete run, 2 for none complete; nothing written on 2 or 3.
# `report` prints a line. STUB_COMPLETE_EXIT and STUB_COMPLETE_MESSAGE change what it does for a
# complete run, so that a run.sh that read the message rather than the status fails.
cat >"$work/stub_summary" <<'EOF'
#!/bin/sh
cmd="$1"; shift
case "$cmd" in
  report) echo "STUB REPORT on $1"; exit 0 ;;
  salvage) ;;
  *) echo "stub: unexpected command $cmd" >&2; exit 2 ;;
esac
in="$1"; out="${2#--output=}"
if [ "$(tail -n 1 "$in")" = "}" ]; then
  echo "${STUB_COMPLETE_MESSAGE:-sync_summary: nothing to salvage: $in is a complete run}" >&2
  exit "${STUB_COMPLETE_EXIT:-3}"
fi
awk -v out="$out" '
  !body { head = head $0 "\n"; if ($0 ~ /"benchmarks": \[/) body = 1; next }
  { entry = entry $0 "\n" }
  /^    },?$/ { sub(/,\n$/, "\n", entry); kept = kept (n ? ",\n" : "") substr(entry, 1, length(entry) - 1); n++; entry = "" }
  END {
    if (!n) { print "sync_summary salvage: no complete benchmark" > "/dev/stderr"; exit 2 }
    printf "%s%s\n  ]\n}\n", head, kept > out
    printf "sync_summary salvage: kept %d complete benchmarks\n", n > "/dev/stderr"
  }' "$in"
EOF
chmod +x "$work/stub_summary"

# run_case NAME MODE SUMMARY [ARG...]: runs run.sh with the ARGs; sets out, status and json (its
# OUT_JSON; what is at $json before the call stays there for run.sh to find).
run_case() {
  local build="$work/build-$1"
  fake_build "$build" "$3"
  json="$work/$1/run.json"
  out="$(BUILD_DIR="$build" OUT_JSON="$json" FAKE_MODE="$2" FIXTURE="$fixture" \
    "$root/scripts/run.sh" "${@:4}" 2>&1)"
  status=$?
}

# check_salvaged NAME KEPT: the killed run's status, files and messages (KEPT: a pattern for
# salvage's count of what it kept, passed on by run.sh).
check_salvaged() {
  [ $status -eq 137 ] || fail "$1: exit $status, not sync_bench's 137: $out"
  [ -s "$json.partial" ] || fail "$1: no raw $json.partial kept: $out"
  cmp -s <(head -n 90 "$fixture") "$json.partial" || fail "$1: $json.partial is not the raw output"
  [ -s "$json" ] || fail "$1: nothing salvaged into $json: $out"
  [ "$(tail -n 1 "$json")" = "}" ] || fail "$1: $json is not a closed JSON"
  grep -q 'killed by SIGKILL' <<<"$out" || fail "$1: does not say the run was killed: $out"
  grep -qF "$json.partial" <<<"$out" || fail "$1: does not say where the raw file is: $out"
  grep -qiE "$2" <<<"$out" || fail "$1: salvage's count of what was kept not shown: $out"
  [ "$(cd "$(dirname "$json")" && echo *)" = "run.json run.json.partial" ] ||
    fail "$1: other files left: $(ls "$(dirname "$json")")"
}

run_case killed killed "$work/stub_summary"
check_salvaged killed "kept 2 "
grep -q "STUB REPORT on $json" <<<"$out" || fail "killed: no report on the salvaged run: $out"
[ "$(grep -c '"name"' "$json")" -eq 2 ] || fail "killed: $json does not hold the 2 complete entries"

run_case with_run_sh killed_with_run_sh "$work/stub_summary"
check_salvaged with_run_sh "kept 2 "
grep -q "STUB REPORT on $json" <<<"$out" || fail "with_run_sh: no report: $out"

run_case early killed_early "$work/stub_summary"
[ $status -eq 137 ] || fail "early: exit $status, not 137: $out"
[ -s "$json.partial" ] || fail "early: the raw $json.partial is not kept: $out"
[ ! -e "$json" ] || fail "early: $json written with nothing salvaged"
grep -q 'no complete benchmark' <<<"$out" || fail "early: salvage's reason not shown: $out"
grep -qF "$json.partial" <<<"$out" || fail "early: does not say where the raw file is: $out"

run_case none killed ""
[ $status -eq 137 ] || fail "none: exit $status, not 137: $out"
[ -s "$json.partial" ] || fail "none: the raw $json.partial is not kept: $out"
grep -q "no sync_summary" <<<"$out" || fail "none: does not say why nothing was salvaged: $out"

run_case failed failed "$work/stub_summary"
[ $status -eq 1 ] || fail "failed: exit $status, not 1: $out"
cmp -s "$fixture" "$json" || fail "failed: the complete $json was changed"
[ ! -e "$json.partial" ] || fail "failed: a complete run was moved to .partial"
grep -q "STUB REPORT on $json" <<<"$out" || fail "failed: no report: $out"

# run.sh decides on salvage's status, not its words: exit 3 is "complete" whatever it says ...
export STUB_COMPLETE_MESSAGE="stub: whole already; nothing to mend"
run_case failed_other_words failed "$work/stub_summary"
[ $status -eq 1 ] || fail "failed_other_words: exit $status, not 1: $out"
cmp -s "$fixture" "$json" || fail "failed_other_words: exit 3 (complete) changed $json"
[ ! -e "$json.partial" ] || fail "failed_other_words: exit 3 (complete) left a .partial: $out"
grep -q "STUB REPORT on $json" <<<"$out" || fail "failed_other_words: no report: $out"
# ... and exit 2 is "cannot be salvaged" even where the message says "complete run": the raw JSON
# stays in .partial, nothing is taken for complete.
export STUB_COMPLETE_EXIT=2 STUB_COMPLETE_MESSAGE="sync_summary: nothing to salvage: a complete run"
run_case failed_exit2 failed "$work/stub_summary"
[ $status -eq 1 ] || fail "failed_exit2: exit $status, not 1: $out"
cmp -s "$fixture" "$json.partial" || fail "failed_exit2: taken for complete (no raw .partial)"
[ ! -e "$json" ] || fail "failed_exit2: exit 2 taken for complete ($json left): $out"
grep -q "could not keep any of it (exit 2" <<<"$out" ||
  fail "failed_exit2: salvage's exit 2 not said: $out"
unset STUB_COMPLETE_EXIT STUB_COMPLETE_MESSAGE

# An older run's file at OUT_JSON that sync_bench refused to replace (bad input, exit 2) is not
# this run's: neither moved to .partial nor reported. A folder there is refused by run.sh itself.
mkdir -p "$work/old"
printf 'an older run\n' >"$work/old/run.json"
run_case old refused "$work/stub_summary"
[ $status -eq 2 ] || fail "old: exit $status, not sync_bench's 2: $out"
[ "$(cat "$json")" = "an older run" ] || fail "old: the older $json was changed"
[ ! -e "$json.partial" ] || fail "old: the older $json was taken for this run's and moved"
grep -q "STUB REPORT" <<<"$out" && fail "old: the older $json was reported: $out"
mkdir -p "$work/folder/run.json"
run_case folder failed "$work/stub_summary"
[ $status -eq 2 ] || fail "folder: exit $status, not 2: $out"
[ -d "$json" ] && [ ! -e "$json.partial" ] || fail "folder: the folder at $json was moved"
grep -q "is not a file" <<<"$out" || fail "folder: no reason given: $out"

# OUT_JSON a link: the file written through it is this run's, reported (the link itself does not
# change).
mkdir -p "$work/link"
ln -s "$work/link/target.json" "$work/link/run.json"
run_case link failed "$work/stub_summary"
[ $status -eq 1 ] || fail "link: exit $status, not 1: $out"
grep -q "STUB REPORT on $json" <<<"$out" || fail "link: the run written through the link not reported: $out"
cmp -s "$fixture" "$work/link/target.json" || fail "link: the file behind the link is not the run"

# Arguments: the ones that only print run sync_bench alone (-h as --help; the list flag read as
# Google Benchmark reads it, the last one counting), and run.sh's own JSON is not to be redirected.
for case in "--help:--help" "-h:--help" "--benchmark_list_tests=yes:list" "--sync_map:--sync_map"; do
  arg="${case%%:*}"
  run_case "print${arg//[^a-z]/}" args "$work/stub_summary" "$arg" --benchmark_filter=x
  [ $status -eq 0 ] || fail "$arg: exit $status, not 0: $out"
  grep -q "^fake args: .*${case#*:}" <<<"$out" || fail "$arg: sync_bench was not run alone: $out"
  grep -q -- "--benchmark_out=" <<<"$out" && fail "$arg: a JSON was asked for: $out"
  [ ! -e "$json" ] || fail "$arg: $json written"
done
# A list flag turned off does not turn off --help (two states, not one).
run_case helpthenlistoff args "$work/stub_summary" --help --benchmark_list_tests=false
grep -q -- "^fake args: --help" <<<"$out" || fail "--help, list off: not run alone: $out"
run_case listoff args "$work/stub_summary" --benchmark_list_tests --benchmark_list_tests=off
grep -q -- "^fake args: --benchmark_out=" <<<"$out" || fail "list flag off: not a run: $out"
for arg in --benchmark_out=elsewhere.json --benchmark_out_format=csv; do
  run_case outflag failed "$work/stub_summary" "$arg"
  [ $status -eq 2 ] || fail "$arg: exit $status, not 2: $out"
  grep -q "set OUT_JSON" <<<"$out" || fail "$arg: no reason given: $out"
  [ ! -e "$json" ] || fail "$arg: sync_bench ran"
done
run_case outjson failed "$work/stub_summary" --benchmark_out_format=json
[ $status -eq 1 ] && cmp -s "$fixture" "$json" || fail "--benchmark_out_format=json: refused: $out"

# The real sync_summary, when a build folder is given (CTest gives its own): it must be there.
real="${real_build:+$real_build/summary/sync_summary}"
if [ -z "$real" ]; then
  echo "SKIPPED the real sync_summary: no BUILD_DIR_REAL given"
elif [ ! -x "$real" ]; then
  fail "real: no sync_summary built at $real"
else
  cp "$fixture" "$work/complete.json"
  "$real" salvage "$work/complete.json" --output="$work/complete-out.json" >/dev/null 2>&1
  rc=$?
  [ $rc -eq 3 ] || fail "real: salvage of a complete run exits $rc, not 3"
  [ ! -e "$work/complete-out.json" ] || fail "real: salvage of a complete run wrote its output"
  run_case real killed "$real"
  check_salvaged real "salvage: kept 2 benchmarks"
  [ "$(grep -c '"name"' "$json")" -eq 2 ] || fail "real: $json does not hold the 2 complete entries"
  "$real" report "$json" >/dev/null 2>&1 || fail "real: the salvaged $json does not report"
  run_case real_failed failed "$real"
  if [ $status -ne 1 ] || [ -e "$json.partial" ] || ! cmp -s "$fixture" "$json"; then
    fail "real_failed: a complete run (exit 1) was not left as it was: exit $status: $out"
  fi
  run_case real_early killed_early "$real"
  if [ $status -ne 137 ] || [ ! -s "$json.partial" ] || [ -e "$json" ]; then
    fail "real_early: nothing to salvage, yet exit $status or the files wrong: $out"
  fi
  echo "ok: the real sync_summary salvage"
fi

[ $failures -eq 0 ] || exit 1
echo "run.sh: killed runs salvaged (raw kept in .partial), unsalvageable ones kept, failures as before"
