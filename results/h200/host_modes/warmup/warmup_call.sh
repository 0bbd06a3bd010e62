#!/usr/bin/env bash
# Is the default measurement's higher overhead (longer/: +3-4% against 2 s of timed steps) a
# transient at the start of each benchmark? One device call: build sync_bench and sync_summary;
# the headline rows in ROUNDS rounds of four processes, one per arm, the order rotated each round:
#   default  the default stopping rule (3 warm-up steps)
#   warm50   --sync_warmup=0.05 (50 ms of synced warm-up batches first)
#   warm200  --sync_warmup=0.2
#   long     --benchmark_min_time=2 (2 s of timed steps)
# Each arm merged; per process and per arm, the DeviceSync overheads printed.
#   bash warmup_call.sh OUT      (from the repository root, results/ moved aside)
set -uo pipefail
out="${1:?usage: warmup_call.sh OUT}"
rounds="${ROUNDS:-6}"
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
build=/tmp/warmup_build
{ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release &&
  cmake --build "$build" -j "$(nproc)" --target sync_bench sync_summary; } >"$out/build.log" 2>&1 ||
  { tail -20 "$out/build.log"; exit 1; }
bench="$build/bench/sync_bench"
summary="$build/summary/sync_summary"
arms=(default warm50 warm200 long)
flags_of() {
  case "$1" in
    default) ;; warm50) echo --sync_warmup=0.05 ;; warm200) echo --sync_warmup=0.2 ;;
    long) echo --benchmark_min_time=2 ;;
  esac
}
{
  nvidia-smi -L
  filter='^(NullKernel/(Async|DeviceSync)|SmallGemm/(Async|DeviceSync)/fp16/cublas/n:512)/'
  for i in $(seq 1 "$rounds"); do
    for k in 0 1 2 3; do
      arm="${arms[$(((i + k) % 4))]}"
      mkdir -p "/tmp/warmup/$arm"
      t0=$(date +%s%N)
      # shellcheck disable=SC2046  # the arm's flags, one word each
      "$bench" --benchmark_filter="$filter" $(flags_of "$arm") \
        --benchmark_out="/tmp/warmup/$arm/run-$i.json" --benchmark_out_format=json \
        >"/tmp/warmup/$arm/run-$i.log" 2>&1 || echo "$arm $i: exit $?"
      echo "$arm $i: $((($(date +%s%N) - t0) / 1000000)) ms"
    done
  done
  for arm in "${arms[@]}"; do
    "$summary" merge --output="$out/$arm.json" /tmp/warmup/"$arm"/run-*.json
    echo "== $arm: process, NullKernel Async step, DeviceSync overhead, SmallGemm Async step, DeviceSync overhead (us)"
    for i in $(seq 1 "$rounds"); do
      printf '%s %s' "$arm" "$i"
      "$summary" report --format=csv --metric=overhead_us --filter=DeviceSync "/tmp/warmup/$arm/run-$i.json" |
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                 { printf " %.3f %.3f", $c["baseline_us"], $c["overhead_us"] }'
      echo
    done
  done
  for arm in "${arms[@]}"; do
    "$summary" report --format=csv --metric=overhead_us --filter=DeviceSync "$out/$arm.json" |
      awk -F, -v arm="$arm" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { m = $c["median"]; printf "%-8s %s: median %.3f, %.3f-%.3f (%+.1f%%/%+.1f%%)\n", arm,
          $c["benchmark"], m, $c["min"], $c["max"], 100 * ($c["min"] / m - 1), 100 * ($c["max"] / m - 1) }'
  done
} 2>&1 | tee "$out/summary.txt"
