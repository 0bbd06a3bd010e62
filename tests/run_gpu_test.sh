#!/bin/sh
# Runs one GPU test program for CTest (tests/CMakeLists.txt): its output, then, where it exited 0
# with no test passed (every test skipped: no GPU, or no second one), one line saying so and why,
# which the test's SKIP_REGULAR_EXPRESSION matches. A program that fails is reported failed,
# whatever else it skipped (matching any "SKIPPED" line had reported a failing one as skipped).
#   sh run_gpu_test.sh PROGRAM [ARGS...]
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q '^\[  PASSED  \] 0 tests\.'; then
  # gtest prints a skip as "FILE:LINE: Skipped", then the reason on the next line.
  why=$(printf '%s\n' "$out" | awk '/: Skipped$/ { getline; print; exit }')
  echo "sync_bench: every test of $(basename "$1") skipped: ${why:-no reason given}"
fi
exit "$rc"
