#!/usr/bin/env bash
# Prints the source fingerprint that cmake/write_version.cmake stamps into every build
# (`sync_bench_source` in a run's JSON context): the first 16 hex digits of a SHA-256 over the files
# sync_bench is built from (CMakeLists.txt, cmake/, common/, bench/). The GPU machine's copy of the
# tree has no .git, so its runs name no commit; this matches them with one.
#
#   scripts/source_hash.sh          the working tree
#   scripts/source_hash.sh REV      the files of commit REV (git archive)
#   --tree                          the tree fingerprint instead: the same digest over everything
#                                   scripts/test.sh builds and runs (summary/, tests/ and scripts/
#                                   too), so that runs of one source with other tests differ in it
#
# Both skip symbolic links and dot-files, as write_version.cmake does. SOURCE_ROOT: the tree to read
# (default: this script's repository). Exit status: 0; 1 a file could not be read (nothing is
# printed); 2 a bad argument, a tree or commit without CMakeLists.txt, or REV not a commit of a git
# checkout.
set -euo pipefail
usage() { sed -n '2,${/^#/!q;s/^# \{0,1\}//p}' "$0"; }  # the header comment
bad() {
  echo "source_hash.sh: $*" >&2
  exit 2
}
paths=(CMakeLists.txt cmake common bench)
tree_paths=()
args=()
for a in "$@"; do
  case "$a" in
    -h | --help) usage; exit 0 ;;
    --tree) tree_paths=(summary tests scripts) ;;
    -*) bad "unknown option '$a'" ;;
    *) args+=("$a") ;;
  esac
done
paths+=(${tree_paths[@]+"${tree_paths[@]}"})
set -- ${args[@]+"${args[@]}"}
[ $# -le 1 ] || bad "one REV at most"
root="${SOURCE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
[ -d "$root" ] || bad "no such folder: $root"

digest() {  # digest DIR: the "SHA256  PATH" lines of write_version.cmake, in byte order, hashed
  local listing
  # A file that cannot be read fails the listing, and then no digest is printed.
  listing="$(cd "$1" && for p in "${paths[@]}"; do
    if [ -e "$p" ]; then find "$p" -name '.*' -prune -o -type f -print; fi
  done | LC_ALL=C sort | xargs -r -d '\n' sha256sum)" || {
    echo "source_hash.sh: could not read every file under $1" >&2
    exit 1
  }
  if [ -n "$listing" ]; then printf '%s\n' "$listing"; fi | sha256sum | cut -c1-16
}

tree="$root"
what="$root"
if [ $# -eq 1 ]; then
  rev="$1"
  git -C "$root" rev-parse --verify --quiet "$rev^{commit}" >/dev/null ||
    bad "'$rev' is not a commit of $root"
  tree="$(mktemp -d)"
  what="commit $rev"
  trap 'rm -rf "$tree"' EXIT
  present=()
  for p in "${paths[@]}"; do
    [ -n "$(git -C "$root" ls-tree --name-only "$rev" -- "$p")" ] && present+=("$p")
  done
  [ ${#present[@]} -eq 0 ] || git -C "$root" archive "$rev" -- "${present[@]}" | tar -x -C "$tree"
fi
# A commit is held to what a tree is: without CMakeLists.txt it is no sync_bench source.
[ -f "$tree/CMakeLists.txt" ] || bad "$what has no CMakeLists.txt: not a sync_bench tree"
digest "$tree"
