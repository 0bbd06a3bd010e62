#!/bin/sh
# One end-to-end case of scripts/ci_regress.sh with fake_sync_bench (tests/summary/CMakeLists.txt):
#   ci_regress_case.sh REPO NAME EXPECTED_EXIT [PATTERN]
# Runs the gate against ci_base.json (made by the ci_baseline fixture test, PROCESSES=3) with the
# FAKE_* settings of the environment, expects its exit status, and PATTERN (grep -E) in its
# markdown table or messages. Leaves NAME.md and NAME.log in the working directory.
repo="$1"
name="$2"
expected="$3"
pattern="${4:-}"
OUT="ci_$name.json" "$repo/scripts/ci_regress.sh" ci_base.json --benchmark_min_time=0.01 \
  --benchmark_repetitions=3 >"$name.md" 2>"$name.log"
status=$?
if [ "$status" -ne "$expected" ]; then
  echo "ci_regress.sh exited $status, expected $expected"
  cat "$name.md" "$name.log"
  exit 1
fi
if [ -n "$pattern" ] && ! cat "$name.md" "$name.log" | grep -Eq -- "$pattern"; then
  echo "no '$pattern' in the output of ci_regress.sh:"
  cat "$name.md" "$name.log"
  exit 1
fi
echo "ci_regress.sh exited $status as expected"
