#!/usr/bin/env bash
# Does a slower host leave a GPU-bound graph replay's GPU idle? GraphReplay/Replay rows of 100
# GEMMs (and 10, and 100 null kernels) with a host busy-wait injected before each step
# (--sync_inject=host:X), X from 0 to 250 us, in PROCS processes each, the injections interleaved
# so that a drift of the machine falls on all of them alike. Run from the repository root on the
# GPU machine: results/h200/graph_idle/probe.sh OUT [PROCS]
set -euo pipefail
out="$1"
procs="${2:-3}"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >"$out/build.log" 2>&1
cmake --build build -j16 --target sync_bench >>"$out/build.log" 2>&1
filter='^GraphReplay/Replay/(fp16/cublas/n:512/k:(10|100)|null_kernel/k:100)/'
for p in $(seq 1 "$procs"); do
  for x in 0 25 50 100 250; do
    inject=()
    [ "$x" = 0 ] || inject=(--sync_inject="host:${x}us")
    build/bench/sync_bench --benchmark_filter="$filter" "${inject[@]}" \
      --benchmark_out="$out/p${p}_x${x}.json" --benchmark_out_format=json >/dev/null 2>>"$out/err.log" ||
      echo "process $p, host:${x}us: exit $?" >>"$out/err.log"
  done
done
