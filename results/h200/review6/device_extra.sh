#!/usr/bin/env bash
# Extra checks after acceptance_call.sh's test + sweep, on the fresh copy it built.
out="$1"
tree="$(ls -d /tmp/acceptance/tree* | tail -1)"
sb="$tree/build/bench/sync_bench"; ss="$tree/build/summary/sync_summary"
{
  echo "tree: $tree"
  nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
  d=$(mktemp -d); mkdir -p "$d/map.md"
  for arg in "--benchmark_out=$d" "--anatomy_timeline=$d" "--sync_map=$d/map"; do
    "$sb" "$arg" >"$d/o.txt" 2>&1; rc=$?
    echo "refusal [$arg]: exit $rc: $(head -1 "$d/o.txt")"
  done
  "$sb" --benchmark_filter='^NullKernel/(Async|DeviceSync)/' --anatomy_timeline="$d/t.json" \
    --benchmark_out="$d/t_run.json" >"$d/t.txt" 2>&1
  echo "timeline run: exit $? timeline bytes $(stat -c %s "$d/t.json" 2>/dev/null)"
  "$ss" timeline --output="$d/t.svg" "$d/t.json" >/dev/null 2>&1; echo "timeline svg: exit $? $(stat -c %s "$d/t.svg" 2>/dev/null) bytes"
  sweep=/tmp/acceptance/logs/sweep.json
  echo "sweep json: $sweep"
  [ -n "$sweep" ] && cp "$sweep" "$out/sweep.json"
  "$ss" report "$sweep" --svg="$d/charts" >/dev/null 2>"$d/svg.txt"; echo "svg: exit $? $(cat "$d/svg.txt")"
} >"$out/extra.txt" 2>&1
