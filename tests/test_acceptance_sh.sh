#!/usr/bin/env bash
# scripts/acceptance.sh (the judge) and scripts/acceptance_call.sh's arguments, no GPU. The judge
# runs on made-up device-call folders: summary.txt lines as acceptance_call.sh writes them,
# processes' JSON made here, and a stub gate_rates.sh that prints the totals it is given (the
# real one's totals are tested by sync_summary_gate_rates). Every criterion must pass on good
# folders and fail, naming why, when one thing is off; bad input exits 2; a call that ran nothing
# passes nothing.
#
#   tests/test_acceptance_sh.sh ROOT SYNC_SUMMARY
set -uo pipefail
root="${1:?usage: test_acceptance_sh.sh ROOT SYNC_SUMMARY}"
summary="${2:?usage: test_acceptance_sh.sh ROOT SYNC_SUMMARY}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

repo="$work/repo"
mkdir -p "$repo/scripts"
cp "$root/scripts/acceptance.sh" "$root/scripts/acceptance_call.sh" "$root/scripts/source_hash.sh" \
  "$repo/scripts/"
mkdir -p "$repo/common" && echo 'project(x)' >"$repo/CMakeLists.txt" && echo 'int a;' >"$repo/common/a.cpp"
# shellcheck disable=SC2016  # the stub's own variable
printf '#!/bin/sh\ncat "$STUB_RATES"\n' >"$repo/scripts/gate_rates.sh"
chmod +x "$repo/scripts"/*.sh
export SYNC_SUMMARY="$summary"

processes_made=0
# process_json FILE NAME@OVERHEAD@BASELINE[@HOST]...: one process's JSON: for each argument, the
# paired row (step = BASELINE + OVERHEAD; baseline_host_us = HOST where given) and its Async row
# (step = BASELINE). RULE: the stopping rule its context records (none if unset).
process_json() {
  local file="$1" sep='' name o b h family rest async
  shift
  row() {  # row NAME STEP [COUNTERS]
    printf '%s\n  {"name": "%s/manual_time", "run_name": "%s/manual_time",' "$sep" "$1" "$1"
    printf ' "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1,'
    printf ' "iterations": 100, "real_time": %s, "cpu_time": 1, "time_unit": "us"%s}' "$2" "${3:-}"
    sep=','
  }
  {
    # Each process its own start time, as real ones have: merge refuses one run given twice.
    processes_made=$((processes_made + 1))
    printf '{"context": {"date": "2026-11-24T%02d:%02d:00+00:00", "host_name": "h",' \
      $((processes_made / 60 % 24)) $((processes_made % 60))
    printf ' "executable": "sync_bench", "num_cpus": 16, "mhz_per_cpu": 2000,'
    printf ' "cpu_scaling_enabled": false, "caches": [], "load_avg": [0, 0, 0],'
    printf ' "library_build_type": "release", "gpu_name": "NVIDIA H200"%s},\n "benchmarks": [' \
      "${RULE:+, \"stopping_rule\": \"$RULE\"}"
    for arg in "$@"; do
      IFS=@ read -r name o b h <<<"$arg"
      family="${name%%/*}" rest="${name#*/}"
      async="$family/Async"
      [ "$rest" != "${rest#*/}" ] && async+="/${rest#*/}"
      row "$async" "$b"
      row "$name" "$(awk -v o="$o" -v b="$b" 'BEGIN { print o + b }')" \
        ", \"overhead_us\": $o, \"baseline_us\": $b${h:+, \"baseline_host_us\": $h}"
    done
    printf ']}\n'
  } >"$file"
}

# rates HOST1US_HIT: the totals of a gate_rates.sh run (its format), +1 us caught HOST1US_HIT of 40.
rates() {
  cat <<EOF
Totals:
  detection, across calls, gpu10: GPU-bound time: 60 of 60 flagged
  detection, across calls, host1us: paired overhead: 50 of 80 flagged
  detection, same call, gpu10: GPU-bound time: 30 of 30 flagged
  detection, same call, gpu10: paired overhead: 40 of 40 flagged
  detection, same call, host10: GPU-bound time: 10 of 10 flagged
  detection, same call, host10: GPU-bound, host cost hidden (not counted): 1 of 30 flagged
  detection, same call, host10: paired overhead: 40 of 40 flagged
  detection, same call, host1us: paired overhead: $1 of 40 flagged
  false alarms: GPU-bound time: ${2:-0} of 90 flagged
  false alarms: paired overhead: 0 of 120 flagged
EOF
}

