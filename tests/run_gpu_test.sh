#!/bin/sh
# Runs one GPU test program for CTest (tests/CMakeLists.txt): its output, then, where it exited 0
# with no test passed (every test skipped: no GPU, or no second one), one line saying so and why,
# which the test's SKIP_REGULAR_EXPRESSION matches. A program that fails is reported failed,
# whatever else it skipped (matching any "SKIPPED" line had reported a failing one as skipped).
# Where it passed with some tests skipped (DataParallel on two GPUs without NCCL), a line saying
# how many and why: CTest counts the program passed, and scripts/test.sh prints these lines.
#   sh run_gpu_test.sh PROGRAM [ARGS...]
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
# The skip reasons, each once: gtest prints a skip as "FILE:LINE: Skipped", then the reason on the
# next line.
reasons() {
  printf '%s\n' "$out" |
    awk '/: Skipped$/ { getline; if (!seen[$0]++) { printf "%s%s", sep, $0; sep = "; " } }'
}
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q '^\[  PASSED  \] 0 tests\.'; then
  why=$(reasons)
  echo "sync_bench: every test of $(basename "$1") skipped: ${why:-no reason given}"
elif [ "$rc" -eq 0 ]; then
  skipped=$(printf '%s\n' "$out" |
    sed -n 's/^\[  SKIPPED \] \([0-9]*\) tests\{0,1\}, listed below:$/\1/p')
  [ -n "$skipped" ] &&
    echo "sync_bench: $skipped test(s) of $(basename "$1") skipped, the rest passed: $(reasons)"
fi
exit "$rc"
