#!/usr/bin/env bash
# Builds sync_bench, runs the default sweep and prints the summary tables. The JSON goes to
# results/<gpu>-<date>.json (or $OUT_JSON). Extra arguments go to sync_bench.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
stamp="$(date +%Y%m%d-%H%M%S)"
gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr -c 'A-Za-z0-9\n' '_' || true)"
OUT_JSON="${OUT_JSON:-$ROOT/results/${gpu:-gpu}-$stamp.json}"
mkdir -p "$(dirname "$OUT_JSON")"
"$BUILD_DIR/bench/sync_bench" --benchmark_out="$OUT_JSON" --benchmark_out_format=json "$@"
echo "sync_bench: wrote $OUT_JSON"
if [ -x "$BUILD_DIR/summary/sync_summary" ]; then
  "$BUILD_DIR/summary/sync_summary" report "$OUT_JSON"
fi