# make_call DIR TESTS FIDELITY [NULL_OVERHEADS] [BIG_FP8] [NULL_DEFAULT_RULE] [NULL_HOSTS]: a device
# call's folder: TESTS test.sh runs and FIDELITY test_fidelity runs passed, the gate's runs, six
# headline processes measured 2 s a benchmark (NullKernel's overheads as given, default all 5.4;
# the baseline's host time per step NULL_HOSTS, default all 3.5, and 7.0 for SmallGemm) and six
# with the default rule (likewise, without host times), and two BigGemm processes (fp8's overhead
# in the second as given, default 12 us of an 800 us step; the baseline's host time per step 12
# and 10 us in the first, 14 and 15 in the second; BIG_RULE: the stopping rule their context
# records, none by default). NO_HOST=1: no host time anywhere.
make_call() {
  local d="$1" i p=0 q=0 hosts
  read -ra hosts <<<"${7:-3.5 3.5 3.5 3.5 3.5 3.5}"
  mkdir -p "$d/x/biggemm" "$d/x/headline_long"
  echo "gpu: GPU 0: NVIDIA H200 (UUID: GPU-$(basename "$d")0000-0000)" >"$d/summary.txt"
  for i in $(seq 1 "$2"); do echo "test.sh $i: exit 0, 150 s, 100% tests passed out of 264"; done >>"$d/summary.txt"
  for i in $(seq 1 "$3"); do echo "test_fidelity $i (alone): Passed 62.1 sec, exit 0"; done >>"$d/summary.txt"
  for run in clean host1us host10 gpu10; do echo '{}' >"$d/$run.json"; done
  local nh='' sh='@7.0'
  [ "${NO_HOST:-0}" = 1 ] && sh=''
  for o in ${4:-5.4 5.4 5.4 5.4 5.4 5.4}; do
    p=$((p + 1))
    [ "${NO_HOST:-0}" = 1 ] || nh="@${hosts[q]}"
    q=$((q + 1))
    process_json "$d/x/headline_long/run-$p.json" "NullKernel/DeviceSync@$o@4.0$nh" \
      "SmallGemm/DeviceSync/fp16/cublas/n:512@8.2@10.5$sh"
  done
  for o in ${6:-5.4 5.4 5.4 5.4 5.4 5.4}; do
    p=$((p + 1))
    process_json "$d/x/default$p.json" "NullKernel/DeviceSync@$o@4.0" \
      "SmallGemm/DeviceSync/fp16/cublas/n:512@8.2@10.5"
  done
  "$summary" merge --output="$d/headline_long.json" "$d"/x/headline_long/run-*.json >/dev/null 2>&1 ||
    fail "merge $d long"
  "$summary" merge --output="$d/headline.json" "$d"/x/default*.json >/dev/null 2>&1 ||
    fail "merge $d"
  local h1='@12' h2='@10' h3='@14' h4='@15'
  [ "${NO_HOST:-0}" = 1 ] && h1='' h2='' h3='' h4=''
  RULE="${BIG_RULE:-}" process_json "$d/x/biggemm/run-1.json" "BigGemm/DeviceSync/bf16/cublas/n:8192@20@1600$h1" \
    "BigGemm/DeviceSync/fp8/cublaslt/n:8192@12@800$h2"
  RULE="${BIG_RULE:-}" process_json "$d/x/biggemm/run-2.json" "BigGemm/DeviceSync/bf16/cublas/n:8192@25@1620$h3" \
    "BigGemm/DeviceSync/fp8/cublaslt/n:8192@${5:-12}@800$h4"
  # MANY_LOGS=1: many logs after biggemm/, as a real call has: a reader that stops at the first
  # match must not read as "no BigGemm" (tar killed by SIGPIPE under pipefail). Only the first good
  # calls have them: they cost 0.6 s a call, most of this test's time.
  mkdir -p "$d/x/logs"
  [ "${MANY_LOGS:-0}" = 1 ] && (cd "$d/x/logs" && touch $(seq -f 'log%04g.txt' 1 3000))
  local verdicts=()
  if [ "${WITH_VERDICTS:-0}" = 1 ]; then  # test_fidelity's lines, as test.sh and ctest -V log them
    fidelity_log '' -0.4 +11.6 >"$d/x/test1.txt"
    fidelity_log '127: ' +0.6 +8.6 >"$d/x/fidelity1.txt"
    verdicts=(./test1.txt ./fidelity1.txt)
  fi
  (cd "$d/x" && tar czf "$d/logs.tar.gz" ./biggemm ./headline_long ./logs ${verdicts[@]+"${verdicts[@]}"})
  rm -rf "$d/x"
}

