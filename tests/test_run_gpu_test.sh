#!/bin/sh
# run_gpu_test.sh reports a GPU test program as CTest should count it: skipped only where every
# test skipped and none failed, with the reason; a failure among skips stays a failure.
#   sh test_run_gpu_test.sh PATH/TO/run_gpu_test.sh
wrapper="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fake() {  # fake NAME EXIT LINES...: a program that prints LINES and exits EXIT
  name=$1 rc=$2
  shift 2
  { echo '#!/bin/sh'; for l in "$@"; do printf "echo '%s'\n" "$l"; done; echo "exit $rc"; } >"$dir/$name"
  chmod +x "$dir/$name"
}
fake skip_and_fail 1 "a.cpp:1: Skipped" "needs two CUDA devices" "[  FAILED  ] 1 test" "[  PASSED  ] 0 tests."
fake all_skip 0 "a.cpp:1: Skipped" "no CUDA GPU: cudaErrorNoDevice" "[  PASSED  ] 0 tests."
fake some_pass 0 "a.cpp:1: Skipped" "needs two CUDA devices" "[  PASSED  ] 1 test."
fake some_skip 0 "[ RUN      ] GpuMultiGpu.DataParallel" "b.cpp:2: Skipped" \
  "DataParallel: built without NCCL" "[  PASSED  ] 4 tests." "[  SKIPPED ] 1 test, listed below:" \
  "[  SKIPPED ] GpuMultiGpu.DataParallel"
fail=0
check() {  # check NAME EXPECTED_RC MARKER(yes|no)
  out=$(sh "$wrapper" "$dir/$1")
  rc=$?
  marker=no
  printf '%s\n' "$out" | grep -q "^sync_bench: every test of $1 skipped" && marker=yes
  if [ "$rc" -ne "$2" ] || [ "$marker" != "$3" ]; then
    echo "FAIL: $1: exit $rc (expected $2), skip line: $marker (expected $3)"
    fail=1
  fi
}
check skip_and_fail 1 no
check all_skip 0 yes
check some_pass 0 no
check some_skip 0 no
# A pass with some tests skipped says how many and why, in a line of its own.
partial="sync_bench: 1 test(s) of some_skip skipped, the rest passed:"
sh "$wrapper" "$dir/some_skip" | grep -qx "$partial DataParallel: built without NCCL" ||
  { echo "FAIL: a partial skip is not reported"; fail=1; }
sh "$wrapper" "$dir/all_skip" | grep -q "the rest passed" &&
  { echo "FAIL: every test skipped read as a partial skip"; fail=1; }
sh "$wrapper" "$dir/all_skip" | grep -q "skipped: no CUDA GPU: cudaErrorNoDevice" ||
  { echo "FAIL: the reason is not on the skip line"; fail=1; }
[ "$fail" -eq 0 ] && echo "run_gpu_test.sh: all cases as expected"
exit "$fail"
