#!/usr/bin/env bash
# scripts/lint.sh with the real clang-format, clang-tidy and the project's .clang-format and
# .clang-tidy, in a made-up repository whose set-up (a stub setup.sh) only names the build folder
# and whose compile commands are written here. Checked: a clean tree exits 0, also with a relative
# BUILD_DIR from another folder; a file clang-format would change exits 1 and is named; a clang-tidy
# finding exits 1 with its check and file, in a file listed after one whose name has a quote; a
# file the build does not compile is not given to clang-tidy; a clang-tidy that crashes on a file
# exits 1 and names it; CLANG_TIDY naming a missing binary exits 2 (never installed); an argument
# gives usage and 2; no compile commands exits 3.
# Exit 77 (skipped) where clang-format or clang-tidy is missing: the GPU machine has neither.
#
#   tests/test_lint_sh.sh ROOT
set -uo pipefail
root="${1:?usage: test_lint_sh.sh ROOT}"
for tool in clang-format clang-tidy; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "test_lint_sh: skipped: no $tool here (scripts/lint.sh installs it where apt-get can)"
    exit 77
  fi
done
unset CLANG_FORMAT CLANG_TIDY BUILD_DIR
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

repo="$work/repo"
mkdir -p "$repo/scripts" "$repo/common" "$repo/bench" "$repo/summary" "$repo/tests" "$repo/build"
cp "$root/scripts/lint.sh" "$root/.clang-format" "$root/.clang-tidy" "$repo/"
mv "$repo/lint.sh" "$repo/scripts/"
cat >"$repo/scripts/setup.sh" <<'EOF'
# shellcheck shell=bash
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
EOF
cat >"$repo/common/a.hpp" <<'EOF'
#pragma once

int twice(int x);
EOF
cat >"$repo/common/a.cpp" <<'EOF'
#include "a.hpp"

int twice(int x) {
  return 2 * x;
}
EOF
cat >"$repo/bench/b.cpp" <<'EOF'
#include <cstddef>
#include <string>
#include <utility>

std::size_t moved_size(std::string s) {
  std::string t = std::move(s);
  return t.size();
}
EOF
cp "$repo/bench/b.cpp" "$repo/summary/c.cpp"
# Not compiled by the build (as data_parallel_nccl.cpp without NCCL): its finding is not reported.
cat >"$repo/summary/unbuilt.cpp" <<'EOF'
#include <cstddef>
#include <string>
#include <utility>

std::size_t used_after_move(std::string s) {
  std::string t = std::move(s);
  return s.size() + t.size();
}
EOF
printf 'int tested() {\n  return 1;\n}\n' >"$repo/tests/t.cpp"
printf 'int quoted() {\n  return 1;\n}\n' >"$repo/bench/it's.cpp"  # between b.cpp and c.cpp
{
  echo '['
  sep=''
  for f in common/a.cpp bench/b.cpp "bench/it's.cpp" summary/c.cpp tests/t.cpp; do
    printf '%s{ "directory": "%s", "arguments": ["c++", "-std=c++17", "-c", "%s"], "file": "%s" }\n' \
      "$sep" "$repo" "$repo/$f" "$repo/$f"
    sep=','
  done
  echo ']'
} >"$repo/build/compile_commands.json"

lint() { (cd "$repo" && "$@" scripts/lint.sh >"$work/out" 2>&1); }

lint env
rc=$?
[ $rc -eq 0 ] || { fail "a clean tree: exit $rc, not 0"; cat "$work/out"; }
grep -q "clang-tidy clean on 5 files" "$work/out" ||
  { fail "a clean tree: not the five compiled files"; cat "$work/out"; }
(cd "$work" && BUILD_DIR=repo/build repo/scripts/lint.sh >"$work/out" 2>&1)
rc=$?
[ $rc -eq 0 ] || { fail "a relative BUILD_DIR: exit $rc, not 0"; cat "$work/out"; }

cp "$repo/tests/t.cpp" "$work/t.cpp"
echo 'int  badly (){return 2;}' >>"$repo/tests/t.cpp"
lint env
rc=$?
[ $rc -eq 1 ] || fail "a misformatted file: exit $rc, not 1"
grep -q "^  tests/t.cpp$" "$work/out" || { fail "the misformatted file is not named"; cat "$work/out"; }
cp "$work/t.cpp" "$repo/tests/t.cpp"

cp "$repo/summary/c.cpp" "$work/c.cpp"
sed -i 's/return t.size();/return s.size() + t.size();/' "$repo/summary/c.cpp"
lint env
rc=$?
[ $rc -eq 1 ] || fail "a use after move: exit $rc, not 1"
grep -q "summary/c.cpp:7:.*bugprone-use-after-move" "$work/out" ||
  { fail "the finding's check and file are not printed"; cat "$work/out"; }
grep -q "unbuilt.cpp" "$work/out" && fail "a file the build does not compile was checked"
cp "$work/c.cpp" "$repo/summary/c.cpp"

cat >"$work/crashing-tidy" <<'EOF'
#!/bin/sh
case "$*" in *c.cpp*) kill -SEGV $$ ;; esac
exec clang-tidy "$@"
EOF
chmod +x "$work/crashing-tidy"
lint env CLANG_TIDY="$work/crashing-tidy"
rc=$?
[ $rc -eq 1 ] || fail "a clang-tidy crash: exit $rc, not 1"
grep -q "crashing-tidy exited 139 on summary/c.cpp" "$work/out" ||
  { fail "a clang-tidy crash: the file is not named"; cat "$work/out"; }

lint env CLANG_TIDY=no-such-clang-tidy
rc=$?
[ $rc -eq 2 ] || fail "CLANG_TIDY missing: exit $rc, not 2"
grep -q "no-such-clang-tidy (from CLANG_FORMAT or CLANG_TIDY) is not on PATH" "$work/out" ||
  { fail "CLANG_TIDY missing: no message"; cat "$work/out"; }
grep -q "installing" "$work/out" && fail "CLANG_TIDY missing: tried to install"

(cd "$repo" && scripts/lint.sh --fix >"$work/out" 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "an argument: exit $rc, not 2"
grep -q "^usage: scripts/lint.sh" "$work/out" || fail "an argument: no usage"

mv "$repo/build/compile_commands.json" "$work/"
lint env
rc=$?
[ $rc -eq 3 ] || fail "no compile commands: exit $rc, not 3"
grep -q "compile_commands.json is missing" "$work/out" || { fail "no compile commands: no message"; cat "$work/out"; }

if [ "$failures" -gt 0 ]; then
  echo "test_lint_sh: $failures failure(s)"
  exit 1
fi
echo "test_lint_sh: all checks passed"