# fidelity_log PREFIX CLEAN INJECTED: a test_fidelity run's verdict lines, each with PREFIX (ctest
# --verbose's "N: "): NullKernel/StreamSync clean at CLEAN% and with the host cost at INJECTED%,
# the DeviceSync overhead clean at -1.9% (with its `parts` line, no verdict) and with the host cost
# at +12.0%, BigGemm fp32 clean at -0.0% and with the GPU cost at +13.1%. Without PREFIX (test.sh's
# log) every line twice, as when test_fidelity fails there: ctest's output, then test.sh's.
fidelity_log() {
  local v='hand-written  8.348 us  sync_bench  8.542 us' i
  for i in 1 2; do
    printf '%sfidelity: clean  NullKernel/StreamSync  %s  (%s%% +- 0.6%%, 30 rounds)\n' "$1" "$v" "$2"
    printf '%sfidelity: host   NullKernel/StreamSync  %s  (%s%% +- 0.6%%, 60 rounds)\n' "$1" "$v" "$3"
    printf '%sfidelity: clean  NullKernel/DeviceSync overhead  %s  (-1.9%% +- 0.5%%, 30 rounds)\n' \
      "$1" "$v"
    printf '%sfidelity: clean  NullKernel/DeviceSync overhead parts  hand-written Async 4.0 %s\n' \
      "$1" 'DeviceSync 9.4 us  sync_bench Async 4.0 DeviceSync 9.3 us (medians)'
    printf '%sfidelity: host   NullKernel/DeviceSync overhead  %s  (+12.0%% +- 0.5%%, 30 rounds)\n' \
      "$1" "$v"
    printf '%sfidelity: clean  BigGemm/Async/fp32/cublas/n:4096  %s  (-0.0%% +- 0.0%%, 30 rounds)\n' \
      "$1" "$v"
    printf '%sfidelity: gpu    BigGemm/Async/fp32/cublas/n:4096  %s  (+13.1%% +- 0.0%%, 30 rounds)\n' \
      "$1" "$v"
    [ -z "$1" ] || break
  done
}

# judge NAME EXPECTED_EXIT PATTERN... -- DIR...: acceptance.sh's exit and lines that must be there.
judge() {
  local name="$1" want="$2" out status
  shift 2
  local patterns=()
  while [ "$1" != -- ]; do patterns+=("$1"); shift; done
  shift
  out="$("$repo/scripts/acceptance.sh" "$@" 2>&1)"
  status=$?
  [ $status -eq "$want" ] || fail "$name: exit $status, expected $want: $out"
  for p in ${patterns[@]+"${patterns[@]}"}; do
    grep -qE -- "$p" <<<"$out" || fail "$name: no '$p' in: $out"
  done
}

export STUB_RATES="$work/rates.txt"
rates 40 >"$STUB_RATES"
good=("$work/c1" "$work/c2" "$work/c3")
MANY_LOGS=1 make_call "$work/c1" 2 4
MANY_LOGS=1 make_call "$work/c2" 2 3
MANY_LOGS=1 make_call "$work/c3" 1 3
echo "sweep: run.sh exit 0, 92 s" >>"$work/c3/summary.txt"
echo "smallgemm: exit 0, 14 s" >>"$work/c3/summary.txt"
judge all_met 0 '^PASS  test\.sh +5 of 5 passed' '^PASS  fidelity +10 of 10 passed' \
  '^PASS  false alarms +0 of 210 ' \
  '^PASS  detection +host1us 40 of 40 \(100\.0%\), host10 50 of 50 .*gpu10 70 of 70' \
  '^info  across calls +host1us: 50 of 80 flagged \(62\.5%\)' \
  '^PASS  headline .*NullKernel/DeviceSync 5\.40 us \(5\.40-5\.40, \+0\.0%/\+0\.0%, 6 processes\).*\(2 s a benchmark' \
  '^info  default rule .*\(within \+-5%\)' \
  '^info  headline calls +NullKernel/DeviceSync: call medians 5\.40-5\.40 us over 3 calls \(\+0\.0%/\+0\.0% of their median 5\.40\); SmallGemm' \
  "^info  headline host +host time per step against its call's median for the row: NullKernel/DeviceSync: within \+-5% 18 processes 1\.00-1\.00x \(median 1\.00x\); SmallGemm/DeviceSync/fp16/cublas/n:512: within \+-5% 18 processes 1\.00-1\.00x \(median 1\.00x\)$" \
  '^PASS  biggemm +2 dtype/backend rows, 6 processes or more: medians 1\.40-1\.50%, worst process 1\.54% \(measured by a rule not recorded \(6 processes\); need' \
  '^info  biggemm host +.*median over the processes: under 3%: 12 rows 0\.80-1\.20x, median 1\.00x$' \
  '^info  biggemm slope .*: slope 2\.50-2\.50 us a us, correlation 1\.00-1\.00 \(1 of 2 rows\); 1 rows with under 3 processes, or one overhead or one host time$' \
  '^PASS  sweep +run\.sh at most 92 s' '^Result: 7 of 7 criteria met' -- "${good[@]}"

