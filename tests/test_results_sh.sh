#!/usr/bin/env bash
# scripts/results.sh's exit status, no GPU needed: a copy of it runs in a made-up repository whose
# test.sh, run.sh and sanitize_gpu.sh are stubs, with a made-up BUILD_DIR whose sync_bench is one.
# Each stub exits as FAIL_<NAME> says. Every step still runs after a failure, but the script then
# exits 1 naming it; no sync_bench after the build, or an unwritable DIR, is 2; compute-sanitizer
# missing (sanitize_gpu.sh's 77) is reported skipped, not failed.
#
#   tests/test_results_sh.sh ROOT
set -uo pipefail
root="${1:?usage: test_results_sh.sh ROOT}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

repo="$work/repo"
mkdir -p "$repo/scripts" "$work/build/bench"
cp "$root/scripts/results.sh" "$repo/scripts/"
# stub NAME VAR: a script that prints its name and exits ${VAR:-0}.
stub() {
  # shellcheck disable=SC2016  # $* and ${VAR} are the stub's, expanded when it runs
  printf '#!/bin/sh\necho "stub %s $*"\nexit ${%s:-0}\n' "$(basename "$1")" "$2" >"$1"
  chmod +x "$1"
}
stub "$repo/scripts/test.sh" FAIL_TESTS
stub "$repo/scripts/run.sh" FAIL_SWEEP
stub "$repo/scripts/sanitize_gpu.sh" FAIL_SANITIZE
# sync_bench: the repetition run fails where FAIL_REPEAT is set.
cat >"$work/build/bench/sync_bench" <<'STUB'
#!/bin/sh
case "$*" in *--benchmark_repetitions=5*) [ -n "${FAIL_REPEAT:-}" ] && { echo "repeat broke"; exit 1; } ;; esac
exit 0
STUB
chmod +x "$work/build/bench/sync_bench"
export BUILD_DIR="$work/build"

# expect NAME STATUS PATTERN [ENV=VALUE...]: results.sh into a fresh DIR.
expect() {
  local name="$1" want="$2" pattern="$3"
  shift 3
  local out status
  out="$(env "$@" "$repo/scripts/results.sh" "$work/out-$name" 2>&1)"
  status=$?
  [ $status -eq "$want" ] || fail "$name: exit $status, expected $want: $out"
  grep -qE "$pattern" <<<"$out" || fail "$name: no '$pattern' in: $out"
  # Every step ran, whatever failed before it.
  if [ "$want" -ne 2 ]; then
    for s in tests sweep repeat blocking sync_map sanitize; do
      grep -q "^$s " <<<"$out" || fail "$name: step $s did not run: $out"
    done
  fi
}
expect all_pass 0 '^sync_map +exit 0'
expect sweep_fails 1 'step\(s\) failed: sweep' FAIL_SWEEP=3
expect repeat_fails 1 'step\(s\) failed: repeat' FAIL_REPEAT=1
expect tests_fail 1 'failed: tests' FAIL_TESTS=8
expect sanitize_fails 1 'failed: sanitize' FAIL_SANITIZE=1
expect sanitize_skipped 0 '^sanitize +skipped' FAIL_SANITIZE=77
expect no_bench 2 'no sync_bench at' BUILD_DIR="$work/nothing"
: >"$work/a_file"
out="$("$repo/scripts/results.sh" "$work/a_file/dir" 2>&1)"
[ $? -eq 2 ] || fail "a DIR that cannot be made: not exit 2: $out"
mkdir -p "$work/cwd"
out="$(cd "$work/cwd" && "$repo/scripts/results.sh" a b 2>&1)"
[ $? -eq 2 ] || fail "two DIRs: not exit 2: $out"
[ -z "$(ls -A "$work/cwd")" ] || fail "two DIRs: wrote $(ls "$work/cwd")"

[ $failures -eq 0 ] || exit 1
echo "results.sh: failures exit 1 (every step still runs), bad input 2, a skipped sanitizer 0"
