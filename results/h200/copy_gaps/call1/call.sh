#!/usr/bin/env bash
# copy_gaps call: (1) copy_gap_probe.cu in 3 processes; (2) sync_bench's LaggedRead and Async rows
# after BigGemm bf16 n=8192 and SpinKernel 1000 us with --anatomy_timeline, 2 processes.
#   bash .device_call_gaps.sh OUT   (from the repository root, results/ moved aside)
set -uo pipefail
out="${1:?usage: OUT}"
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
cuda="$(dirname "$(dirname "$(command -v nvcc)")")"
logs=/tmp/gaps_logs
mkdir -p "$logs"
nvidia-smi -L | tee "$out/gpu.txt"
nvidia-smi --query-gpu=driver_version,clocks.sm,power.draw --format=csv >>"$out/gpu.txt"
start=$(date +%s)
nvcc -O2 -arch=sm_90 -I"$cuda/extras/CUPTI/include" -o /tmp/copy_gap_probe .copy_gap_probe.cu \
  -L"$cuda/extras/CUPTI/lib64" -Xlinker -rpath -Xlinker "$cuda/extras/CUPTI/lib64" -lcublas -lcupti \
  >"$logs/probe_build.log" 2>&1 || { cat "$logs/probe_build.log"; exit 1; }
for i in 1 2 3; do
  echo "## process $i"
  /tmp/copy_gap_probe 15 || echo "# copy_gap_probe: exit $?"
done >"$out/probe.txt" 2>&1
echo "probe: $(($(date +%s) - start)) s" | tee "$out/summary.txt"

cmake -S . -B /tmp/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSYNC_BENCH_BUILD_TESTS=OFF \
  >"$logs/build.log" 2>&1 &&
  cmake --build /tmp/build -j "$(nproc)" --target sync_bench sync_summary >>"$logs/build.log" 2>&1 ||
  { echo "build failed" | tee -a "$out/summary.txt"; tail -30 "$logs/build.log"; exit 1; }
echo "build: $(($(date +%s) - start)) s" | tee -a "$out/summary.txt"
filter='^(BigGemm/(Async|LaggedRead)/bf16/cublas(lt)?/n:8192/|SpinKernel/(Async|LaggedRead)/us:1000/)'
for i in 1 2; do
  /tmp/build/bench/sync_bench --benchmark_filter="$filter" --anatomy_timeline="$logs/timeline$i.json" \
    --benchmark_out="$logs/p$i.json" --benchmark_out_format=json >"$logs/p$i.log" 2>&1 ||
    echo "sync_bench $i: exit $?" | tee -a "$out/summary.txt"
done
echo "sync_bench: $(($(date +%s) - start)) s" | tee -a "$out/summary.txt"
tar czf "$out/gaps.tar.gz" -C /tmp gaps_logs
python3 - "$logs" <<'PY' | tee -a "$out/summary.txt"
import json, statistics, sys
for i in (1, 2):
    t = json.load(open(f"{sys.argv[1]}/timeline{i}.json"))
    for b in t["benchmarks"]:
        gpu = sorted((e for e in b["events"] if e["lane"] == "gpu"), key=lambda e: e["start_us"])
        gaps = {}
        for a, c in zip(gpu, gpu[1:]):
            gaps.setdefault(f"{a['kind']}->{c['kind']}", []).append(c["start_us"] - a["end_us"])
        print(i, b["name"], ", ".join(f"{k} {statistics.median(v):.2f}" for k, v in sorted(gaps.items())))
PY
grep -E "^(untraced|#)" "$out/probe.txt" | tail -30