# test_fidelity's verdicts, where the logs keep them: none above; two runs' in c1 (one's lines
# twice), every comparison's difference, clean and injected (host or GPU) apart.
judge no_verdicts 0 "^info  fidelity +no test_fidelity verdicts in the calls' logs" -- "${good[@]}"
WITH_VERDICTS=1 make_call "$work/c1" 2 4
want='^info  fidelity +sync_bench against the hand-written loop, 2 runs whose logs keep the'
want+=' verdicts: clean -1\.9% to \+0\.6%, injected \+8\.6% to \+13\.1% \('
judge verdicts 0 "$want" '^Result: 7 of 7 criteria met' -- "${good[@]}"
make_call "$work/c1" 2 4

# The build each call ran: none said, no line; one fingerprint for all is information; two say to
# judge one at a time.
grep -q '^info  sources' <<<"$("$repo/scripts/acceptance.sh" "${good[@]}" 2>&1)" &&
  fail "no_sources: an 'info  sources' line, where no call has a source: line"
for c in c1 c2 c3; do echo "source: 0123456789abcdef" >>"$work/$c/summary.txt"; done
judge one_build 0 '^info  sources +3 0123456789abcdef \(calls by source fingerprint\)$' \
  '^Result: 7 of 7 criteria met' -- "${good[@]}"
sed -i 's/^source: .*/source: fedcba9876543210/' "$work/c3/summary.txt"
judge two_builds 0 '^info  sources +2 0123456789abcdef;1 fedcba9876543210 ' \
  '^info  sources +the calls ran different builds: judge one build at a time$' -- "${good[@]}"
sed -i '/^source: /d' "$work/c1/summary.txt" "$work/c2/summary.txt" "$work/c3/summary.txt"
# The tree each call ran (the tests and scripts beside the source): likewise.
grep -q '^info  trees' <<<"$("$repo/scripts/acceptance.sh" "${good[@]}" 2>&1)" &&
  fail "no_trees: an 'info  trees' line, where no call has a tree: line"
for c in c1 c2 c3; do echo "tree: 00112233445566aa" >>"$work/$c/summary.txt"; done
judge one_tree 0 '^info  trees +3 00112233445566aa \(calls by tree fingerprint\)$' \
  '^Result: 7 of 7 criteria met' -- "${good[@]}"
grep -q 'different tests or scripts' <<<"$("$repo/scripts/acceptance.sh" "${good[@]}" 2>&1)" &&
  fail "one_tree: says the calls ran different tests, where all ran one tree"
sed -i 's/^tree: .*/tree: 00112233445566bb/' "$work/c2/summary.txt"
judge two_trees 0 '^info  trees +2 00112233445566aa;1 00112233445566bb ' \
  '^info  trees +the calls ran different tests or scripts: ' -- "${good[@]}"
sed -i '/^tree: /d' "$work/c1/summary.txt" "$work/c2/summary.txt" "$work/c3/summary.txt"
# The processes each call's gate runs merged, from its clean run: likewise.
grep -q '^info  gate runs' <<<"$("$repo/scripts/acceptance.sh" "${good[@]}" 2>&1)" &&
  fail "no_counts: an 'info  gate runs' line, where no clean run has repetitions"
for c in c1 c2 c3; do echo '{"benchmarks": [{"repetitions": 20}]}' >"$work/$c/clean.json"; done
judge one_count 0 '^info  gate runs +3 calls of 20 processes a run$' '^Result: 7 of 7 criteria met' \
  -- "${good[@]}"
echo '{"benchmarks": [{"repetitions": 10}]}' >"$work/c3/clean.json"
judge two_counts 0 '^info  gate runs +1 calls of 10 processes a run;2 calls of 20 processes a run$' \
  '^info  gate runs +the calls merged different numbers of processes: judge one number at a time$' \
  -- "${good[@]}"
for c in c1 c2 c3; do echo '{}' >"$work/$c/clean.json"; done

# One thing off at a time.
sed -i '0,/Passed 62.1 sec, exit 0/s//Failed 63.0 sec, exit 8/' "$work/c2/summary.txt"
judge fidelity_failed 1 '^FAIL  fidelity +9 of 10 passed; failed: .*/c2 test_fidelity 1' \
  '^PASS  test\.sh' '^Result: 6 of 7' -- "${good[@]}"
