#!/usr/bin/env bash
# Does measuring longer make a process's overhead closer to the next process's? The host's speed
# drifts over seconds (probe/), and a benchmark measured for a fraction of a second sees one
# stretch of it. One device call: build sync_bench and sync_summary; the headline rows
# (NullKernel and SmallGemm fp16 n=512, Async and DeviceSync) in PAIRS pairs of processes, one with
# the default stopping rule and one with --benchmark_min_time=MIN_TIME (seconds of timed GPU time a
# benchmark), alternating which goes first; each arm merged, each process's numbers printed. Then
# mode_probe in 2 processes of 20 s, free and pinned in four alternating phases.
#   bash longer_call.sh OUT      (from the repository root, results/ moved aside; mode_probe.cu beside it)
set -uo pipefail
out="${1:?usage: longer_call.sh OUT}"
pairs="${PAIRS:-8}"
min_time="${MIN_TIME:-2}"
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
build=/tmp/longer_build
{ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release &&
  cmake --build "$build" -j "$(nproc)" --target sync_bench sync_summary; } >"$out/build.log" 2>&1 ||
  { tail -20 "$out/build.log"; exit 1; }
nvcc -O2 -arch=sm_90 -o /tmp/mode_probe mode_probe.cu || exit 1
bench="$build/bench/sync_bench"
summary="$build/summary/sync_summary"
{
  nvidia-smi -L
  filter='^(NullKernel/(Async|DeviceSync)|SmallGemm/(Async|DeviceSync)/fp16/cublas/n:512)/'
  mkdir -p /tmp/longer/default /tmp/longer/long
  for i in $(seq 1 "$pairs"); do
    if [ $((i % 2)) -eq 1 ]; then order=(default long); else order=(long default); fi
    for arm in "${order[@]}"; do
      flags=()
      [ "$arm" = long ] && flags=(--benchmark_min_time="$min_time")
      t0=$(date +%s)
      "$bench" --benchmark_filter="$filter" "${flags[@]}" --benchmark_out="/tmp/longer/$arm/run-$i.json" \
        --benchmark_out_format=json >"/tmp/longer/$arm/run-$i.log" 2>&1 || echo "$arm $i: exit $?"
      echo "$arm $i: $(($(date +%s) - t0)) s"
    done
  done
  for arm in default long; do
    "$summary" merge --output="$out/$arm.json" /tmp/longer/$arm/run-*.json
    echo "== $arm: process, NullKernel Async step, DeviceSync overhead, SmallGemm Async step, DeviceSync overhead (us)"
    for i in $(seq 1 "$pairs"); do
      printf '%s %s' "$arm" "$i"
      "$summary" report --format=csv --metric=overhead_us --filter=DeviceSync "/tmp/longer/$arm/run-$i.json" |
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                 { printf " %.3f %.3f", $c["baseline_us"], $c["overhead_us"] }'
      echo
    done
    "$summary" report --format=csv --metric=overhead_us --filter=DeviceSync "$out/$arm.json" |
      awk -F, -v arm="$arm" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { m = $c["median"]; printf "%s %s: median %.3f, %.3f-%.3f (%+.1f%%/%+.1f%%)\n", arm,
          $c["benchmark"], m, $c["min"], $c["max"], 100 * ($c["min"] / m - 1), 100 * ($c["max"] / m - 1) }'
  done
  for i in 1 2; do
    /tmp/mode_probe 20 20 4 >"$out/mode_probe4-$i.txt" || echo "mode_probe $i: exit $?"
    echo "mode_probe $i, mean us/launch a second (phases of 5 s: free, pinned, free, pinned):"
    awk '{ b = int($1); s[b] += $2; n[b]++ } END { for (k = 0; k < 20; k++) printf "%.2f%s", s[k] / n[k], k % 5 == 4 ? " | " : " "; print "" }' "$out/mode_probe4-$i.txt"
  done
} 2>&1 | tee "$out/summary.txt"
