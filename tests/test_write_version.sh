#!/usr/bin/env bash
# cmake/write_version.cmake on a made-up git repository: the header names the current commit, a
# later commit is seen without a new configure, a changed tree reads "-dirty", an unchanged tree
# leaves the header untouched (nothing recompiles), and a copy without .git has the bare version.
# The source fingerprint beside it is scripts/source_hash.sh's, for a tree and for a commit.
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
same() {  # same NAME GOT WANTED
  if [ -n "$2" ] && [ "$2" = "$3" ]; then
    echo "ok: $1"
  else
    echo "FAILED: $1: '$2', expected '$3'"
    failures=$((failures + 1))
  fi
}
expect() {  # expect NAME WANTED_VERSION
  same "$1" "$(sed -n 's/^#define SYNC_BENCH_VERSION "\(.*\)"$/\1/p' "$header")" "$2"
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

# The source fingerprint (SYNC_BENCH_SOURCE): what scripts/source_hash.sh prints for the same tree
# or commit; it follows the files sync_bench is built from and no others, with or without .git.
source_stamp() { sed -n 's/^#define SYNC_BENCH_SOURCE "\(.*\)"$/\1/p' "$header"; }
hash_of() { SOURCE_ROOT="$1" "$src/scripts/source_hash.sh" "${@:2}"; }
differ() {  # differ NAME A B
  if [ -n "$2" ] && [ -n "$3" ] && [ "$2" != "$3" ]; then
    echo "ok: $1"
  else
    echo "FAILED: $1: '$2' and '$3' should differ"
    failures=$((failures + 1))
  fi
}
built="$work/built"
mkdir -p "$built"/{cmake,common/sub,bench,docs}
echo 'project(x)' >"$built/CMakeLists.txt"
echo 'set(a 1)' >"$built/cmake/a.cmake"
echo 'int a;' >"$built/common/a.cpp"
echo 'int b;' >"$built/common/sub/B.hpp"
echo 'int z;' >"$built/common/Z.cpp"  # before a.cpp in byte order, after it in most locales
echo 'int main() {}' >"$built/bench/main.cpp"
echo 'words' >"$built/docs/notes.md"
# Skipped on both sides: a dot-file (an editor's swap file), a link, and a dangling link (an editor's
# lock file), which would otherwise fail the build.
echo 'swap' >"$built/common/.a.cpp.swp"
ln -s a.cpp "$built/common/link.cpp"
ln -s nowhere "$built/common/.#a.cpp"
cp -r "$built" "$work/built_copy"  # the same files, never a git checkout
git -C "$built" init -q
git -C "$built" -c user.name=t -c user.email=t@t add -A
git -C "$built" -c user.name=t -c user.email=t@t commit -q -m first
stamp "$built"
first="$(source_stamp)"
same source_is_the_tree_hash "$first" "$(hash_of "$built")"
same source_is_the_commit_hash "$first" "$(hash_of "$built" HEAD)"
same source_has_16_digits "${#first}" 16
echo 'more words' >>"$built/docs/notes.md"
stamp "$built"
same other_files_leave_the_source "$(source_stamp)" "$first"
echo 'int c;' >>"$built/common/sub/B.hpp"
stamp "$built"
differ a_built_file_changes_the_source "$(source_stamp)" "$first"
same changed_source_is_the_tree_hash "$(source_stamp)" "$(hash_of "$built")"
same the_commit_keeps_its_hash "$(hash_of "$built" HEAD)" "$first"
stamp "$work/built_copy"
same a_copy_without_git_names_its_source "$(source_stamp)" "$first"
stamp "$src"
same this_repository "$(source_stamp)" "$(hash_of "$src")"
stamp "$built"
before="$(source_stamp)"
echo 'other swap' >"$built/common/.a.cpp.swp"
stamp "$built"
same dot_files_leave_the_source "$(source_stamp)" "$before"
same dot_files_leave_the_tree_hash "$(hash_of "$built")" "$before"
plain_hash="$(hash_of "$work/plain" 2>/dev/null)"
same a_tree_without_cmakelists_exits_2 "$?" 2
same a_tree_without_cmakelists_prints_nothing "${plain_hash:-nothing}" nothing
hash_of "$built" no-such-rev >/dev/null 2>&1
same a_bad_rev_exits_2 "$?" 2
# A commit without CMakeLists.txt is refused as a tree without it is.
mkdir -p "$work/docs_only"
echo 'words' >"$work/docs_only/notes.md"
git -C "$work/docs_only" init -q
git -C "$work/docs_only" -c user.name=t -c user.email=t@t add -A
git -C "$work/docs_only" -c user.name=t -c user.email=t@t commit -q -m docs
docs_hash="$(hash_of "$work/docs_only" HEAD 2>/dev/null)"
same a_commit_without_cmakelists_exits_2 "$?" 2
same a_commit_without_cmakelists_prints_nothing "${docs_hash:-nothing}" nothing

# The tree fingerprint (--tree): the same digest over the tests, scripts and summarizer too, so a
# test changes it and leaves the source; a tree's and its commit's agree; docs leave both.
git -C "$built" -c user.name=t -c user.email=t@t commit -q -a -m second
tree_first="$(hash_of "$built" --tree HEAD)"
same tree_hash_of_the_commit_is_the_trees "$(hash_of "$built" --tree)" "$tree_first"
same tree_hash_has_16_digits "${#tree_first}" 16
mkdir -p "$built"/{tests,scripts,summary}
echo 'TEST(a, b) {}' >"$built/tests/test_a.cpp"
source_before="$(hash_of "$built")"
tree_before="$(hash_of "$built" --tree)"
differ a_test_changes_the_tree_hash "$tree_before" "$tree_first"
echo 'echo hi' >"$built/scripts/run.sh"
differ a_script_changes_the_tree_hash "$(hash_of "$built" --tree)" "$tree_before"
tree_before="$(hash_of "$built" --tree)"
echo 'int main() {}' >"$built/summary/main.cpp"
differ the_summarizer_changes_the_tree_hash "$(hash_of "$built" --tree)" "$tree_before"
same tests_and_scripts_leave_the_source "$(hash_of "$built")" "$source_before"
tree_before="$(hash_of "$built" --tree)"
echo 'even more words' >>"$built/docs/notes.md"
same docs_leave_the_tree_hash "$(hash_of "$built" --tree)" "$tree_before"
differ the_tree_hash_is_not_the_source "$(hash_of "$built" --tree)" "$(hash_of "$built")"
same the_flag_after_the_rev "$(hash_of "$built" HEAD --tree)" "$tree_first"
same the_flag_twice_is_the_flag "$(hash_of "$built" --tree --tree HEAD)" "$tree_first"
hash_of "$built" --trees >/dev/null 2>&1
same an_unknown_option_exits_2 "$?" 2

[ $failures -eq 0 ] || exit 1
