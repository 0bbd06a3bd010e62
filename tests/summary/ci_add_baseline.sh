#!/bin/sh
# scripts/ci_regress.sh --add-to-baseline end to end, with fake_sync_bench on six "runners" (its
# FAKE_GPU_UUID): the first creates the baseline, the second merges into it (2 GPUs, 6 processes),
# a runner with another wait mode is refused (exit 2) and leaves the baseline byte for byte as it
# was, three more bring it to 5 GPUs (compare then measures how they differ), and the gate runs
# against it.
#   ci_add_baseline.sh REPO   (SYNC_BENCH, SYNC_SUMMARY, PROCESSES=3 from the environment)
repo="$1"
base=ci_multi_base.json
rm -rf "$base" "$base".*
fail() {
  echo "FAIL: $1"
  cat add.log
  exit 1
}
add() {  # add RUNNER_UUID [VAR=VALUE...]: one runner's --add-to-baseline
  uuid="$1"
  shift
  env FAKE_GPU_UUID="$uuid" "$@" "$repo/scripts/ci_regress.sh" --add-to-baseline "$base" \
    --benchmark_min_time=0.01 >add.log 2>&1
}
add GPU-runner-1 || fail "the first runner's --add-to-baseline exited $?"
grep -q "baseline of 3 processes written to $base" add.log || fail "no 'written' message"
add GPU-runner-2 || fail "the second runner's --add-to-baseline exited $?"
grep -q "(6 repetitions a benchmark, from 2 GPUs)" add.log ||
  fail "the merge did not report 6 repetitions from 2 GPUs"
grep -q '"merged_runs": 6' "$base" || fail "the baseline does not hold 6 processes"
before=$(cksum <"$base")
add GPU-runner-3 FAKE_WAIT_MODE=yield
status=$?
[ "$status" -eq 2 ] || fail "a runner with another wait mode exited $status, expected 2"
grep -q "host_wait_mode" add.log || fail "the refusal does not name what differs"
[ "$(cksum <"$base")" = "$before" ] || fail "the refused runner changed the baseline"
[ -s "$base.new.json" ] || fail "the refused runner's run was not kept"
for n in 3 4 5; do add GPU-runner-$n || fail "runner $n's --add-to-baseline exited $?"; done
grep -q "(15 repetitions a benchmark, from 5 GPUs)" add.log ||
  fail "the fifth runner was not told that the baseline holds 15 processes from 5 GPUs"
FAKE_GPU_UUID=GPU-runner-1 OUT=ci_multi_new.json "$repo/scripts/ci_regress.sh" "$base" \
  --benchmark_min_time=0.01 >add.md 2>add.log || fail "the gate against the 5-GPU baseline exited $?"
grep -q "no regression" add.log || fail "the gate did not report 'no regression'"
grep -q "between BASE's 5 GPUs" add.md || fail "the gate did not use the spread between the 5 GPUs"
echo "ci_regress.sh --add-to-baseline: created, merged (2 GPUs, 6 processes), refused a mismatch," \
  "grew to 5 GPUs, gated"
