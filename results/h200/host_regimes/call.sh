#!/usr/bin/env bash
# One device call of results/h200/host_regimes/, on the GPU machine from the repository root (a
# copy of the tree without results/): builds sync_bench and sync_summary, then
#  1. regimes: is a process's host speed the CPU it runs on? SmallGemm/Async fp16 n=512 (a
#     host-bound step: its time is the host's speed) in short processes, each pinned to one CPU
#     (taskset) or not, two passes over the CPUs; then 30 repetitions in one process, unpinned and
#     pinned, to see whether the speed changes within a process. OUT/topology.txt, OUT/runs.tar.gz
#     (every process's JSON), and one line a process: tag, CPU ("any"), real_time per repetition.
#  2. spin10: SpinKernel's Async, DeviceSync and ScalarRead/pinned after a 10 us spin, the rows the
#     gate's set left out because their GPU-bound Async baseline could not host-adjust them, as
#     scripts/gate_runs.sh makes its runs (scripts/ci_regress.sh --make-baseline, 10 processes):
#     OUT/spin_clean.json, spin_host10.json (+10% host), spin_gpu10.json (+10% GPU),
#     spin_host1us.json (+1 us host).
#   results/h200/host_regimes/call.sh OUT
set -uo pipefail
out="${1:?OUT}"
mkdir -p "$out"
work="$(mktemp -d)"
t0=$(date +%s)
{ cmake -S . -B build -DCMAKE_BUILD_TYPE=Release &&
  cmake --build build -j16 --target sync_bench sync_summary; } >"$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
{ nvidia-smi -L; nproc; lscpu; lscpu -e; grep MHz /proc/cpuinfo; } >"$out/topology.txt" 2>&1
bench=build/bench/sync_bench
filter='^SmallGemm/Async/fp16/cublas/n:512/'
times() { grep -o '"real_time": [0-9.e+-]*' "$1" | awk '{printf " %.2f", $2}'; }
one() {  # one TAG CPU|any [flags...]
  local tag="$1" cpu="$2"
  shift 2
  local json="$work/$tag.json" pin=()
  [ "$cpu" != any ] && pin=(taskset -c "$cpu")
  "${pin[@]}" "$bench" --benchmark_filter="$filter" --benchmark_out="$json" \
    --benchmark_out_format=json "$@" >"$work/$tag.log" 2>&1 || echo "$tag: exit $?"
  echo "$tag $cpu$(times "$json")"
}
cpus=$(nproc)
for pass in 1 2; do
  for ((c = 0; c < cpus; ++c)); do
    one "p${pass}-cpu$c" "$c"
    one "p${pass}-any$c" any
  done
done
one long-any any --benchmark_repetitions=30
one long-cpu2 2 --benchmark_repetitions=30
echo "regimes: $(($(date +%s) - t0)) s"
spin='^SpinKernel/(Async|DeviceSync|ScalarRead/pinned)/us:10/'
for run in clean host10 gpu10 host1us; do
  case "$run" in
    clean) inject=() ;;
    host10) inject=(--sync_inject=host:10%) ;;
    gpu10) inject=(--sync_inject=gpu:10%) ;;
    host1us) inject=(--sync_inject=host:1us) ;;
  esac
  scripts/ci_regress.sh --make-baseline "$out/spin_$run.json" --benchmark_filter="$spin" \
    "${inject[@]}" >"$work/spin_$run.log" 2>&1 || echo "spin $run: exit $?"
  mv "$out/spin_$run.json.d" "$work/spin_$run.d"  # every process's JSON and log, in runs.tar.gz
done
echo "spin10: $(($(date +%s) - t0)) s"
tar -czf "$out/runs.tar.gz" -C "$work" .
echo "total: $(($(date +%s) - t0)) s"
