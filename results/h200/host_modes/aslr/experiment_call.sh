#!/usr/bin/env bash
# Does address-space layout randomization (ASLR) make the host side of a step differ from one
# process to the next? One device call: build sync_bench and sync_summary, then the headline rows
# (NullKernel and SmallGemm fp16 n=512, Async and DeviceSync) in PAIRS pairs of processes, one
# plain and one under `setarch -R` (no randomization), alternating; each arm merged into one JSON
# whose repetitions are its processes, and each process's numbers printed.
#   bash experiment_call.sh OUT      (from the repository root, results/ moved aside)
set -uo pipefail
out="${1:?usage: experiment_call.sh OUT}"
pairs="${PAIRS:-20}"
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
build=/tmp/aslr_build
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >"$out/build.log" 2>&1 &&
  cmake --build "$build" -j "$(nproc)" --target sync_bench sync_summary >>"$out/build.log" 2>&1 ||
  { tail -20 "$out/build.log"; exit 1; }
bench="$build/bench/sync_bench"
summary="$build/summary/sync_summary"
{
  nvidia-smi -L
  echo "randomize_va_space: $(cat /proc/sys/kernel/randomize_va_space)"
  norand=(setarch "$(uname -m)" -R)
  "${norand[@]}" true || { echo "setarch -R refused here"; exit 1; }
  echo "layout of two plain processes and two under setarch -R (the heap and libc):"
  for arm in plain plain norand norand; do
    if [ $arm = plain ]; then cmd=(); else cmd=("${norand[@]}"); fi
    echo "  $arm: $("${cmd[@]}" grep -E '\[heap\]|libc\.so' /proc/self/maps | head -2 | awk '{ printf "%s ", $1 }')"
  done
  filter='^(NullKernel/(Async|DeviceSync)|SmallGemm/(Async|DeviceSync)/fp16/cublas/n:512)/'
  mkdir -p /tmp/aslr/plain /tmp/aslr/norand
  for i in $(seq 1 "$pairs"); do
    # Which arm goes first alternates, so neither always follows the other.
    if [ $((i % 2)) -eq 1 ]; then order=(plain norand); else order=(norand plain); fi
    for arm in "${order[@]}"; do
      if [ $arm = plain ]; then cmd=(); else cmd=("${norand[@]}"); fi
      "${cmd[@]}" "$bench" --benchmark_filter="$filter" --benchmark_out="/tmp/aslr/$arm/run-$i.json" \
        --benchmark_out_format=json >"/tmp/aslr/$arm/run-$i.log" 2>&1 || echo "$arm $i: exit $?"
    done
  done
  for arm in plain norand; do
    "$summary" merge --output="$out/$arm.json" /tmp/aslr/$arm/run-*.json
    echo "== $arm: process, NullKernel Async step, DeviceSync overhead, SmallGemm Async step, DeviceSync overhead (us)"
    for i in $(seq 1 "$pairs"); do
      f=/tmp/aslr/$arm/run-$i.json
      printf '%s %s' "$arm" "$i"
      "$summary" report --format=csv --metric=overhead_us --filter=DeviceSync "$f" |
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                 { printf " %.3f %.3f", $c["baseline_us"], $c["overhead_us"] }'
      echo
    done
  done
} 2>&1 | tee "$out/summary.txt"
