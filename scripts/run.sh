#!/usr/bin/env bash
# Builds sync_bench, runs the default sweep and prints the summary tables. The JSON goes to
# results/<gpu>-<date>.json (or $OUT_JSON, a file; an older one there is replaced only when the
# run writes). Extra arguments go to sync_bench, except --benchmark_out and a format other than
# json (refused, exit 2: set OUT_JSON); with a flag that only lists, explains or maps
# (--benchmark_list_tests, --help or -h, --sync_map), sync_bench runs alone and no JSON is
# written.
#
# Exit status: sync_bench's (0 all measured, 1 some benchmark failed: the JSON keeps the rest and
# the report is printed, 2 bad input or no GPU), or the report's when that fails; set-up's 2 (no
# nvcc, apt-get or new enough cmake, or a failed install) and 3 (the configure or build failed)
# before any of it.
#
# A run cut short (sync_bench killed: 128+signal, e.g. 137, or 124 from a timeout wrapper; or
# run.sh itself interrupted or terminated, as `timeout` and Ctrl-C do) leaves the JSON Google
# Benchmark was writing cut off after its last complete benchmark. run.sh then moves the raw file
# to $OUT_JSON.partial, has `sync_summary salvage` write the complete benchmarks to $OUT_JSON,
# prints the report on them and exits with sync_bench's status (never 0). Where nothing can be
# salvaged (no sync_summary, no complete benchmark), the raw file stays in $OUT_JSON.partial and
# nothing measured is removed.
# shellcheck source=SCRIPTDIR/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
set +e
# An ASan+UBSan build (a cache from test.sh --sanitize, or CMAKE_ARGS) would time the sanitizers.
# SYNC_BENCH_ALLOW_SANITIZE=1 lets it run all the same (tests of run.sh's behaviour in that build).
if [ "${SYNC_BENCH_ALLOW_SANITIZE:-0}" != 1 ] &&
  grep -Eqi '^SYNC_BENCH_SANITIZE:[A-Z]*=(ON|YES|TRUE|Y|[1-9][0-9]*)$' \
    "$BUILD_DIR/CMakeCache.txt" 2>/dev/null; then
  echo "run.sh: $BUILD_DIR is a sanitizer build (SYNC_BENCH_SANITIZE=ON): its times would be" \
    "ASan's. Use another BUILD_DIR, or CMAKE_ARGS=-DSYNC_BENCH_SANITIZE=OFF" >&2
  exit 2
fi
# truthy VALUE: Google Benchmark's reading of a boolean flag's value, as sync_bench's cli.cpp
# mirrors it: none is true; one character is false when 0, f, F, n, N or not a letter or digit; a
# word is false when it is false, no or off in any case.
truthy() {
  local LC_ALL=C  # one byte a character, as Google Benchmark counts them
  case "$1" in
    "") return 0 ;;
    ?) [[ "$1" == [[:alnum:]] && "$1" != [0fFnN] ]] ;;
    *) case "${1,,}" in false | no | off) return 1 ;; *) return 0 ;; esac ;;
  esac
}
# Flags that only list, explain or map (the last --benchmark_list_tests counts, as in Google
# Benchmark, which takes its default from BENCHMARK_LIST_TESTS): sync_bench runs alone and no JSON
# is written. run.sh owns the JSON's path and format (argv's override BENCHMARK_OUT and
# BENCHMARK_OUT_FORMAT).
list=0 explain=0
if [ -n "${BENCHMARK_LIST_TESTS+set}" ] && truthy "$BENCHMARK_LIST_TESTS"; then list=1; fi
for arg in "$@"; do
  case "$arg" in
    --benchmark_list_tests) list=1 ;;
    --benchmark_list_tests=*) if truthy "${arg#*=}"; then list=1; else list=0; fi ;;
    --help | -h | --sync_map | --sync_map=*) explain=1 ;;
    --benchmark_out=* | --benchmark_out_format=*)
      [ "$arg" = --benchmark_out_format=json ] && continue
      echo "run.sh: $arg: run.sh writes the JSON the report reads; set OUT_JSON=FILE instead" >&2
      exit 2
      ;;
  esac
done
if [ $list -eq 1 ] || [ $explain -eq 1 ]; then
  args=()
  for arg in "$@"; do [ "$arg" = -h ] && arg=--help; args+=("$arg"); done
  exec "$BUILD_DIR/bench/sync_bench" "${args[@]}"
fi
stamp="$(date +%Y%m%d-%H%M%S)"
gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr -c 'A-Za-z0-9\n' '_' || true)"
OUT_JSON="${OUT_JSON:-$ROOT/results/${gpu:-gpu}-$stamp.json}"
if [ -e "$OUT_JSON" ] && [ ! -f "$OUT_JSON" ]; then
  echo "run.sh: OUT_JSON=$OUT_JSON exists and is not a file; name a file to write" >&2
  exit 2
