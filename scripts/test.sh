#!/usr/bin/env bash
# Builds sync_bench and runs every test. Tests labelled `gpu` skip, saying why, where there is no
# GPU. With --sanitize: a separate ASan+UBSan build of the host code (in BUILD_DIR-sanitize, default
# build-sanitize) runs the CPU tests.
# After the tests it prints, from CTest's log (ctest shows no output of a passed or skipped test):
# why each GPU test program skipped, whole or in part, and test_fidelity's verdicts (sync_bench
# against the hand-written loop).
# Other arguments go to ctest (e.g. -LE gpu for the CPU subset; selecting no test is a failure).
# Exit status: ctest's, or set-up's 2 (no nvcc, apt-get or new enough cmake, or a failed install)
# and 3 (the configure or build failed).
sanitize=0
args=()
for a in "$@"; do
  if [ "$a" = "--sanitize" ]; then sanitize=1; else args+=("$a"); fi
done
set -- ${args[@]+"${args[@]}"}
if [ "$sanitize" -eq 1 ]; then
  # Its own folder beside the plain build (build-sanitize, or BUILD_DIR-sanitize): setup.sh keeps a
  # cache's settings, and run.sh on a BUILD_DIR configured here would benchmark the ASan build.
  plain="${BUILD_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build}"
  export BUILD_DIR="${plain%/}-sanitize"
  export CMAKE_ARGS="-DSYNC_BENCH_SANITIZE=ON ${CMAKE_ARGS:-}"
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
  set -- -LE gpu "$@"
fi
# shellcheck source=SCRIPTDIR/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
set +e
# --no-tests=error: a -R or -L that selects nothing (a typo) fails instead of passing.
ctest --test-dir "$BUILD_DIR" --output-on-failure --no-tests=error "$@"
rc=$?
# From CTest's log, which keeps every test's output: run_gpu_test.sh's skip lines (a program
# skipped whole, or passed with some of its tests skipped), then
# test_fidelity's verdicts (one line per comparison with the rounds it took, and a `parts` line
# for each overhead comparison).
log="$BUILD_DIR/Testing/Temporary/LastTest.log"
grep -hE "^sync_bench: (every test|[0-9]+ test\(s\)) of .* skipped" "$log" 2>/dev/null | sort -u
grep -h "^fidelity: " "$log" 2>/dev/null
exit "$rc"
