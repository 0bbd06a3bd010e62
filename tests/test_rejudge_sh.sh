#!/usr/bin/env bash
# results/h200/rejudged/rejudge.sh shows its failures: a copy of it runs on a made-up results/h200/
# (22 empty runs) with a stub sync_summary. On good input it prints the tally of what compare
# flagged; a run missing, a compare or merge that fails, a CSV without the columns it reads or no
# sync_summary stop it with exit 2 and the reason (before, all but a failed merge left an empty
# tally and exit 0).
#
#   tests/test_rejudge_sh.sh ROOT
set -uo pipefail
root="${1:?usage: test_rejudge_sh.sh ROOT}"
script="$root/results/h200/rejudged/rejudge.sh"
if [ ! -f "$script" ]; then
  echo "skipped: $script is not in this copy of the tree (results/ left out)"
  exit 77
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

h200="$work/h200"
mkdir -p "$h200/rejudged"
cp "$script" "$h200/rejudged/"
for i in $(seq 1 14); do
  mkdir -p "$h200/gate/call$i" && echo '{}' >"$h200/gate/call$i/clean.json"
done
for i in 2 3 4 5 6 9; do
  mkdir -p "$h200/runners/call$i" && echo '{}' >"$h200/runners/call$i/new.json"
done
for i in 7 8; do
  mkdir -p "$h200/runners/call$i" && echo '{}' >"$h200/runners/call$i/clean.json"
done

# The stub: compare flags one row (a REGRESSION, exit 1, a note on stderr) where NEW is
# gate/call1, and fails on a file whose name holds STUB_BROKEN (merge does not); STUB_HEADER replaces the CSV
# header; merge fails where STUB_MERGE_FAIL is set.
cat >"$work/sync_summary" <<'STUB'
#!/bin/sh
cmd="$1"; shift
files=""
out=""
for a in "$@"; do
  case "$a" in --output=*) out="${a#--output=}" ;; --*) ;; *) files="$files $a" ;; esac
done
[ "$cmd" = compare ] && for f in $files; do
  case "$f" in *"${STUB_BROKEN:-//none//}"*)
    echo "sync_summary: $f: not Google Benchmark JSON" >&2; exit 2 ;;
  esac
done
if [ "$cmd" = merge ]; then
  [ -n "${STUB_MERGE_FAIL:-}" ] && { echo "sync_summary merge: runs of different GPU models" >&2; exit 2; }
  echo '{}' >"$out"
  exit 0
fi
h=benchmark,time_unit,metric,gate,base_median,new_median,change_pct,delta,noise,limit,p_value
h=$h,u_method,base_repetitions,new_repetitions,verdict,bound,resolution,host_slope,raw_delta
echo "${STUB_HEADER:-$h,base_gpus,machine_limit}"
echo "NullKernel/Async,us,real_time,gated,1,1,0.1,0,0,0,1,exact,10,10,-,host,,,,,"
set -- $files
case "$2" in
  gate/call1/clean.json)
    echo "NullKernel/DeviceSync,us,real_time,gated,5,5.6,12.34,0.6,0.1,0.2,0.001,exact,10,10,REGRESSION,sync,,,,,"
    echo "note: a note on stderr" >&2
    exit 1 ;;
esac
STUB
chmod +x "$work/sync_summary"

# rejudge NAME EXPECTED_STATUS [ENV=VALUE...]: sets out (stdout) and err (stderr).
rejudge() {
  local name="$1" want="$2"
  shift 2
  out="$(cd "$work" && env SYNC_SUMMARY="$work/sync_summary" "$@" "$h200/rejudged/rejudge.sh" \
    2>"$work/err")"
  local status=$?
  err="$(cat "$work/err")"
  [ $status -eq "$want" ] || fail "$name: exit $status, expected $want: $out $err"
}

rejudge good 0
expected="== mirror: 18 comparisons
  false REGRESSION: 1 rows, in 1 comparisons
  false improvement: 0 rows, in 0 comparisons
      1 NullKernel/DeviceSync REGRESSION
== pairwise: 462 comparisons
  false REGRESSION: 21 rows, in 21 comparisons
  false improvement: 0 rows, in 0 comparisons
     21 NullKernel/DeviceSync REGRESSION
== merged: 22 comparisons
  false REGRESSION: 1 rows, in 1 comparisons
  false improvement: 0 rows, in 0 comparisons
      1 NullKernel/DeviceSync REGRESSION"
[ "$out" = "$expected" ] || fail "good: printed
$out
expected
$expected"
[ -z "$err" ] || fail "good: compare's notes shown on success: $err"

rejudge broken_run 2 STUB_BROKEN=gate/call5/
grep -q 'gate/call5/clean.json: not Google Benchmark JSON' <<<"$err" ||
  fail "broken_run: compare's message not shown: $err"
grep -q 'compare .* failed (exit 2)' <<<"$err" || fail "broken_run: no reason of its own: $err"

rejudge merge_fails 2 STUB_MERGE_FAIL=1
grep -q 'runs of different GPU models' <<<"$err" || fail "merge_fails: merge's message hidden: $err"

rejudge header 2 STUB_HEADER=benchmark,verdict
grep -q 'no CSV header' <<<"$err" || fail "header: no reason: $err"

rejudge no_summary 2 SYNC_SUMMARY="$work/nothing"
grep -q "no sync_summary at $work/nothing" <<<"$err" || fail "no_summary: no reason: $err"

rm "$h200/runners/call9/new.json"
rejudge missing_run 2
grep -q 'missing runs: .*runners/call9/new.json' <<<"$err" || fail "missing_run: not named: $err"

[ $failures -eq 0 ] || exit 1
echo "rejudge.sh: the tally on good input; a missing run, failed compare or merge stop it (2)"