fi
mkdir -p "$(dirname "$OUT_JSON")"
summary="$BUILD_DIR/summary/sync_summary"
# What sits at OUT_JSON before the run (a file of an earlier run, or nothing): run.sh salvages or
# reports OUT_JSON only where this run wrote it, never an older file that sync_bench refused to
# touch.
# (-L: through a link, the file written; a dangling link has none, as no file.)
signature() { stat -L -c '%d:%i:%s:%y' -- "$OUT_JSON" 2>/dev/null; }
before="$(signature)"

# Ctrl-C or a `timeout` on run.sh signals sync_bench and run.sh alike: run.sh notes it and stays
# to keep what was measured (bash runs the trap once sync_bench has ended).
interrupted=0
trap 'interrupted=130' INT
trap 'interrupted=143' TERM
"$BUILD_DIR/bench/sync_bench" --benchmark_out="$OUT_JSON" --benchmark_out_format=json "$@"
status=$?
# Killed (128+signal) or timed out: the JSON may be cut off even where sync_bench's own status
# would say "bad input" (>= 2).
killed=0
{ [ $status -gt 128 ] || [ $status -eq 124 ]; } && killed=1
written=0
[ -f "$OUT_JSON" ] && [ "$(signature)" != "$before" ] && written=1
if [ $status -eq 0 ] && [ $interrupted -ne 0 ]; then
  echo "run.sh: interrupted (exit $interrupted); sync_bench had finished: $OUT_JSON is complete" >&2
  exit $interrupted
fi

# describe: what ended the run, in words.
describe() {
  if [ $status -gt 128 ] && [ $status -lt 160 ]; then
    local sig
    sig="$(kill -l $((status - 128)) 2>/dev/null)"
    echo "sync_bench was killed by SIG${sig:-$((status - 128))} (exit $status)"
  elif [ $status -eq 124 ]; then
    echo "sync_bench timed out (exit 124)"
  else
    echo "sync_bench exited $status"
  fi
}

# salvage_partial: where the run failed and its JSON is not a complete run, keep the raw file as
# $OUT_JSON.partial and the complete benchmarks in $OUT_JSON; print the report and exit. Returns
# where the JSON is complete (or, for an ordinary failure, cannot be told: no salvage to ask).
salvage_partial() {
  local partial="$OUT_JSON.partial" err rc=0
  if [ ! -x "$summary" ] && [ $killed -eq 0 ]; then
    return 0
  fi
  if ! mv -f "$OUT_JSON" "$partial"; then
    echo "run.sh: $(describe); could not move its JSON to $partial to salvage it: left in" \
      "$OUT_JSON, which may be cut off" >&2
    exit $status
  fi
  if [ ! -x "$summary" ]; then
    echo "run.sh: $(describe) before the run ended; no sync_summary at $summary to salvage" \
      "the complete benchmarks: the raw, cut-off JSON is kept in $partial" >&2
    exit $status
  fi
  err="$("$summary" salvage "$partial" --output="$OUT_JSON" 2>&1 >/dev/null)" || rc=$?
  # Exit 3: salvage's status for a complete run, nothing to mend (its message is not read).
  if [ $rc -eq 3 ]; then
    mv -f "$partial" "$OUT_JSON" && return 0
    echo "run.sh: $(describe); its complete JSON is in $partial (could not move it back)" >&2
    exit $status
  fi
  if [ $rc -eq 0 ] && [ -s "$OUT_JSON" ]; then
    [ -n "$err" ] && printf '%s\n' "$err" >&2
    echo "run.sh: $(describe) before the run ended. $OUT_JSON now holds only the benchmarks" \
      "that completed (salvaged, see above); the raw, cut-off JSON is kept in $partial." >&2
    echo "sync_bench: wrote $OUT_JSON (salvaged, incomplete)"
    "$summary" report "$OUT_JSON" ||
      echo "run.sh: the report on the salvaged $OUT_JSON failed (exit $?)" >&2
    exit $status
  fi
  rm -f "$OUT_JSON"  # whatever a failed salvage left; what was measured is in $partial
  printf '%s\n' "$err" >&2
  echo "run.sh: $(describe) and its JSON is not a complete run; sync_summary salvage could not" \
    "keep any of it (exit $rc, above): the raw JSON is kept in $partial (nothing removed)" >&2
  exit $status
}
if [ $status -ne 0 ] && [ $written -eq 1 ] && [ -s "$OUT_JSON" ]; then
  salvage_partial
fi

# A run killed once its JSON was complete (salvage said so) still gets its report.
if [ $written -eq 0 ] || [ ! -s "$OUT_JSON" ] || { [ $status -ge 2 ] && [ $killed -eq 0 ]; }; then
  # Nothing was measured: leave no empty file behind to be mistaken for a run.
  [ $written -eq 1 ] && [ ! -s "$OUT_JSON" ] && rm -f "$OUT_JSON"
  [ $status -eq 0 ] && echo "run.sh: sync_bench exited 0 but wrote no JSON to $OUT_JSON" >&2
  exit $((status ? status : 2))
fi
echo "sync_bench: wrote $OUT_JSON"
if [ -x "$summary" ]; then
  "$summary" report "$OUT_JSON" || exit $?
fi
exit $status
