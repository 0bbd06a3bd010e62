#!/usr/bin/env bash
# scripts/setup.sh (through test.sh and run.sh), no GPU, no build, no install: in a made-up
# repository, on a PATH of stubs (cmake, ctest, c++, apt-get, sudo, id) and a few system tools.
# No nvcc: exit 2 before installing anything. Packages installed through sudo still get
# DEBIAN_FRONTEND (sudo resets the environment; the stub does too), with a caller's SETUP_PACKAGES
# (lint.sh's clang tools); a failed install exits 2. A cmake older than
# CMakeLists.txt's minimum: exit 2 saying how to get a newer one, before configuring. A failed
# configure or build: exit 3.
# test.sh --sanitize configures BUILD_DIR-sanitize, never BUILD_DIR; run.sh refuses a build
# configured with SYNC_BENCH_SANITIZE=ON. test.sh prints, from CTest's log, each skip reason once
# and test_fidelity's verdict lines.
#
#   tests/test_setup_sh.sh ROOT
# shellcheck disable=SC2016  # the stubs' own variables, in single quotes
set -uo pipefail
unset SYNC_BENCH_ALLOW_SANITIZE  # run.sh's override would hide the refusal tested here
root="${1:?usage: test_setup_sh.sh ROOT}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
unset BUILD_DIR CMAKE_ARGS OUT_JSON

repo="$work/repo"
mkdir -p "$repo/scripts" "$work/bin" "$work/cuda/bin"
cp "$root/scripts/setup.sh" "$root/scripts/test.sh" "$root/scripts/run.sh" "$repo/scripts/"
cp "$root/CMakeLists.txt" "$repo/"
# Only these system tools: no real cmake, compiler, apt-get or nvcc.
for tool in bash env sh dirname sed sort head nproc cat grep date mkdir tr rm mv chmod cp; do
  ln -s "$(command -v "$tool")" "$work/bin/$tool" || fail "no $tool here"
done
stub() {  # stub NAME BODY: a shell script on PATH that notes its call, then runs BODY
  printf '#!/bin/sh\necho "%s $*" >>"%s"\n%s\n' "$1" "$work/calls" "$2" >"$work/bin/$1"
  chmod +x "$work/bin/$1"
}
# cmake: --version as STUB_CMAKE_VERSION; a configure writes a cache with the sanitize setting.
stub cmake 'case "$1" in
  --version) echo "cmake version ${STUB_CMAKE_VERSION:-3.28.3}" ;;
  -S) b="$4"; mkdir -p "$b"; : >"$b/Makefile"
      case "$*" in *-DSYNC_BENCH_SANITIZE=ON*) s=ON ;; *) s=OFF ;; esac
      echo "SYNC_BENCH_SANITIZE:BOOL=$s" >"$b/CMakeCache.txt"
      exit "${STUB_CMAKE_CONFIGURE_EXIT:-0}" ;;
  --build) [ -n "${STUB_CMAKE_BUILD_SIGNAL:-}" ] && kill -s "$STUB_CMAKE_BUILD_SIGNAL" "$PPID"
           exit "${STUB_CMAKE_BUILD_EXIT:-0}" ;;
esac'
# ctest: writes STUB_LASTTEST, where set, as the log of the build folder it was given; exits
# STUB_CTEST_EXIT (default 0).
stub ctest 'if [ -n "${STUB_LASTTEST:-}" ]; then
  mkdir -p "$2/Testing/Temporary" && cp "$STUB_LASTTEST" "$2/Testing/Temporary/LastTest.log"
fi
exit "${STUB_CTEST_EXIT:-0}"'
stub c++ 'cat >/dev/null; exit "${STUB_CXX_EXIT:-0}"'  # exit 1: no header found
stub id 'echo 1000'
stub apt-get 'echo "apt-get sees DEBIAN_FRONTEND=${DEBIAN_FRONTEND:-}" >>"$(dirname "$0")/../calls"
[ -e "$(dirname "$0")/../apt_fails" ] && exit 100
exit 0'
stub sudo 'exec env -i PATH="$PATH" "$@"'  # env_reset
printf '#!/bin/sh\n' >"$work/cuda/bin/nvcc"
chmod +x "$work/cuda/bin/nvcc"
export PATH="$work/bin" CUDA_HOME="$work/cuda"