make_call "$work/c2" 2 3
sed -i 's/test.sh 2: exit 0/test.sh 2: exit 124/' "$work/c2/summary.txt"
judge test_failed 1 '^FAIL  test\.sh +4 of 5 passed; failed: .*/c2 test\.sh 2' -- "${good[@]}"
make_call "$work/c2" 1 3
judge too_few_tests 1 '^FAIL  test\.sh +4 of 4 passed: too few \(need 5' -- "${good[@]}"
make_call "$work/c2" 2 3
rates 37 >"$STUB_RATES"
judge detection_missed 1 '^FAIL  detection +host1us 37 of 40 \(92\.5%\)' -- "${good[@]}"
rates 40 1 >"$STUB_RATES"
judge false_alarm 1 '^FAIL  false alarms +1 of 210 gated rows flagged' -- "${good[@]}"
rates 40 >"$STUB_RATES"
judge two_calls 1 '^FAIL  false alarms .*only 2 calls \(need 3\)' -- "$work/c1" "$work/c3"
# The process outside +-5% on a host 1.2 times slower than its call's median: the host line says so.
make_call "$work/c2" 2 3 "5.4 5.3 5.5 5.4 5.9 5.4" "" "" "3.5 3.4 3.5 3.6 4.2 3.5"
judge headline_spread 1 '^FAIL  headline .*/c2: NullKernel/DeviceSync 5\.40 us \(5\.30-5\.90, -1\.9%/\+9\.3%' \
  "^info  headline host .*: NullKernel/DeviceSync: outside \+-5% 1 process 1\.20-1\.20x \(median 1\.20x\), within 17 processes 0\.97-1\.03x \(median 1\.00x\); SmallGemm/DeviceSync/fp16/cublas/n:512: within \+-5% 18 processes" \
  -- "${good[@]}"
make_call "$work/c2" 2 3 "5.4 5.4 5.4 5.4 5.4"
judge headline_five 1 '^FAIL  headline .*5 processes' -- "${good[@]}"
# A call whose processes agree with each other but not with the other calls: the criterion holds,
# and the calls' line shows the gap.
make_call "$work/c2" 2 3 "5.7 5.7 5.7 5.7 5.7 5.7"
judge headline_calls 0 '^PASS  headline' \
  '^info  headline calls +NullKernel/DeviceSync: call medians 5\.40-5\.70 us over 3 calls \(\+0\.0%/\+5\.6% of their median 5\.40\); SmallGemm/DeviceSync/fp16/cublas/n:512: call medians 8\.20-8\.20 us over 3 calls \(\+0\.0%/\+0\.0% of their median 8\.20\)$' \
  -- "${good[@]}"
# The default rule's spread is shown, and does not decide.
make_call "$work/c2" 2 3 "" "" "5.4 5.3 5.5 5.4 5.9 5.4"
judge default_rule_spread 0 '^PASS  headline' \
  '^info  default rule .*/c2: NullKernel/DeviceSync 5\.40 us \(5\.30-5\.90.*\(not within \+-5%\)' \
  -- "${good[@]}"
rm "$work/c1/headline_long.json" "$work/c2/headline_long.json" "$work/c3/headline_long.json"
judge headline_not_long 1 '^FAIL  headline +not run \(need the headline rows measured 2 s' \
  '^info  default rule' -- "${good[@]}"
make_call "$work/c2" 2 3 "" 28
judge biggemm_over 1 \
  '^FAIL  biggemm .*worst process 3\.50%; 3% or more: BigGemm/DeviceSync/fp8/cublaslt/n:8192 3\.50%' \
  '^info  biggemm host +.*: 3% or more: 1 rows 1\.20-1\.20x, median 1\.20x; under 3%: 11 rows 0\.80-1\.20x, median 0\.92x$' \
  '^info  biggemm slope .*: slope 1\.07-2\.50 us a us, correlation 0\.45-1\.00 \(2 of 2 rows\)$' \
  -- "${good[@]}"
# The rule each process was measured by, as its context records it.
BIG_RULE='min_rounds=8 min_time=2s max_time=2s max_noise=2%' make_call "$work/c2" 2 3
judge biggemm_rule 0 \
  '^PASS  biggemm .*\(measured by a rule not recorded \(4 processes\); min_rounds=8 min_time=2s max_time=2s max_noise=2% \(2 processes\); need under 3% in every process\)$' \
  -- "${good[@]}"
# 10% or more is over 3% too (a number, not the text "10.50", which sorts under "3").
make_call "$work/c2" 2 3 "" 84
judge biggemm_over_10 1 '^FAIL  biggemm .*3% or more: BigGemm/DeviceSync/fp8/cublaslt/n:8192 10\.50%' \
  '^info  biggemm host +.*: 3% or more: 1 rows 1\.20-1\.20x, median 1\.20x; under 3%: 11 rows' \
  -- "${good[@]}"
