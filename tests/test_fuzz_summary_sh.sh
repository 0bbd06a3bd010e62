#!/usr/bin/env bash
# scripts/fuzz_summary.sh without clang or a real fuzzing run: a copy of it runs in a made-up
# repository (two summary/ sources) with a stub compiler (CXX_FUZZ) whose "fuzzer" finds a crash
# only where FAKE_CRASH is set. Checked: bad SECONDS give usage and exit 2; no clang gives 3 and
# says libFuzzer needs clang; a compiler without libFuzzer gives 3; a failed build gives 4; an
# earlier run's artifacts are not reported again; objects from another compiler are rebuilt; a
# crash, or an input past the fuzzer's -timeout (a hang), is kept in tests/data/fuzz/ and gives 1.
#
#   tests/test_fuzz_summary_sh.sh ROOT
set -uo pipefail
root="${1:?usage: test_fuzz_summary_sh.sh ROOT}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
unset CXX_FUZZ
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

repo="$work/repo"
mkdir -p "$repo/scripts" "$repo/summary" "$repo/tests/data"
cp "$root/scripts/fuzz_summary.sh" "$repo/scripts/"
for f in a b main; do echo "// $f" >"$repo/summary/$f.cpp"; done
echo "// header" >"$repo/summary/a.hpp"
: >"$repo/summary/fuzz_summary.dict"
echo '{}' >"$repo/tests/data/seed.json"

# The stub compiler: STUB_ID names it (--version, and what its objects hold); STUB_NO_FUZZER
# refuses -fsanitize=fuzzer as GCC does; STUB_FAIL_SRC fails that source. Its "fuzzer" writes a
# crash where FAKE_CRASH is set, and lists the objects it was linked from in OUT.objs.
cat >"$work/stub++" <<'EOF'
#!/usr/bin/env bash
[ "$1" = --version ] && { echo "stub clang version ${STUB_ID:-1}"; exit 0; }
src= out= objs=() compile=0
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift ;;
    -c) compile=1 ;;
    -fsanitize=fuzzer | -fsanitize=fuzzer,*)
      [ -n "${STUB_NO_FUZZER:-}" ] && { echo "error: unsupported option '$1'" >&2; exit 1; } ;;
    *.o) objs+=("$1") ;;
    *.cpp) src="$1" ;;
  esac
  shift
done
if [ $compile -eq 1 ]; then
  [ "$src" = "${STUB_FAIL_SRC:-}" ] && { echo "$src:1: error: stub" >&2; exit 1; }
  echo "${STUB_ID:-1} $src" >"$out"
  exit 0
