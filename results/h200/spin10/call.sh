#!/usr/bin/env bash
# One device call of results/h200/spin10/, on the GPU machine from the repository root (a copy of
# the tree without results/): builds sync_bench and sync_summary, then makes two gate runs as
# scripts/gate_runs.sh does (scripts/ci_regress.sh --make-baseline, 10 processes each) on the
# gate's default set plus SpinKernel's DeviceSync and ScalarRead/pinned after a 10 us spin (rows
# the set left out because their GPU-bound Async baseline could not host-adjust them):
# OUT/clean.json and OUT/host1us.json (+1 us host a step in NullKernel, SmallGemm, SyncEvery and
# SpinKernel). OUT/logs.tar.gz keeps every process's JSON and log.
#   results/h200/spin10/call.sh OUT
set -uo pipefail
out="${1:?OUT}"
mkdir -p "$out"
work="$(mktemp -d)"
t0=$(date +%s)
{ cmake -S . -B build -DCMAKE_BUILD_TYPE=Release &&
  cmake --build build -j16 --target sync_bench sync_summary; } >"$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
nvidia-smi -L | tee "$work/gpu.txt"
default="$(sed -n "s/^DEFAULT_FILTER='\(.*\)'$/\1/p" scripts/ci_regress.sh)"
filter="$default|^SpinKernel/(DeviceSync|ScalarRead/pinned)/us:10/"
for run in clean host1us; do
  inject=()
  [ "$run" = host1us ] &&
    inject=(--sync_inject=host:1us --sync_inject_filter='^(NullKernel|SmallGemm|SyncEvery|SpinKernel)/')
  scripts/ci_regress.sh --make-baseline "$out/$run.json" --benchmark_filter="$filter" \
    "${inject[@]}" >"$work/$run.log" 2>&1 || echo "$run: exit $?"
  mv "$out/$run.json.d" "$work/$run.d"
  echo "$run: $(($(date +%s) - t0)) s"
done
tar -czf "$out/logs.tar.gz" -C "$work" .