# Processes measured before sync_bench had baseline_host_us: the verdict, and no host line.
for c in n1 n2 n3; do NO_HOST=1 make_call "$work/$c" 2 3; done
out="$("$repo/scripts/acceptance.sh" "$work"/n[123] 2>&1)"
grep -qE '^PASS  biggemm ' <<<"$out" || fail "no_host: no biggemm verdict: $out"
! grep -q 'biggemm \(host\|slope\)\|headline host' <<<"$out" || fail "no_host: a host line without the counter: $out"
make_call "$work/c2" 2 3
sed -i 's/run.sh exit 0, 92 s/run.sh exit 0, 185 s/' "$work/c3/summary.txt"
judge sweep_slow 1 '^FAIL  sweep +run\.sh at most 185 s' -- "${good[@]}"
sed -i 's/run.sh exit 0, 185 s/run.sh exit 1, 92 s/' "$work/c3/summary.txt"
judge sweep_failed 1 '^FAIL  sweep +run\.sh at most 92 s over 1 runs \(1 failed\)' -- "${good[@]}"
sed -i 's/run.sh exit 1, 92 s/run.sh exit 0, 115.5 s/' "$work/c3/summary.txt"
judge sweep_decimal 0 '^PASS  sweep +run\.sh at most 115\.5 s over 1 runs \(0 failed\)' -- "${good[@]}"
sed -i 's/run.sh exit 0, 115.5 s/run.sh exit 0, 92 s/' "$work/c3/summary.txt"
# The sweep with the anatomy is information: it is shown where run, and decides nothing.
# (The output first: under pipefail, grep -q's early exit would kill acceptance.sh with SIGPIPE, and
# the pipeline's failure would pass for "no such line".)
out="$("$repo/scripts/acceptance.sh" "${good[@]}" 2>&1)"
! grep -q '^info  anatomy' <<<"$out" || fail "anatomy: an info line with no anatomy sweep run"
echo "anatomy sweep: run.sh --anatomy=on exit 0, 171 s" >>"$work/c1/summary.txt"
echo "anatomy sweep: run.sh --anatomy=on exit 1, 150 s" >>"$work/c3/summary.txt"
judge anatomy_sweep 0 '^info  anatomy +run\.sh --anatomy=on at most 171 s over 2 runs \(1 failed\)$' \
  '^Result: 7 of 7' -- "${good[@]}"

# A call that ran nothing passes nothing.
mkdir -p "$work/empty"
echo "gpu: GPU 0: NVIDIA H200 (UUID: GPU-e)" >"$work/empty/summary.txt"
echo "skipped test: 1 s left of the budget, it needs about 175" >>"$work/empty/summary.txt"
judge nothing_run 1 '^FAIL  test\.sh +not run' '^FAIL  fidelity +not run' \
  '^FAIL  false alarms +not run' '^FAIL  detection +not run' '^FAIL  headline +not run' \
  '^FAIL  biggemm +not run' '^FAIL  sweep +not run' '^info  skipped .*empty: test' \
  '^Result: 0 of 7' -- "$work/empty"

# Bad input: exit 2, saying why.
judge no_dir 2 'scripts/acceptance.sh DIR' --
judge no_summary 2 "no $work/nowhere/summary.txt" -- "$work/nowhere"
echo 'not json' >"$work/c1/headline.json"
judge bad_json 2 'sync_summary report .*headline\.json failed' -- "${good[@]}"
make_call "$work/c1" 2 4
SYNC_SUMMARY="$work/none" judge no_summary_tool 2 "no sync_summary at $work/none" -- "${good[@]}"

# acceptance_call.sh: bad arguments exit 2 with the usage; a budget too small skips every part,
# says so, and still leaves summary.txt and logs.tar.gz.
call_bad() {
  local name="$1" pattern="$2" out status
  shift 2
  out="$("$repo/scripts/acceptance_call.sh" "$@" 2>&1)"
  status=$?
  [ $status -eq 2 ] || fail "call $name: exit $status, expected 2: $out"
  grep -qE -- "$pattern" <<<"$out" || fail "call $name: no '$pattern' in: $out"
  grep -qF 'scripts/acceptance_call.sh OUT [PART...]' <<<"$out" || fail "call $name: no usage: $out"
}
call_bad no_out 'missing OUT'
call_bad unknown_part "unknown part 'tests'" "$work/o" tests
BUDGET_S=abc call_bad budget_word "got 'abc'" "$work/o"
HEADLINE_PROCESSES=0 call_bad processes_zero "got '0'" "$work/o" headline
PROCESSES=00 call_bad processes_zeros "got '00'" "$work/o" gate
# The work folder is emptied first: an OUT inside it would be emptied with it.
ACCEPTANCE_WORK="$work/acc" call_bad out_in_work "inside the work folder" "$work/acc/o" test
mkdir -p "$work/real" && ln -s "$work/real" "$work/linked"  # and through a link
ACCEPTANCE_WORK="$work/linked/acc" call_bad out_in_linked_work "inside the work folder" \
  "$work/linked/acc/o" test
