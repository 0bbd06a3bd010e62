#!/usr/bin/env bash
# mapped_gate call N: scripts/test.sh on a fresh copy (acceptance_call.sh's test part, whose build
# the rest uses); then the mapped lagged reads as gate candidates, 20 processes each of clean,
# +1 us host (NullKernel and SmallGemm, as gate_runs.sh injects it), +10% host and +10% GPU, as
# results/h200/lagged_gate/ ran the copied ones; then TrainLoop's per-step and lagged reads, copied
# and mapped, in 6 processes.
#   bash .device_call_mg1.sh OUT   (from the repository root, results/ moved aside)
set -uo pipefail
out="${1:?usage: OUT}"
w=/tmp/mg; rm -rf $w; mkdir -p $w
log=$out/summary.txt
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader >"$out/gpu.txt"
echo "source $(scripts/source_hash.sh)" >"$log"
start=$(date +%s)
BUDGET_S=300 bash scripts/acceptance_call.sh $w/acc test >$w/acceptance.log 2>&1
echo "acceptance_call.sh test: exit $?, $(($(date +%s) - start)) s" >>"$log"
cat $w/acc/summary.txt >>"$log"
b="$(ls -d /tmp/acceptance/tree*/build | tail -1)"
export SYNC_BENCH=$b/bench/sync_bench SYNC_SUMMARY=$b/summary/sync_summary
[ -x "$SYNC_BENCH" ] || { echo "no build at $b" >>"$log"; cat "$log"; exit 1; }
F='^(NullKernel/LaggedRead/mapped|SmallGemm/LaggedRead/mapped/fp16/cublas/n:512/|BigGemm/LaggedRead/mapped/bf16/cublas/n:4096/|SpinKernel/LaggedRead/mapped/us:(10|1000)/|TrainLoop/LaggedItem/mapped/bf16/cublas/n:(512|1024)/)'
run() {  # run NAME [sync_bench flags]
  local name=$1 s; shift; s=$(date +%s)
  timeout 100 scripts/ci_regress.sh --make-baseline $w/$name.json --benchmark_filter="$F" "$@" 2>$w/$name.log
  echo "$name: exit $?, $(($(date +%s) - s)) s" >>"$log"
}
run clean
run host1us --sync_inject=host:1us --sync_inject_filter='^(NullKernel|SmallGemm|SyncEvery)/'
run host10 --sync_inject=host:10%
run gpu10 --sync_inject=gpu:10%
for n in host1us host10 gpu10; do
  $SYNC_SUMMARY compare $w/clean.json $w/$n.json >$w/cmp_$n.txt 2>&1
  echo "compare clean $n: exit $?" >>"$log"
done
mkdir -p $w/tl
for i in 1 2 3 4 5 6; do
  timeout 60 $SYNC_BENCH --benchmark_filter='^TrainLoop/(ItemEveryStep|LaggedItem)' \
    --benchmark_out=$w/tl/p$i.json --benchmark_out_format=json >$w/tl/p$i.log 2>&1 ||
    echo "trainloop process $i: exit $?" >>"$log"
done
echo "trainloop: done at $(($(date +%s) - start)) s" >>"$log"
$SYNC_SUMMARY merge --output=$out/trainloop.json $w/tl/p*.json >>"$log" 2>&1
cp $w/clean.json $w/host1us.json $w/host10.json $w/gpu10.json $out/ 2>/dev/null
cp /tmp/acceptance/logs/* $w/ 2>/dev/null
tar czf $out/logs.tar.gz -C /tmp mg
python3 - $w/tl <<'PY' >>"$log" 2>&1
import json, statistics, sys, glob
rows = {}
for f in sorted(glob.glob(sys.argv[1] + "/p*.json")):
    for b in json.load(open(f))["benchmarks"]:
        n = b["name"].replace("/manual_time", "")
        if b.get("error_occurred"): print("ERROR", n, b.get("error_message")); continue
        if "overhead_us" in b: rows.setdefault(n, []).append((b["overhead_us"], b.get("baseline_us", 0), b.get("baseline_host_us", 0)))
for n, v in rows.items():
    o = sorted(x[0] for x in v)
    print(f"{n:50s} +{statistics.median(o):6.2f} us ({o[0]:.2f}-{o[-1]:.2f}) step {statistics.median(x[1] for x in v):6.1f} host {statistics.median(x[2] for x in v):6.1f}")
PY
cat "$log"
for n in host1us host10 gpu10; do echo "== $n"; grep -E "LaggedRead|LaggedItem" $w/cmp_$n.txt | head -12; done
