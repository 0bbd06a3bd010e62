#!/usr/bin/env bash
# scripts/sanitize_gpu.sh finds compute-sanitizer where CUDA installs it, off PATH: under
# $CUDA_HOME, and next to nvcc; where there is none it says where it looked and exits 77 (skipped).
# No GPU: a stub compute-sanitizer, a stub sync_bench in a made-up BUILD_DIR, and a PATH with no
# CUDA on it.
#
#   tests/test_sanitize_gpu_sh.sh ROOT
set -uo pipefail
root="${1:?usage: test_sanitize_gpu_sh.sh ROOT}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
unset COMPUTE_SANITIZER CUDA_PATH

# A PATH with what the script needs and no CUDA.
mkdir -p "$work/path"
for t in bash env dirname mkdir grep tail cat sed; do
  p="$(command -v "$t")" && [ "${p#/}" != "$p" ] && ln -sf "$p" "$work/path/$t"
done
mkdir -p "$work/build/bench"
printf '#!/bin/sh\nexit 0\n' >"$work/build/bench/sync_bench"
# sanitizer DIR: a stub compute-sanitizer in DIR/compute-sanitizer/ that notes its runs. With
# STUB_ERRORS=TOOL it finds 2 errors with TOOL (exit 3, as --error-exitcode 3 asks); with
# STUB_BROKEN=TOOL it fails with TOOL before checking anything (no summary, exit 1).
sanitizer() {
  mkdir -p "$1/compute-sanitizer"
  # shellcheck disable=SC2016  # $0, $2 and $* are the stub's
  printf '#!/bin/sh\necho "$0 $*" >>"%s"
if [ "$2" = "${STUB_ERRORS:-}" ]; then echo "========= ERROR SUMMARY: 2 errors"; exit 3; fi
if [ "$2" = "${STUB_BROKEN:-}" ]; then echo "stub: cannot attach"; exit 1; fi
echo "========= ERROR SUMMARY: 0 errors"\n' \
    "$work/calls" >"$1/compute-sanitizer/compute-sanitizer"
  chmod +x "$1/compute-sanitizer/compute-sanitizer" "$work/build/bench/sync_bench"
}
# run_it NAME EXPECTED_STATUS [ENV=VALUE...]: sets out.
run_it() {
  local name="$1" want="$2"
  shift 2
  rm -f "$work/calls"
  out="$(env PATH="$work/path" BUILD_DIR="$work/build" LOG_DIR="$work/logs" "$@" \
    "$work/path/bash" "$root/scripts/sanitize_gpu.sh" 2>&1)"
  local status=$?
  [ $status -eq "$want" ] || fail "$name: exit $status, expected $want: $out"
}

sanitizer "$work/cuda_home"
run_it cuda_home 0 CUDA_HOME="$work/cuda_home"
runs="$(cat "$work/calls" 2>/dev/null)"
[ "$(grep -c "^$work/cuda_home/compute-sanitizer/compute-sanitizer --tool" <<<"$runs")" -eq 3 ] ||
  fail "cuda_home: the three tools did not run under it: $out"

sanitizer "$work/toolkit"
mkdir -p "$work/toolkit/bin"
printf '#!/bin/sh\nexit 0\n' >"$work/toolkit/bin/nvcc"
chmod +x "$work/toolkit/bin/nvcc"
run_it next_to_nvcc 0 CUDA_HOME="$work/nowhere" PATH="$work/path:$work/toolkit/bin"
grep -q "^$work/toolkit/bin/../compute-sanitizer/compute-sanitizer --tool memcheck" \
  "$work/calls" 2>/dev/null || fail "next_to_nvcc: not found beside nvcc: $out"

# A tool that finds errors fails the script (exit 1), says which, and the others still run; one that
# fails before checking shows its last words.
run_it errors 1 CUDA_HOME="$work/cuda_home" STUB_ERRORS=racecheck
grep -q '^compute-sanitizer racecheck: exit 3; ========= ERROR SUMMARY: 2 errors' <<<"$out" ||
  fail "errors: racecheck's errors not said: $out"
[ "$(grep -c -- '--tool' "$work/calls" 2>/dev/null)" -eq 3 ] || fail "errors: not all three ran: $out"
run_it broken 1 CUDA_HOME="$work/cuda_home" STUB_BROKEN=memcheck
grep -q '^compute-sanitizer memcheck: exit 1; no summary' <<<"$out" &&
  grep -q '^    stub: cannot attach' <<<"$out" || fail "broken: its last words not shown: $out"

run_it explicit 0 COMPUTE_SANITIZER="$work/toolkit/compute-sanitizer/compute-sanitizer" \
  CUDA_HOME="$work/cuda_home"
grep -q "^$work/toolkit/compute-sanitizer" "$work/calls" 2>/dev/null || fail "explicit: not COMPUTE_SANITIZER"

if [ -x /usr/local/cuda/compute-sanitizer/compute-sanitizer ]; then
  echo "SKIPPED the not-found case: this machine has /usr/local/cuda/compute-sanitizer"
else
  run_it none 77 CUDA_HOME="$work/nowhere"
  grep -q "$work/nowhere/compute-sanitizer/compute-sanitizer" <<<"$out" ||
    fail "none: does not say it looked under CUDA_HOME: $out"
  grep -q '/usr/local/cuda/compute-sanitizer/compute-sanitizer' <<<"$out" ||
    fail "none: does not say it looked in /usr/local/cuda: $out"
  grep -q 'skipped' <<<"$out" || fail "none: does not say it skipped: $out"
fi

run_it no_bench 2 CUDA_HOME="$work/cuda_home" BUILD_DIR="$work/nothing"
grep -q 'no sync_bench' <<<"$out" || fail "no_bench: no reason: $out"

[ $failures -eq 0 ] || exit 1
echo "sanitize_gpu.sh: compute-sanitizer found under CUDA_HOME and beside nvcc; none is a skip (77)"