out="$(PATH="$work/nobin:$PATH" BUDGET_S=1 ACCEPTANCE_WORK="$work/acc" \
  "$repo/scripts/acceptance_call.sh" "$work/o" test fidelity 2>&1)"
status=$?
[ $status -eq 1 ] || fail "call skipped: exit $status, expected 1: $out"
for part in test fidelity; do
  grep -qE "^skipped $part: -?[0-9]+ s left of the budget" "$work/o/summary.txt" ||
    fail "call skipped: no 'skipped $part' in summary.txt: $(cat "$work/o/summary.txt")"
done
[ -s "$work/o/logs.tar.gz" ] || fail "call skipped: no logs.tar.gz"
grep -qxF "source: $(SOURCE_ROOT="$repo" "$root/scripts/source_hash.sh")" "$work/o/summary.txt" ||
  fail "call skipped: no source: line of the tree's fingerprint: $(cat "$work/o/summary.txt")"
grep -qxF "tree: $(SOURCE_ROOT="$repo" "$root/scripts/source_hash.sh" --tree)" "$work/o/summary.txt" ||
  fail "call skipped: no tree: line of the tree fingerprint: $(cat "$work/o/summary.txt")"
[ "$(find "$work/o" -type f | wc -l)" -le 8 ] || fail "call skipped: more than 8 files in OUT"
judge call_skipped 1 '^FAIL  test\.sh +not run' '^info  skipped .*o: test,.*o: fidelity' -- "$work/o"
# The gate at the default 20 processes a run does not start in 420 s: its estimate is 20 s a
# process (400) and the build (50); at 10 it would have been 250.
out="$(unset PROCESSES; PATH="$work/nobin:$PATH" BUDGET_S=420 ACCEPTANCE_WORK="$work/acc" \
  "$repo/scripts/acceptance_call.sh" "$work/o" gate 2>&1)"
status=$?
if ! { [ $status -eq 1 ] &&
  grep -qE "^skipped gate: [0-9]+ s left of the budget" "$work/o/summary.txt"; }; then
  fail "gate in 420 s: exit $status, not skipped: $(cat "$work/o/summary.txt")"
fi

# The sweep part when run.sh uses the budget up (to the second, or past it): the SmallGemm run is
# skipped, saying so, not run without a limit (`timeout 0`) or failed (a negative timeout). The
# clock is a stub that run.sh's stub moves on; setup.sh's stub makes the build.
call="$work/callrepo"
mkdir -p "$call/scripts" "$work/callbin"
cp "$root/scripts/acceptance_call.sh" "$call/scripts/"
cat >"$call/scripts/setup.sh" <<'STUB'
mkdir -p "$BUILD_DIR/bench" "$BUILD_DIR/summary"
printf '#!/bin/sh\necho "$0 $*" >>"$CALLS"\n' >"$BUILD_DIR/bench/sync_bench"
cp "$BUILD_DIR/bench/sync_bench" "$BUILD_DIR/summary/sync_summary"
chmod +x "$BUILD_DIR/bench/sync_bench" "$BUILD_DIR/summary/sync_summary"
STUB
cat >"$call/scripts/run.sh" <<'STUB'
echo "run.sh $*" >>"$CALLS"
echo $(($(cat "$FAKE_NOW") + RUN_SH_TAKES)) >"$FAKE_NOW"
STUB
# shellcheck disable=SC2016  # the stub's own variables
printf '#!/bin/sh\nif [ "$1" = +%%s ]; then cat "$FAKE_NOW"; else exec %s "$@"; fi\n' \
  "$(command -v date)" >"$work/callbin/date"