# setup NAME EXPECTED_EXIT [VAR=VALUE...]: scripts/setup.sh (as test.sh and run.sh source it) on
# a new BUILD_DIR; its output in $out, the stubs' calls in $work/calls.
setup() {
  local name="$1" want="$2" status
  shift 2
  rm -rf "$work/calls" "$work/build"
  out="$(env BUILD_DIR="$work/build" "$@" bash "$repo/scripts/setup.sh" 2>&1)"
  status=$?
  [ $status -eq "$want" ] || fail "$name: exit $status, expected $want: $out"
}
calls() { cat "$work/calls" 2>/dev/null; }

setup no_nvcc 2 CUDA_HOME="$work/nocuda" STUB_CXX_EXIT=1
grep -q 'CUDA toolkit (nvcc) is required' <<<"$out" || fail "no_nvcc: no reason: $out"
! grep -q apt-get "$work/calls" 2>/dev/null || fail "no_nvcc: installed before failing: $(calls)"

setup install 0 STUB_CXX_EXIT=1
grep -q '^sudo env DEBIAN_FRONTEND=noninteractive apt-get install .*libgtest-dev' "$work/calls" ||
  fail "install: not installed through sudo env: $(calls)"
grep -q '^apt-get sees DEBIAN_FRONTEND=noninteractive$' "$work/calls" ||
  fail "install: apt-get did not get DEBIAN_FRONTEND: $(calls)"
setup caller_packages 0 SETUP_PACKAGES=" clang-format clang-tidy"
grep -q '^sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang-format clang-tidy$' \
  "$work/calls" || fail "caller_packages: not installed: $(calls)"
: >"$work/apt_fails"
setup apt_fails 2 STUB_CXX_EXIT=1
grep -q 'setup: could not install' <<<"$out" || fail "apt_fails: no message: $out"
rm -f "$work/apt_fails"

setup old_cmake 2 STUB_CMAKE_VERSION=3.22.1
min="$(sed -nE 's/^cmake_minimum_required\(VERSION ([0-9]+(\.[0-9]+)*).*/\1/p' \
  "$root/CMakeLists.txt")"
grep -qF "CMake $min or newer is required" <<<"$out" || fail "old_cmake: no minimum $min: $out"
grep -q 'pip install cmake' <<<"$out" || fail "old_cmake: not how to get one: $out"
! grep -q '^cmake -S' "$work/calls" || fail "old_cmake: configured: $(calls)"
setup minimum_cmake 0 STUB_CMAKE_VERSION="$min.0"
grep -q '^cmake -S' "$work/calls" || fail "minimum_cmake: not configured: $(calls)"
setup unreadable_version 0 STUB_CMAKE_VERSION="?"  # left to configure
# A failed configure or build exits 3, whatever the tool's own status (make's 2 is run.sh's "nothing
# measured", ninja's 1 its "a benchmark failed").
setup build_fails 3 STUB_CMAKE_BUILD_EXIT=2
grep -q 'setup: building .* failed' <<<"$out" || fail "build_fails: no reason: $out"
# Interrupted (Ctrl-C reaches the build tool and setup alike; the tool exits as from a failure):
# 130, or 143 for a TERM, not the failed build's 3.
setup build_interrupted 130 STUB_CMAKE_BUILD_EXIT=2 STUB_CMAKE_BUILD_SIGNAL=INT
grep -q 'setup: building .* interrupted' <<<"$out" || fail "build_interrupted: not said: $out"
setup build_terminated 143 STUB_CMAKE_BUILD_EXIT=1 STUB_CMAKE_BUILD_SIGNAL=TERM
setup configure_fails 3 STUB_CMAKE_CONFIGURE_EXIT=1
grep -q 'setup: configuring .* failed' <<<"$out" || fail "configure_fails: no reason: $out"

# test.sh --sanitize: its own folder beside BUILD_DIR (a trailing / or not), or build-sanitize.
for plain in "$work/b" "$work/b/"; do
  rm -rf "$work/calls" "$work/b" "$work/b-sanitize"
  out="$(BUILD_DIR="$plain" bash "$repo/scripts/test.sh" --sanitize 2>&1)" ||
    fail "sanitize $plain: exit not 0: $out"
  grep -q "^cmake -S $repo -B $work/b-sanitize .*-DSYNC_BENCH_SANITIZE=ON" "$work/calls" ||
    fail "sanitize $plain: not configured in $work/b-sanitize: $(calls)"
  grep -q "^ctest --test-dir $work/b-sanitize .*-LE gpu" "$work/calls" ||
    fail "sanitize $plain: not tested in $work/b-sanitize: $(calls)"
  # A -R or -L that selects nothing must fail, not pass.
  grep -q "^ctest .*--no-tests=error" "$work/calls" ||
    fail "sanitize $plain: ctest may select no test and pass: $(calls)"
  [ ! -e "$work/b" ] || fail "sanitize $plain: made $work/b"
