#!/usr/bin/env bash
# Device call C (2026-12-02), as call A: the lagged reads as gate candidates. 20 processes of the candidate
# rows alone, four times (clean, +1 us host, +10% host, +10% GPU), as scripts/gate_runs.sh runs the
# default set: the false-alarm and detection data they need before they join the gated set.
set -u
w=/tmp/w; mkdir -p $w; log=$w/log.txt
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader > $OUT/gpu.txt
t0=$(date +%s)
BUILD_DIR=/tmp/b bash scripts/setup.sh > $w/build.txt 2>&1
echo "build: exit $?, $(($(date +%s) - t0)) s, source $(scripts/source_hash.sh 2>/dev/null)" >> $log
export SYNC_BENCH=/tmp/b/bench/sync_bench SYNC_SUMMARY=/tmp/b/summary/sync_summary
F='^(NullKernel/LaggedRead|SmallGemm/LaggedRead/fp16/cublas/n:512/|BigGemm/LaggedRead/bf16/cublas/n:4096/|SpinKernel/LaggedRead/us:(10|1000)/|TrainLoop/LaggedItem/bf16/cublas/n:(512|1024)/)'
run() {  # run NAME [sync_bench flags]
  local name=$1 s; shift; s=$(date +%s)
  timeout 150 scripts/ci_regress.sh --make-baseline $w/$name.json --benchmark_filter="$F" "$@" 2> $w/$name.log
  echo "$name: exit $?, $(($(date +%s) - s)) s" >> $log
}
run clean
run host1us --sync_inject=host:1us --sync_inject_filter='^(NullKernel|SmallGemm|SyncEvery)/'
run host10 --sync_inject=host:10%
run gpu10 --sync_inject=gpu:10%
for n in host1us host10 gpu10; do
  $SYNC_SUMMARY compare $w/clean.json $w/$n.json > $w/cmp_$n.txt 2>&1; echo "compare clean $n: exit $?" >> $log
done
# The default gated set with TrainLoop/LaggedItem at n=1024 added (this tree's scripts/ci_regress.sh),
# clean, as scripts/gate_runs.sh runs it: its time, and its rows beside the earlier calls'.
s=$(date +%s); timeout 200 scripts/gate_runs.sh $w/full clean > $w/full.log 2>&1
echo "full default set, clean: exit $?, $(($(date +%s) - s)) s" >> $log
cp $w/full/clean.json $OUT/full_clean.json
cp $w/clean.json $w/host1us.json $w/host10.json $w/gpu10.json $OUT/ 2>/dev/null
tar czf $OUT/logs.tar.gz -C /tmp w
cat $log
grep -c . $w/cmp_host1us.txt
