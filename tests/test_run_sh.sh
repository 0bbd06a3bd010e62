#!/usr/bin/env bash
# scripts/run.sh as a user runs it, on a machine without a usable GPU (CUDA_VISIBLE_DEVICES=-1
# hides it where there is one): listing (the flag or BENCHMARK_LIST_TESTS) passes through and
# writes nothing; a run that measures nothing fails and leaves no empty JSON behind.
# Usage: test_run_sh.sh ROOT BUILD_DIR
set -u
root="$1"
export BUILD_DIR="$2"
# Its behaviour, not its timings: the sanitizer build (test.sh --sanitize) runs it too.
export SYNC_BENCH_ALLOW_SANITIZE=1
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

export OUT_JSON="$tmp/run.json"
out="$("$root/scripts/run.sh" --benchmark_list_tests --benchmark_filter='^NullKernel/' 2>&1)"
status=$?
[ $status -eq 0 ] || fail "listing exited $status: $out"
grep -q '^NullKernel/Async/manual_time$' <<<"$out" || fail "listing printed no names: $out"
[ ! -e "$OUT_JSON" ] || fail "listing wrote $OUT_JSON"

# Google Benchmark reads the flag from the environment too; the command line overrides it.
out="$(BENCHMARK_LIST_TESTS=yes "$root/scripts/run.sh" --benchmark_filter='^NullKernel/' 2>&1)"
status=$?
[ $status -eq 0 ] || fail "listing from BENCHMARK_LIST_TESTS exited $status: $out"
grep -q '^NullKernel/Async/manual_time$' <<<"$out" ||
  fail "BENCHMARK_LIST_TESTS listed nothing: $out"
[ ! -e "$OUT_JSON" ] || fail "listing from the environment wrote $OUT_JSON"
out="$(BENCHMARK_LIST_TESTS=yes CUDA_VISIBLE_DEVICES=-1 "$root/scripts/run.sh" \
  --benchmark_list_tests=off --benchmark_filter='^NullKernel/' 2>&1)"
status=$?
[ $status -eq 2 ] ||
  fail "--benchmark_list_tests=off over BENCHMARK_LIST_TESTS exited $status: $out"
grep -q 'no CUDA GPU available' <<<"$out" || fail "--benchmark_list_tests=off did not run: $out"

out="$(CUDA_VISIBLE_DEVICES=-1 "$root/scripts/run.sh" --benchmark_filter='^NullKernel/' 2>&1)"
status=$?
[ $status -eq 2 ] || fail "a run without a GPU exited $status: $out"
grep -q 'no CUDA GPU available' <<<"$out" || fail "no reason given: $out"
[ ! -e "$OUT_JSON" ] || fail "an empty $OUT_JSON was left behind"

out="$("$root/scripts/run.sh" --benchmark_filter=NoSuchThing 2>&1)"
status=$?
[ $status -eq 2 ] || fail "a filter matching nothing exited $status: $out"
[ ! -e "$OUT_JSON" ] || fail "$OUT_JSON written for nothing"
echo "run.sh: listing (flag or environment), no GPU and an empty filter all behave"