fi
[ ${#objs[@]} -gt 0 ] && cat "${objs[@]}" >"$out.objs"
cat >"$out" <<'FUZZER'
#!/bin/sh
echo "$@" >"$0.args"
for a in "$@"; do case "$a" in -artifact_prefix=*) prefix="${a#-artifact_prefix=}" ;; esac; done
[ -n "${FAKE_CRASH:-}" ] && { echo '{"crash":1}' >"${prefix}crash-123"; exit 1; }
[ -n "${FAKE_HANG:-}" ] && { echo '{"hang":1}' >"${prefix}timeout-7"; exit 1; }
exit 0
FUZZER
chmod +x "$out"
EOF
chmod +x "$work/stub++"

# fuzz EXPECTED_STATUS NAME [ENV=VALUE...] -- [ARGS...]: runs the copy; sets out.
fuzz() {
  local want="$1" name="$2" env=()
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do env+=("$1"); shift; done
  shift
  out="$(env CXX_FUZZ="$work/stub++" ${env[@]+"${env[@]}"} "$repo/scripts/fuzz_summary.sh" "$@" 2>&1)"
  local status=$?
  [ $status -eq "$want" ] || fail "$name: exit $status, expected $want: $out"
}

for bad in abc -5 0 10s 1.5 ''; do
  fuzz 2 "SECONDS '$bad'" -- "$bad"
  grep -q 'SECONDS must be' <<<"$out" || fail "SECONDS '$bad': no reason: $out"
  grep -q 'scripts/fuzz_summary.sh \[SECONDS\]' <<<"$out" || fail "SECONDS '$bad': no usage: $out"
done
fuzz 2 "two arguments" -- 5 6
fuzz 0 "--help" -- --help
[ ! -e "$repo/build-fuzz" ] || fail "bad arguments built something"

# No clang on PATH: a PATH with the tools the script needs and no compiler at all.
mkdir -p "$work/path"
for t in bash env dirname basename mkdir rm mv cp cat find sed grep head tail nproc date rmdir \
  printf; do
  p="$(command -v "$t")" && [ -x "$p" ] && [ "${p#/}" != "$p" ] && ln -sf "$p" "$work/path/$t"
done
out="$(PATH="$work/path" "$work/path/bash" "$repo/scripts/fuzz_summary.sh" 5 2>&1)"
status=$?
[ $status -eq 3 ] || fail "no clang: exit $status, expected 3: $out"
grep -q 'libFuzzer needs clang' <<<"$out" || fail "no clang: does not say libFuzzer needs clang: $out"

fuzz 3 "no libFuzzer" STUB_NO_FUZZER=1 -- 5
grep -q 'libFuzzer needs clang' <<<"$out" || fail "no libFuzzer: no reason: $out"

fuzz 4 "build fails" STUB_FAIL_SRC=summary/b.cpp -- 5
grep -q 'build .* failed' <<<"$out" || fail "build fails: no reason: $out"
[ ! -e "$repo/build-fuzz/obj/b.o" ] || fail "build fails: left an object for b.cpp"

# A crash: kept, exit 1.
fuzz 1 "crash" STUB_ID=1 FAKE_CRASH=1 -- 5
[ -s "$repo/tests/data/fuzz/crash-123.json" ] || fail "crash: not kept in tests/data/fuzz/: $out"
rm -f "$repo/tests/data/fuzz/crash-123.json"
# Every input gets a time limit; one that exceeds it is a hang, kept as the crash is.
grep -q -- '-timeout=5' "$repo/build-fuzz/fuzz_summary.args" ||
  fail "the fuzzer runs without -timeout: $(cat "$repo/build-fuzz/fuzz_summary.args")"
fuzz 1 "hang" STUB_ID=1 FAKE_HANG=1 -- 5
[ -s "$repo/tests/data/fuzz/timeout-7.json" ] || fail "hang: not kept in tests/data/fuzz/: $out"
rm -f "$repo/tests/data/fuzz/timeout-7.json"
# The next run finds nothing: the earlier run's crash is not reported again.
fuzz 0 "after a crash" STUB_ID=1 -- 5
[ ! -e "$repo/tests/data/fuzz/crash-123.json" ] || fail "after a crash: the old crash copied again"
# And one from a run of the old layout (build-fuzz/artifacts/ itself) neither.
echo '{}' >"$repo/build-fuzz/artifacts/crash-old"
fuzz 0 "old artifact" STUB_ID=1 -- 5
[ ! -e "$repo/tests/data/fuzz/crash-old.json" ] || fail "old artifact: reported again"

# Another compiler, no source changed: every object is rebuilt with it.
fuzz 0 "other compiler" STUB_ID=2 -- 5
objs="$repo/build-fuzz/fuzz_summary.objs"
if grep -q '^1 ' "$objs" || [ "$(grep -c '^2 ' "$objs")" -ne 2 ]; then
  fail "other compiler: linked stale objects: $(cat "$objs")"
fi
grep -q main.cpp "$objs" && fail "main.cpp linked into the fuzzer"
# A header newer than the objects, same compiler: rebuilt too (as before).
sleep 1
touch "$repo/summary/a.hpp"
fuzz 0 "header changed" STUB_ID=2 -- 5
[ "$repo/build-fuzz/obj/a.o" -nt "$repo/summary/a.hpp" ] || fail "header changed: not rebuilt"

[ $failures -eq 0 ] || exit 1
echo "fuzz_summary.sh: arguments checked, no clang said, fresh builds and artifacts"
