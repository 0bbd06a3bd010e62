#!/usr/bin/env bash
# Is the first BigGemm n=8192 process after a host-bound run the one whose DeviceSync overhead
# goes over 3% of the step? (In results/h200/acceptance and acceptance2 every process row over 3%
# was in the first of the biggemm part's two processes, which follows the headline part.)
# Builds, then twice: one headline-like process (NullKernel and SmallGemm fp16 n=512, Async and
# DeviceSync), then K BigGemm processes (Async and DeviceSync, every dtype and backend, n=8192).
# OUT gets order-<round>-<k>.json for the BigGemm processes, build.log and summary.txt (at most
# 8 files: K <= 3).
#
#   order_call.sh OUT [K]   (from the repository root, on the GPU machine)
set -uo pipefail
out="${1:?usage: order_call.sh OUT [K]}"
k="${2:-3}"
note() { echo "$*" | tee -a "$out/summary.txt"; }
note "gpu: $(nvidia-smi -L | head -1)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >"$out/build.log" 2>&1 &&
  cmake --build build -j16 --target sync_bench >>"$out/build.log" 2>&1 ||
  { note "build failed"; tail -20 "$out/build.log"; exit 1; }
for round in 1 2; do
  build/bench/sync_bench --benchmark_filter='^(NullKernel/(Async|DeviceSync)|SmallGemm/(Async|DeviceSync)/fp16/cublas/n:512)/' \
    --benchmark_out=/tmp/headline-$round.json >/dev/null 2>&1
  note "round $round: headline process exit $?"
  for i in $(seq 1 "$k"); do
    f="$out/order-$round-$i.json"
    build/bench/sync_bench --benchmark_filter='^BigGemm/(Async|DeviceSync)/[^/]+/[^/]+/n:8192/' \
      --benchmark_out="$f" >/dev/null 2>&1
    note "round $round process $i: exit $?, after it: $(nvidia-smi --query-gpu=temperature.gpu,clocks.sm,power.draw --format=csv,noheader)"
  done
done
