#!/usr/bin/env bash
# Device call G (2026-12-02), as call F but against call 6: the README's CI recipe with the default set as it is now (43
# benchmarks): scripts/ci_regress.sh against call 6's run as BASE (another H200), on this tree.
set -u
w=/tmp/w; mkdir -p $w; log=$w/log.txt
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader > $OUT/gpu.txt
t0=$(date +%s)
BUILD_DIR=/tmp/b bash scripts/setup.sh > $w/build.txt 2>&1
echo "build: exit $?, $(($(date +%s) - t0)) s, source $(scripts/source_hash.sh 2>/dev/null)" >> $log
export SYNC_BENCH=/tmp/b/bench/sync_bench SYNC_SUMMARY=/tmp/b/summary/sync_summary
s=$(date +%s); OUT=$w/new.json timeout 200 scripts/ci_regress.sh .gate_base_call6.json > $w/gate.md 2> $w/gate.err
echo "ci_regress.sh BASE=call6: exit $?, $(($(date +%s) - s)) s" >> $log
cp $w/new.json $w/gate.md $OUT/ 2>/dev/null
tar czf $OUT/logs.tar.gz -C /tmp w
cat $log; tail -2 $w/gate.err; grep -E "REGRESSION|^Result|LaggedItem" $w/gate.md | cut -c1-200
