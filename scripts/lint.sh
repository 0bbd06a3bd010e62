#!/usr/bin/env bash
# The checks of the code itself, with no GPU and no run: clang-format (every C++ and CUDA source in
# common/, bench/, summary/ and tests/ obeys .clang-format) and clang-tidy (.clang-tidy's checks on
# the host .cpp files there that the build compiles, with its compile commands; nvcc's .cu files
# are not clang's to read, nor summary/fuzz_summary.cpp, which scripts/fuzz_summary.sh builds with
# clang). CI runs it first: it installs the tools test_lint_sh needs. results/ keeps its probes as
# they ran, so it is not checked.
#
# Installs clang-format and clang-tidy where missing (Debian packages, through scripts/setup.sh),
# then builds as test.sh does (nothing to do after a build). CLANG_FORMAT and CLANG_TIDY name other
# binaries; these are never installed.
#
# Exit status: 0 clean; 1 findings (each file's are printed, and a clang-tidy that failed on a file
# without a finding is named); 2 no arguments allowed, or a tool missing that cannot be installed,
# or set-up's 2; 3 the configure or build failed, or the build has no compile commands to read.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -eq 0 ] || { echo "usage: scripts/lint.sh (no arguments)" >&2; exit 2; }

format="${CLANG_FORMAT:-clang-format}"
tidy="${CLANG_TIDY:-clang-tidy}"
SETUP_PACKAGES=""
for tool in "$format" "$tidy"; do
  command -v "$tool" >/dev/null 2>&1 && continue
  case "$tool" in
    clang-format | clang-tidy) SETUP_PACKAGES+=" $tool" ;;
    *) echo "lint.sh: $tool (from CLANG_FORMAT or CLANG_TIDY) is not on PATH" >&2; exit 2 ;;
  esac
done

# shellcheck source=SCRIPTDIR/setup.sh
source "$ROOT/scripts/setup.sh"
set +e
BUILD_DIR="$(cd "$BUILD_DIR" && pwd)" || exit 3  # absolute: the checks below run from ROOT
db="$BUILD_DIR/compile_commands.json"
if [ ! -f "$db" ]; then
  echo "lint.sh: $db is missing (CMakeLists.txt asks CMake for it; a generator that cannot" \
    "write it was used for $BUILD_DIR)" >&2
  exit 3
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$ROOT" || exit 2
findings=0

mapfile -t sources < <(find common bench summary tests -type f \
  \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' \) | sort)
if ! "$format" --dry-run -Werror "${sources[@]}" >"$work/format.txt" 2>&1; then
  echo "lint.sh: not formatted as .clang-format asks ($("$format" --version | head -1));" \
    "\`$format -i FILE\` mends it:"
  sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/  \1/p' "$work/format.txt" | sort -u |
    grep . || cat "$work/format.txt"
  findings=1
fi

# The host .cpp files the build compiles (data_parallel_nccl.cpp only where NCCL was found; not the
# tests where SYNC_BENCH_BUILD_TESTS is off), one clang-tidy each, nproc at a time. Each writes its
# own file (named by its line number in the list), so a file's findings are printed together.
host_sources=()
while IFS= read -r file; do
  file="${file#\"file\": \"}"
  file="${file%\"}"
  case "${file#"$ROOT"/}" in
    common/*.cpp | bench/*.cpp | summary/*.cpp | tests/*.cpp) host_sources+=("${file#"$ROOT"/}") ;;
  esac
done < <(grep -o '"file": "[^"]*"' "$db" | sort -u)
if [ ${#host_sources[@]} -eq 0 ]; then
  echo "lint.sh: $db lists no .cpp file of common/, bench/, summary/ or tests/" >&2
  exit 3
fi
export tidy work BUILD_DIR
# shellcheck disable=SC2016  # the sh -c script expands them itself
if ! printf '%s\n' "${host_sources[@]}" | nl -b a -w 1 -s ' ' |
  xargs -d '\n' -P "$(nproc)" -n 1 sh -c \
    'file="${1#* }" out="$work/tidy.${1%% *}"
     "$tidy" -p "$BUILD_DIR" --quiet "$file" >"$out" 2>&1
     rc=$?
     [ $rc -eq 0 ] && exit 0
     echo "lint.sh: $tidy exited $rc on $file" >>"$out"
     mv "$out" "$out.failed"' sh; then
  echo "lint.sh: clang-tidy did not run on every file (xargs failed)"
  findings=1
fi
for failed in "$work"/tidy.*.failed; do
  [ -e "$failed" ] || continue
  grep -v -E '^[0-9]+ (warning|error)s? generated\.$' "$failed"
  findings=1
done
if [ "$findings" -eq 0 ]; then
  echo "lint.sh: ${#sources[@]} sources formatted; clang-tidy clean on ${#host_sources[@]} files"
fi
exit "$findings"
