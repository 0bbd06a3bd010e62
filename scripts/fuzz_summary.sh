#!/usr/bin/env bash
# Fuzzes sync_summary's parser and everything after it (summary/fuzz_summary.cpp) with libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer, for SECONDS seconds (default 180).
#
#   scripts/fuzz_summary.sh [SECONDS]
#
# Builds with clang++ (CXX_FUZZ overrides; default clang++-14, else clang++) into build-fuzz/,
# seeds fuzz-corpus/ from the JSON fixtures in tests/data/ (both folders are git-ignored), and runs
# on all cores. A crashing input is copied to tests/data/fuzz/ (replayed by the FuzzRegressions
# tests): fix the bug, keep the file, commit both. Exit status: 0 no crash, 1 crash found.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-180}"
cxx="${CXX_FUZZ:-$(command -v clang++-14 || command -v clang++)}"
out=build-fuzz
mkdir -p "$out/obj" "$out/artifacts" fuzz-corpus tests/data/fuzz

# shellcheck disable=SC2054  # the commas are part of -fsanitize=
flags=(-std=c++17 -g -O1 -fsanitize=fuzzer-no-link,address,undefined
       -fno-sanitize-recover=undefined -fno-omit-frame-pointer -Isummary)

# compile SOURCE: its object in build-fuzz/obj/, rebuilt when the source or a header is newer.
compile() {
  local src="$1" obj
  obj="$out/obj/$(basename "$src" .cpp).o"
  if [ "$obj" -nt "$src" ] && [ -z "$(find summary -name '*.hpp' -newer "$obj")" ]; then
    return 0
  fi
  "$cxx" "${flags[@]}" -c "$src" -o "$obj"
}

# The library's sources and the fuzz target; not main.cpp or the micro-benchmark. In parallel.
pids=()
objs=()
for f in summary/*.cpp; do
  case "$f" in summary/main.cpp | summary/bench_summary.cpp) continue ;; esac
  objs+=("$out/obj/$(basename "$f" .cpp).o")
  compile "$f" &
  pids+=($!)
  if [ "${#pids[@]}" -ge "$(nproc)" ]; then
    wait "${pids[0]}"
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p"; done
"$cxx" -fsanitize=fuzzer,address,undefined "${objs[@]}" -o "$out/fuzz_summary"

# Seeds: the fixtures small enough to mutate quickly, and the inputs kept from earlier crashes.
find tests/data -maxdepth 2 -name '*.json' -size -64k -exec cp {} fuzz-corpus/ \;

# -timeout=5: an input that takes longer is a hang (kept as timeout-*); every fixture takes
# milliseconds.
status=0
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  "$out/fuzz_summary" -max_total_time="$seconds" -max_len=65536 -timeout=5 -rss_limit_mb=4096 \
  -dict=summary/fuzz_summary.dict -artifact_prefix="$out/artifacts/" -print_final_stats=1 \
  fuzz-corpus/ || status=$?

found=0
for a in "$out"/artifacts/crash-* "$out"/artifacts/oom-* "$out"/artifacts/timeout-*; do
  [ -e "$a" ] || continue
  cp "$a" "tests/data/fuzz/$(basename "$a").json"
  echo "fuzz_summary.sh: kept $(basename "$a") as tests/data/fuzz/$(basename "$a").json"
  found=1
done
if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
  echo "fuzz_summary.sh: libFuzzer found a failing input (exit $status)" >&2
  exit 1
fi
echo "fuzz_summary.sh: no crash in ${seconds}s"
