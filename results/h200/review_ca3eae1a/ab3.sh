#!/usr/bin/env bash
# BigGemm bf16 n=4096's DeviceSync and ScalarRead/pinned overheads (the gate's BigGemm rows) in
# K alternating processes of sync_bench before this session (ce597b5, old_src.tar) and now.
set -uo pipefail
out="$1"; k="${2:-5}"
export PATH=/usr/local/cuda/bin:$PATH
src="$(pwd)"; w=/tmp/ab3; rm -rf "$w"; mkdir -p "$w/old" "$w/runs"
tar -xf "$src/old_src.tar" -C "$w/old"
for side in old new; do
  s="$w/old"; [ $side = new ] && s="$src"
  { cmake -S "$s" -B "$w/build-$side" -DCMAKE_BUILD_TYPE=Release -DSYNC_BENCH_BUILD_TESTS=OFF &&
    cmake --build "$w/build-$side" -j16 --target sync_bench sync_summary; } >"$w/build-$side.log" 2>&1 ||
    { echo "$side build failed"; tail -5 "$w/build-$side.log"; }
done
for i in $(seq 1 "$k"); do
  for side in old new; do
    "$w/build-$side/bench/sync_bench" --benchmark_filter='^BigGemm/(DeviceSync|ScalarRead/pinned)/bf16/cublas/n:4096/' \
      --benchmark_out="$w/runs/$side-$i.json" --benchmark_out_format=json >/dev/null 2>&1 || echo "$side-$i failed"
  done
done
for side in old new; do "$w/build-new/summary/sync_summary" merge --output="$out/biggemm4096_$side.json" "$w/runs/$side"-*.json >/dev/null; done
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader | tee "$out/gpu.txt"
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import json, statistics, sys
for side in ("old", "new"):
    d = json.load(open(f"{sys.argv[1]}/biggemm4096_{side}.json"))
    rows = {}
    for b in d["benchmarks"]:
        if b.get("run_type") == "iteration":
            rows.setdefault(b["run_name"].replace("/manual_time", ""), []).append((b["overhead_us"], b["baseline_host_us"]))
    for n, v in rows.items():
        o = [x[0] for x in v]; h = [x[1] for x in v]
        print(f"{side} {n}: overhead {statistics.median(o):.2f} us ({min(o):.2f}-{max(o):.2f}), host {statistics.median(h):.2f} us")
PY
