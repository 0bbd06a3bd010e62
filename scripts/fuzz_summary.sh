#!/usr/bin/env bash
# Fuzzes sync_summary's parser and everything after it (summary/fuzz_summary.cpp) with libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer, for SECONDS seconds (default 180).
#
#   scripts/fuzz_summary.sh [SECONDS]
#
# Builds with clang++ (CXX_FUZZ overrides; default clang++-14, else clang++): libFuzzer is clang's,
# GCC has none. Objects go to build-fuzz/obj/, rebuilt when their source or a summary/ header is
# newer, and all of them when the compiler or the flags changed (build-fuzz/obj/build-stamp).
# Seeds fuzz-corpus/ from the JSON fixtures in tests/data/ (both folders are git-ignored; the
# corpus grows from run to run on purpose) and runs on all cores. Each run keeps its findings in a
# folder of its own, build-fuzz/artifacts/run-<date>-<pid>/, so that an earlier run's are never
# reported again. A failing input (crash, leak, out of memory, timeout) is copied to
# tests/data/fuzz/ (replayed by the FuzzRegressions tests): fix the bug, keep the file, commit both.
#
# Exit status: 0 no failing input, 1 failing input found, 2 bad arguments, 3 no clang++ with
# libFuzzer (CXX_FUZZ or clang++-14/clang++ on PATH), 4 the build failed.
set -euo pipefail
usage() { sed -n '2,${/^#/!q;s/^# \{0,1\}//p}' "$0"; }  # the header comment
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
if [ $# -gt 1 ]; then
  echo "fuzz_summary.sh: one argument at most (SECONDS), got $#: $*" >&2
  usage >&2
  exit 2
fi
seconds="${1-180}"
case "$seconds" in
  '' | *[!0-9]* | 0 | 0*)
    echo "fuzz_summary.sh: SECONDS must be a whole number of seconds from 1, got '$seconds'" >&2
    usage >&2
    exit 2
    ;;
esac
cd "$(dirname "$0")/.."

cxx="${CXX_FUZZ:-}"
if [ -z "$cxx" ]; then
  cxx="$(command -v clang++-14 || command -v clang++ || true)"
fi
if [ -z "$cxx" ]; then
  echo "fuzz_summary.sh: libFuzzer needs clang: no clang++-14 or clang++ on PATH (install clang," \
    "or set CXX_FUZZ to a clang++)" >&2
  exit 3
fi
out=build-fuzz
mkdir -p "$out/obj" "$out/artifacts" fuzz-corpus tests/data/fuzz

# Can it build a libFuzzer program at all (GCC cannot; a clang without compiler-rt neither)?
probe_log="$out/probe.log"
if ! printf '%s\n' 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) {' \
  '  return 0;' '}' >"$out/probe.cpp" ||
  ! "$cxx" -fsanitize=fuzzer "$out/probe.cpp" -o "$out/probe" >"$probe_log" 2>&1; then
  echo "fuzz_summary.sh: libFuzzer needs clang: $cxx cannot build with -fsanitize=fuzzer" \
    "(see $probe_log; set CXX_FUZZ to a clang++ with libFuzzer)" >&2
  sed 's/^/  /' "$probe_log" | head -5 >&2
  exit 3
fi

# shellcheck disable=SC2054  # the commas are part of -fsanitize=
flags=(-std=c++17 -g -O1 -fsanitize=fuzzer-no-link,address,undefined
       -fno-sanitize-recover=undefined -fno-omit-frame-pointer -Isummary)

# Objects made by another compiler or with other flags are stale whatever their dates: start over.
stamp="$cxx | $({ "$cxx" --version 2>&1 || true; } | sed -n 1p) | ${flags[*]}"
if [ "$(cat "$out/obj/build-stamp" 2>/dev/null)" != "$stamp" ]; then
  rm -f "$out"/obj/*.o "$out/obj/build-stamp"
fi

# compile SOURCE: its object in build-fuzz/obj/, rebuilt when the source or a header is newer.
# A failed compile leaves no object behind to be taken for a fresh one.
compile() {
  local src="$1" obj
  obj="$out/obj/$(basename "$src" .cpp).o"
  if [ "$obj" -nt "$src" ] && [ -z "$(find summary -name '*.hpp' -newer "$obj")" ]; then
    return 0
  fi
  rm -f "$obj"
  if ! "$cxx" "${flags[@]}" -c "$src" -o "$obj.tmp"; then
    rm -f "$obj.tmp"
    return 1
  fi
  mv -f "$obj.tmp" "$obj"
}

# The library's sources and the fuzz target; not main.cpp or the micro-benchmark. In parallel.
pids=()
objs=()
build_failed=0
for f in summary/*.cpp; do
  case "$f" in summary/main.cpp | summary/bench_summary.cpp) continue ;; esac
  objs+=("$out/obj/$(basename "$f" .cpp).o")
  compile "$f" &
  pids+=($!)
  if [ "${#pids[@]}" -ge "$(nproc)" ]; then
    wait "${pids[0]}" || build_failed=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || build_failed=1; done
if [ $build_failed -eq 0 ]; then
  printf '%s\n' "$stamp" >"$out/obj/build-stamp"
  rm -f "$out/fuzz_summary"
  "$cxx" -fsanitize=fuzzer,address,undefined "${objs[@]}" -o "$out/fuzz_summary" || build_failed=1
fi
if [ $build_failed -ne 0 ]; then
  echo "fuzz_summary.sh: the build with $cxx failed (above)" >&2
  exit 4
fi

# Seeds: the fixtures small enough to mutate quickly, and the inputs kept from earlier crashes.
find tests/data -maxdepth 2 -name '*.json' -size -64k -exec cp {} fuzz-corpus/ \;

# This run's findings alone.
artifacts="$out/artifacts/run-$(date +%Y%m%d-%H%M%S)-$$"
mkdir -p "$artifacts"

# -timeout=5: an input that takes longer is a hang (kept as timeout-*); every fixture takes
# milliseconds.
status=0
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  "$out/fuzz_summary" -max_total_time="$seconds" -max_len=65536 -timeout=5 -rss_limit_mb=4096 \
  -dict=summary/fuzz_summary.dict -artifact_prefix="$artifacts/" -print_final_stats=1 \
  fuzz-corpus/ || status=$?

found=0
for a in "$artifacts"/crash-* "$artifacts"/leak-* "$artifacts"/oom-* "$artifacts"/timeout-*; do
  [ -e "$a" ] || continue
  cp "$a" "tests/data/fuzz/$(basename "$a").json"
  echo "fuzz_summary.sh: kept $(basename "$a") as tests/data/fuzz/$(basename "$a").json"
  found=1
done
rmdir "$artifacts" 2>/dev/null || true  # only where it is empty
if [ "$found" -ne 0 ]; then
  echo "fuzz_summary.sh: libFuzzer found a failing input (exit $status)" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "fuzz_summary.sh: libFuzzer failed (exit $status) and kept no input (see its output above)" >&2
  exit 1
fi
echo "fuzz_summary.sh: no crash in ${seconds}s"
