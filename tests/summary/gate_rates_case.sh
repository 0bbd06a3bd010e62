#!/bin/sh
# scripts/gate_rates.sh end to end, with fake_sync_bench: two "device calls" (DIRs) as
# scripts/gate_runs.sh lays them out, each a clean run and one 20% slower everywhere (gpu10.json,
# FAKE_SLOWDOWN=1.2), and a baseline two runners built with ci_regress.sh --add-to-baseline.
# The rates must count no false alarm and every gated row of the slow runs, both between the
# DIRs and against the runners' baseline (--base); a missing --base or clean.json exits 2.
#   gate_rates_case.sh REPO   (SYNC_BENCH, SYNC_SUMMARY, PROCESSES=3 from the environment)
repo="$1"
rm -rf rates_d1 rates_d2 rates_base.json rates_base.json.* rates.txt
fail() {
  echo "FAIL: $1"
  cat rates.txt 2>/dev/null
  exit 1
}
run() {  # run OUT.json [VAR=VALUE...]: one merged run of the default gated set
  out="$1"
  shift
  env "$@" "$repo/scripts/ci_regress.sh" --make-baseline "$out" --benchmark_min_time=0.01 \
    2>/dev/null || fail "ci_regress.sh --make-baseline $out exited $?"
}
for d in rates_d1 rates_d2; do
  mkdir -p "$d"
  run "$d/clean.json"
  run "$d/gpu10.json" FAKE_SLOWDOWN=1.2
done
for runner in GPU-runner-1 GPU-runner-2; do
  FAKE_GPU_UUID=$runner "$repo/scripts/ci_regress.sh" --add-to-baseline rates_base.json \
    --benchmark_min_time=0.01 2>/dev/null || fail "--add-to-baseline on $runner exited $?"
done

# expect TOTALS all|COUNT: the totals line must be there, over some rows, with all or COUNT flagged
expect() {
  line=$(grep -E "^  $1: [0-9]+ of [0-9]+ flagged" rates.txt) || fail "no '$1' totals line"
  hit=$(echo "$line" | sed -E 's/.*: ([0-9]+) of ([0-9]+) flagged/\1/')
  n=$(echo "$line" | sed -E 's/.*: ([0-9]+) of ([0-9]+) flagged/\2/')
  [ "$n" -gt 0 ] || fail "'$1' counted no rows"
  [ "$2" = all ] && want=$n || want=$2
  [ "$hit" -eq "$want" ] || fail "'$1': $hit of $n flagged, expected $2"
}
"$repo/scripts/gate_rates.sh" rates_d1 rates_d2 >rates.txt || fail "gate_rates.sh exited $?"
expect "false alarms: paired overhead" 0
expect "false alarms: GPU-bound time" 0
expect "detection, same call, gpu10: paired overhead" all
expect "detection, across calls, gpu10: GPU-bound time" all
"$repo/scripts/gate_rates.sh" --base rates_base.json rates_d1 >rates.txt ||
  fail "gate_rates.sh --base exited $?"
grep -q "^Against rates_base.json:" rates.txt || fail "--base does not say what it judged against"
expect "false alarms: paired overhead" 0
expect "detection, given base, gpu10: paired overhead" all
expect "detection, given base, gpu10: GPU-bound time" all

"$repo/scripts/gate_rates.sh" --base missing.json rates_d1 >rates.txt 2>&1
[ $? -eq 2 ] || fail "an unreadable --base did not exit 2"
mkdir -p rates_empty
"$repo/scripts/gate_rates.sh" rates_empty >rates.txt 2>&1
[ $? -eq 2 ] || fail "a DIR without clean.json did not exit 2"
grep -q "no rates_empty/clean.json" rates.txt || fail "the missing clean.json is not named"
echo "gate_rates.sh: no false alarm, every slowed row flagged, between DIRs and against --base"
