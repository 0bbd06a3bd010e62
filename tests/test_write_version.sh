#!/usr/bin/env bash
# cmake/write_version.cmake on a made-up git repository: the header names the current commit, a
# later commit is seen without a new configure, a changed tree reads "-dirty", an unchanged tree
# leaves the header untouched (nothing recompiles), and a copy without .git has the bare version.
#
#   tests/test_write_version.sh SOURCE_DIR
set -uo pipefail
src="${1:?usage: test_write_version.sh SOURCE_DIR}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
header="$work/out/sync_bench_version.h"

stamp() {  # stamp SOURCE_DIR: runs the script as the build does
  cmake -DSOURCE_DIR="$1" -DPROJECT_VERSION=9.8.7 -DOUTPUT="$header" \
    -P "$src/cmake/write_version.cmake"
}
expect() {  # expect NAME WANTED_VERSION
  local got
  got="$(sed -n 's/^#define SYNC_BENCH_VERSION "\(.*\)"$/\1/p' "$header")"
  if [ "$got" = "$2" ]; then
    echo "ok: $1"
  else
    echo "FAILED: $1: version '$got', expected '$2'"
    failures=$((failures + 1))
  fi
}

repo="$work/repo"
mkdir -p "$repo"
git -C "$repo" init -q
git_commit() {
  git -C "$repo" -c user.name=t -c user.email=t@t add -A
  git -C "$repo" -c user.name=t -c user.email=t@t commit -q -m "$1"
}
echo one > "$repo/file"
git_commit first
stamp "$repo"
expect first_commit "9.8.7+$(git -C "$repo" rev-parse --short HEAD)"

echo two > "$repo/file"
git_commit second
stamp "$repo"
expect later_commit_without_configure "9.8.7+$(git -C "$repo" rev-parse --short HEAD)"

echo three > "$repo/file"
stamp "$repo"
expect changed_tree "9.8.7+$(git -C "$repo" rev-parse --short HEAD)-dirty"

touch -d '2000-01-01' "$header"
before="$(stat -c %Y "$header")"
stamp "$repo"
if [ "$(stat -c %Y "$header")" = "$before" ]; then
  echo "ok: unchanged_text_leaves_header_alone"
else
  echo "FAILED: unchanged_text_leaves_header_alone: the header was rewritten"
  failures=$((failures + 1))
fi

mkdir -p "$work/plain"
stamp "$work/plain"
expect copy_without_git 9.8.7

[ $failures -eq 0 ] || exit 1