chmod +x "$work/callbin/date"
export FAKE_NOW="$work/now" CALLS="$work/bench_calls"
for takes in 180 185; do
  echo 1000 >"$FAKE_NOW"
  rm -rf "$CALLS" "$work/o2"
  out="$(PATH="$work/callbin:$PATH" BUDGET_S=180 RUN_SH_TAKES=$takes ACCEPTANCE_WORK="$work/acc2" \
    "$call/scripts/acceptance_call.sh" "$work/o2" sweep 2>&1)"
  status=$?
  left=$((180 - takes))
  [ $status -eq 1 ] || fail "sweep $left s left: exit $status, expected 1: $out"
  grep -q "^sweep: run.sh exit 0, $takes s" "$work/o2/summary.txt" ||
    fail "sweep $left s left: run.sh did not run: $(cat "$work/o2/summary.txt")"
  grep -q "^skipped smallgemm: $left s left of the budget after run.sh" "$work/o2/summary.txt" ||
    fail "sweep $left s left: no skipped smallgemm: $(cat "$work/o2/summary.txt")"
  ! grep -q sync_bench "$CALLS" 2>/dev/null || fail "sweep $left s left: SmallGemm ran: $(cat "$CALLS")"
  tar -xOzf "$work/o2/logs.tar.gz" ./smallgemm.txt 2>/dev/null | grep -q '^skipped smallgemm' ||
    fail "sweep $left s left: smallgemm.txt does not say it was skipped"
done

# The headline part when the budget cuts its last process short: the complete processes are merged,
# the one cut short is left out and said (merge would refuse it, and write no headline.json). The
# stub processes.sh writes K runs, the last one cut short; the stub sync_summary's salvage says 3
# (complete) for a run that ends in "}", and its merge notes what it was given.
cat >"$call/scripts/processes.sh" <<'STUB'
#!/bin/sh
k="$1" dir="$2"
mkdir -p "$dir"
for i in $(seq 1 "$k"); do printf '{"benchmarks": []}\n' >"$dir/run-$i.json"; done
printf '{"benchmarks": [' >"$dir/run-$k.json"
exit 124
STUB
chmod +x "$call/scripts/processes.sh"
cat >"$work/callbin/summary_stub" <<'STUB'
#!/bin/sh
case "$1" in
  salvage) [ "$(tail -c 2 "$2")" = "}" ] && exit 3; exit 0 ;;
  merge) echo "merge $*" >>"$CALLS"; for a; do case "$a" in --output=*) : >"${a#--output=}" ;; esac; done ;;
esac
STUB
chmod +x "$work/callbin/summary_stub"
sed -i "s|^cp \"\$BUILD_DIR/bench/sync_bench\" \"\$BUILD_DIR/summary/sync_summary\"|cp \"$work/callbin/summary_stub\" \"\$BUILD_DIR/summary/sync_summary\"|" \
  "$call/scripts/setup.sh"
echo 1000 >"$FAKE_NOW"
rm -rf "$CALLS" "$work/o2"
out="$(PATH="$work/callbin:$PATH" BUDGET_S=580 HEADLINE_PROCESSES=3 ACCEPTANCE_WORK="$work/acc2" \
  "$call/scripts/acceptance_call.sh" "$work/o2" headline 2>&1)"
grep -q '^headline: exit 124, 3 processes, [0-9]* s (1 cut short, left out of the merge)$' \
  "$work/o2/summary.txt" || fail "headline cut short: not said: $(cat "$work/o2/summary.txt") $out"
merged="$(grep '^merge ' "$CALLS" 2>/dev/null)"
if ! grep -q 'run-1\.json .*run-2\.json' <<<"$merged" || grep -q 'run-3\.json' <<<"$merged"; then
  fail "headline cut short: merged not the complete runs alone: $merged"
fi
[ -e "$work/o2/headline.json" ] || fail "headline cut short: no headline.json"
# Its raw JSON kept in the logs, not as a process acceptance.sh would read (run-*.json).
kept="$(tar tzf "$work/o2/logs.tar.gz" 2>/dev/null)"
if ! grep -qx '\./headline/run-3\.json\.partial' <<<"$kept" ||
  grep -qx '\./headline/run-3\.json' <<<"$kept"; then
  fail "headline cut short: its JSON not kept as .partial: $kept"
fi

# The anatomy part: run.sh with the anatomy's passes on, timed.
echo 1000 >"$FAKE_NOW"
rm -rf "$CALLS" "$work/o2"
out="$(PATH="$work/callbin:$PATH" BUDGET_S=580 RUN_SH_TAKES=170 ACCEPTANCE_WORK="$work/acc2" \
  "$call/scripts/acceptance_call.sh" "$work/o2" anatomy 2>&1)"
status=$?
[ $status -eq 0 ] || fail "anatomy part: exit $status, expected 0: $out"
grep -q '^anatomy sweep: run.sh --anatomy=on exit 0, 170 s$' "$work/o2/summary.txt" ||
  fail "anatomy part: no timed line: $(cat "$work/o2/summary.txt")"
grep -qx 'run.sh --anatomy=on' "$CALLS" || fail "anatomy part: run.sh ran as: $(cat "$CALLS")"

[ $failures -eq 0 ] && echo "acceptance.sh and acceptance_call.sh: every case as expected"
exit $((failures > 0))
