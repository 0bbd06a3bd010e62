#!/usr/bin/env bash
# Builds sync_bench, runs the default sweep and prints the summary tables. The JSON goes to
# results/<gpu>-<date>.json (or $OUT_JSON). Extra arguments go to sync_bench; with a flag that
# only lists or explains (--benchmark_list_tests, --help), sync_bench runs alone and no JSON is
# written.
#
# Exit status: sync_bench's (0 all measured, 1 some benchmark failed: the JSON keeps the rest and
# the report is printed, 2 bad input or no GPU), or the report's when that fails.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
set +e
for arg in "$@"; do
  case "$arg" in
    --benchmark_list_tests | --benchmark_list_tests=true | --benchmark_list_tests=1 | --help | -h)
      exec "$BUILD_DIR/bench/sync_bench" "$@"
      ;;
  esac
done
stamp="$(date +%Y%m%d-%H%M%S)"
gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr -c 'A-Za-z0-9\n' '_' || true)"
OUT_JSON="${OUT_JSON:-$ROOT/results/${gpu:-gpu}-$stamp.json}"
mkdir -p "$(dirname "$OUT_JSON")"
"$BUILD_DIR/bench/sync_bench" --benchmark_out="$OUT_JSON" --benchmark_out_format=json "$@"
status=$?
if [ $status -ge 2 ] || [ ! -s "$OUT_JSON" ]; then
  # Nothing was measured: leave no empty file behind to be mistaken for a run.
  [ -f "$OUT_JSON" ] && [ ! -s "$OUT_JSON" ] && rm -f "$OUT_JSON"
  exit $((status ? status : 2))
fi
echo "sync_bench: wrote $OUT_JSON"
if [ -x "$BUILD_DIR/summary/sync_summary" ]; then
  "$BUILD_DIR/summary/sync_summary" report "$OUT_JSON" || exit $?
fi
exit $status
