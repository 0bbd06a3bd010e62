#!/usr/bin/env bash
# lagged_mapped call 1: build; the lagged readers' GPU tests; then DeviceSync, ScalarRead/pinned,
# ScalarRead/mapped, LaggedRead and LaggedRead/mapped after the null kernel, SmallGemm fp16 n=512,
# BigGemm n=8192 (fp16, bf16 cuBLAS; fp8 cuBLASLt) and SpinKernel 10/1000 us, in 6 processes;
# one more with --anatomy_timeline on BigGemm bf16 and SpinKernel 1000.
#   bash .device_call_lm1.sh OUT   (from the repository root, results/ moved aside)
set -uo pipefail
out="${1:?usage: OUT}"
logs=/tmp/lm_logs
mkdir -p "$logs"
nvidia-smi -L | tee "$out/gpu.txt"
start=$(date +%s)
BUILD_DIR=/tmp/b bash scripts/setup.sh >"$logs/build.log" 2>&1 ||
  { echo "build failed" | tee "$out/summary.txt"; tail -30 "$logs/build.log"; exit 1; }
echo "build: $(($(date +%s) - start)) s" | tee "$out/summary.txt"
ctest --test-dir /tmp/b -R 'GpuOps\.(Mapped)?LaggedReader|GpuOps\.MappedScalar' --output-on-failure \
  >"$logs/gpu_tests.log" 2>&1
echo "gpu tests: exit $? ($(grep -c ' Passed' "$logs/gpu_tests.log") passed)" | tee -a "$out/summary.txt"
p='(DeviceSync|ScalarRead/(pinned|mapped)|LaggedRead|LaggedRead/mapped)'
filter="^(NullKernel/$p/|SmallGemm/$p/fp16/cublas/n:512/|BigGemm/$p/(fp16/cublas|bf16/cublas|fp8/cublaslt)/n:8192/|SpinKernel/$p/us:(10|1000)/)"
for i in 1 2 3 4 5 6; do
  /tmp/b/bench/sync_bench --benchmark_filter="$filter" --benchmark_out="$logs/p$i.json" \
    --benchmark_out_format=json >"$logs/p$i.log" 2>&1 || echo "process $i: exit $?" | tee -a "$out/summary.txt"
done
echo "processes: $(($(date +%s) - start)) s" | tee -a "$out/summary.txt"
/tmp/b/bench/sync_bench --benchmark_filter='^(BigGemm/(Async|LaggedRead|LaggedRead/mapped)/bf16/cublas/n:8192/|SpinKernel/(Async|LaggedRead|LaggedRead/mapped)/us:1000/)' \
  --anatomy_timeline="$logs/timeline.json" --benchmark_out="$logs/anatomy.json" \
  --benchmark_out_format=json >"$logs/anatomy.log" 2>&1 || echo "anatomy: exit $?" | tee -a "$out/summary.txt"
echo "anatomy: $(($(date +%s) - start)) s" | tee -a "$out/summary.txt"
tar czf "$out/lm1.tar.gz" -C /tmp lm_logs
python3 - "$logs" <<'PY' | tee -a "$out/summary.txt"
import json, statistics, sys, re
rows = {}
for i in range(1, 7):
    try:
        d = json.load(open(f"{sys.argv[1]}/p{i}.json"))
    except Exception as e:
        print("p", i, e); continue
    for b in d["benchmarks"]:
        if b.get("error_occurred"):
            print("ERROR", b["name"], b.get("error_message")); continue
        if "overhead_us" in b:
            rows.setdefault(b["name"].replace("/manual_time", ""), []).append(
                (b["overhead_us"], 100 * b["overhead_us"] / b["baseline_us"]))
for name, v in rows.items():
    us = sorted(x for x, _ in v); pct = sorted(y for _, y in v)
    print(f"{name:55s} {statistics.median(us):8.2f} us ({us[0]:.2f}-{us[-1]:.2f}) {statistics.median(pct):6.2f}% (max {pct[-1]:.2f})")
t = json.load(open(f"{sys.argv[1]}/timeline.json"))
for b in t["benchmarks"]:
    gpu = sorted((e for e in b["events"] if e["lane"] == "gpu"), key=lambda e: e["start_us"])
    gaps = {}
    for a, c in zip(gpu, gpu[1:]):
        gaps.setdefault(f"{a['kind']}->{c['kind']}", []).append(c["start_us"] - a["end_us"])
    print("anatomy", b["name"], ", ".join(f"{k} {statistics.median(v):.2f}" for k, v in sorted(gaps.items())))
PY
