#!/usr/bin/env bash
# lagged_mapped call 4 (as .device_call_b.sh): scripts/test.sh on a fresh copy (acceptance_call.sh's test part, with
# BigGemm DeviceSync n=8192 after it, 2 processes at 2 s a benchmark); the lagged readers' GPU tests 3 more times each; then call 1's
# lagged rows in 6 processes on this (second) machine.
#   bash .device_call_b.sh OUT   (from the repository root, results/ moved aside)
set -uo pipefail
out="${1:?usage: OUT}"
logs=/tmp/lm_logs
mkdir -p "$logs" "$out/acc"
nvidia-smi -L | tee "$out/gpu.txt"
start=$(date +%s)
BUDGET_S=340 ACCEPTANCE_WORK=/tmp/acceptance scripts/acceptance_call.sh "$out/acc" test biggemm \
  >"$logs/acceptance.log" 2>&1
echo "acceptance_call.sh test biggemm: exit $? at $(($(date +%s) - start)) s" | tee "$out/lagged.txt"
b=$(ls -d /tmp/acceptance/tree*/build | tail -1)
for i in 1 2 3; do
  "$b/tests/test_gpu_ops" --gtest_filter='GpuOps.*LaggedReader*' >"$logs/ops$i.log" 2>&1
  echo "test_gpu_ops LaggedReader run $i: exit $? ($(grep -c '^\[       OK' "$logs/ops$i.log") ok)" | tee -a "$out/lagged.txt"
  "$b/tests/test_gpu_patterns" --gtest_filter='GpuPatterns.MappedLaggedRead*:GpuPatterns.LaggedRead*' \
    >"$logs/pat$i.log" 2>&1
  echo "test_gpu_patterns LaggedRead run $i: exit $? ($(grep -c '^\[       OK' "$logs/pat$i.log") ok)" | tee -a "$out/lagged.txt"
done
p='(DeviceSync|ScalarRead/(pinned|mapped)|LaggedRead|LaggedRead/mapped)'
filter="^(NullKernel/$p/|SmallGemm/$p/fp16/cublas/n:512/|BigGemm/$p/(fp16/cublas|bf16/cublas|fp8/cublaslt)/n:8192/|SpinKernel/$p/us:(10|1000)/)"
for i in 1 2 3 4 5 6; do
  "$b/bench/sync_bench" --benchmark_filter="$filter" --benchmark_out="$logs/p$i.json" \
    --benchmark_out_format=json >"$logs/p$i.log" 2>&1 || echo "process $i: exit $?" | tee -a "$out/lagged.txt"
done
echo "processes: $(($(date +%s) - start)) s" | tee -a "$out/lagged.txt"
tar czf "$out/lm4.tar.gz" -C /tmp lm_logs
python3 - "$logs" <<'PY' | tee -a "$out/lagged.txt"
import json, statistics, sys
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
PY
cat "$out/acc/summary.txt"
