#!/usr/bin/env bash
# Is BigGemm n=8192's DeviceSync overhead over 3% of the step in some processes because 8 paired
# rounds (the default rule's 0.1 s budget at a 1.6 ms step) give a noisy median, or because that
# process's host really comes back late? Builds, then K times: one process with the default
# stopping rule and one with --benchmark_min_time=2 (about 150 rounds a benchmark), alternating,
# every dtype and backend, Async and DeviceSync. OUT gets default-<i>.json, long-<i>.json,
# build.log and summary.txt (at most 8 files: K <= 3).
#
#   long_call.sh OUT [K]   (from the repository root, on the GPU machine)
set -uo pipefail
out="${1:?usage: long_call.sh OUT [K]}"
k="${2:-3}"
note() { echo "$*" | tee -a "$out/summary.txt"; }
note "gpu: $(nvidia-smi -L | head -1)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >"$out/build.log" 2>&1 &&
  cmake --build build -j16 --target sync_bench >>"$out/build.log" 2>&1 ||
  { note "build failed"; tail -20 "$out/build.log"; exit 1; }
filter='^BigGemm/(Async|DeviceSync)/[^/]+/[^/]+/n:8192/'
for i in $(seq 1 "$k"); do
  for rule in default long; do
    flags=()
    [ "$rule" = long ] && flags=(--benchmark_min_time=2)
    t0=$(date +%s)
    build/bench/sync_bench --benchmark_filter="$filter" "${flags[@]}" \
      --benchmark_out="$out/$rule-$i.json" >/dev/null 2>&1
    note "process $i $rule: exit $?, $(($(date +%s) - t0)) s, after it:" \
      "$(nvidia-smi --query-gpu=temperature.gpu,clocks.sm,power.draw --format=csv,noheader)"
  done
done