done
rm -rf "$work/calls"
out="$(bash "$repo/scripts/test.sh" --sanitize 2>&1)" || fail "sanitize default: exit not 0: $out"
grep -q "^cmake -S $repo -B $repo/build-sanitize " "$work/calls" ||
  fail "sanitize default: not in build-sanitize: $(calls)"

# test.sh after the tests: from CTest's log, each skip line once (a program skipped whole, or
# passed with some tests skipped) and test_fidelity's verdicts, nothing else of it.
cat >"$work/LastTest.log" <<'EOF'
1/3 Testing: test_fidelity
fidelity: clean  NullKernel/StreamSync   hand-written 5.100 us  sync_bench 5.120 us  (+0.4% +- 1.0%, 30 rounds)
fidelity: host   NullKernel/StreamSync   hand-written 5.100 us  sync_bench 5.700 us  (+11.8% +- 1.0%, 30 rounds)
Test Passed.
2/3 Testing: test_gpu_multigpu
sync_bench: every test of test_gpu_multigpu skipped: needs two GPUs
3/3 Testing: test_gpu_copies
  fidelity: not at the start of a line
sync_bench: every test of test_gpu_multigpu skipped: needs two GPUs
sync_bench: 1 test(s) of test_gpu_ops skipped, the rest passed: needs two GPUs
EOF
rm -rf "$work/calls" "$work/t"
out="$(BUILD_DIR="$work/t" STUB_LASTTEST="$work/LastTest.log" bash "$repo/scripts/test.sh" 2>&1)" ||
  fail "test.sh with a log: exit not 0: $out"
want="sync_bench: 1 test(s) of test_gpu_ops skipped, the rest passed: needs two GPUs
sync_bench: every test of test_gpu_multigpu skipped: needs two GPUs
$(grep '^fidelity: ' "$work/LastTest.log")"
[ "$out" = "$want" ] || fail "test.sh with a log printed:
$out
expected:
$want"
# ...and exits with ctest's status, whatever the greps found.
out="$(BUILD_DIR="$work/t" STUB_LASTTEST="$work/LastTest.log" STUB_CTEST_EXIT=8 \
  bash "$repo/scripts/test.sh" 2>&1)"
status=$?
[ $status -eq 8 ] || fail "test.sh after a failing ctest: exit $status, expected 8: $out"
[ "$out" = "$want" ] || fail "test.sh after a failing ctest printed: $out"

# run.sh on a build whose cache says SYNC_BENCH_SANITIZE=ON: refused, nothing run.
for s in ON OFF; do
  rm -rf "$work/calls" "$work/asan"
  mkdir -p "$work/asan/bench"
  : >"$work/asan/Makefile"
  echo "SYNC_BENCH_SANITIZE:BOOL=$s" >"$work/asan/CMakeCache.txt"
  printf '#!/bin/sh\necho sync_bench >>"%s"\nexit 2\n' "$work/calls" >"$work/asan/bench/sync_bench"
  chmod +x "$work/asan/bench/sync_bench"
  out="$(BUILD_DIR="$work/asan" OUT_JSON="$work/run.json" bash "$repo/scripts/run.sh" 2>&1)"
  status=$?
  if [ $s = ON ]; then
    [ $status -eq 2 ] || fail "run.sh on ASan: exit $status, expected 2: $out"
    grep -q 'is a sanitizer build' <<<"$out" || fail "run.sh on ASan: no reason: $out"
    ! grep -q '^sync_bench' "$work/calls" || fail "run.sh on ASan: sync_bench ran"
  else
    grep -q '^sync_bench' "$work/calls" || fail "run.sh on a plain build: no sync_bench: $out"
  fi
done

[ $failures -eq 0 ] || exit 1
echo "setup.sh: nvcc checked first, installs through sudo env, old cmake refused; sanitize builds" \
  "kept apart; test.sh reports skips and fidelity verdicts"
