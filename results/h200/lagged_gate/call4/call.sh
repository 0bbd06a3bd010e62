#!/usr/bin/env bash
# Device call D (2026-12-02): the default gated set with TrainLoop/LaggedItem at n=512 and n=1024
# added (this tree's scripts/ci_regress.sh), as scripts/gate_runs.sh runs it: clean and +10% host.
# Calls 1-3 ran the lagged rows alone; in call 3's run of the whole set LaggedItem n=1024 read 8.8
# us, not 5.6: the host was faster there (36 us an Async step, not 49) and the step GPU-bound.
set -u
w=/tmp/w; mkdir -p $w; log=$w/log.txt
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader > $OUT/gpu.txt
t0=$(date +%s)
BUILD_DIR=/tmp/b bash scripts/setup.sh > $w/build.txt 2>&1
echo "build: exit $?, $(($(date +%s) - t0)) s, source $(scripts/source_hash.sh 2>/dev/null)" >> $log
export SYNC_BENCH=/tmp/b/bench/sync_bench SYNC_SUMMARY=/tmp/b/summary/sync_summary
s=$(date +%s); timeout 300 scripts/gate_runs.sh $w/full clean host10 > $w/full.log 2>&1
echo "gate_runs.sh clean host10: exit $?, $(($(date +%s) - s)) s" >> $log
cat $w/full.log >> $log
$SYNC_SUMMARY compare $w/full/clean.json $w/full/host10.json > $w/cmp_host10.txt 2>&1; echo "compare clean host10: exit $?" >> $log
cp $w/full/clean.json $w/full/host10.json $OUT/ 2>/dev/null
tar czf $OUT/logs.tar.gz -C /tmp w
cat $log
grep -E "^TrainLoop/LaggedItem|^Result" $w/cmp_host10.txt | cut -c1-40,200-
