#!/usr/bin/env bash
# Device call E (2026-12-02): the default gated set with TrainLoop/LaggedItem at n=512 added (this
# tree's scripts/ci_regress.sh: n=1024 left out after call 4), clean, as scripts/gate_runs.sh runs it.
set -u
w=/tmp/w; mkdir -p $w; log=$w/log.txt
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader > $OUT/gpu.txt
t0=$(date +%s)
BUILD_DIR=/tmp/b bash scripts/setup.sh > $w/build.txt 2>&1
echo "build: exit $?, $(($(date +%s) - t0)) s, source $(scripts/source_hash.sh 2>/dev/null)" >> $log
export SYNC_BENCH=/tmp/b/bench/sync_bench SYNC_SUMMARY=/tmp/b/summary/sync_summary
s=$(date +%s); timeout 200 scripts/gate_runs.sh $w/full clean > $w/full.log 2>&1
echo "gate_runs.sh clean: exit $?, $(($(date +%s) - s)) s" >> $log
cat $w/full.log >> $log
cp $w/full/clean.json $OUT/ 2>/dev/null
tar czf $OUT/logs.tar.gz -C /tmp w
cat $log
