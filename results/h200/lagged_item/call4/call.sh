#!/usr/bin/env bash
# Device call D (2026-12-02): the headline at 2 s a benchmark and BigGemm n=8192 on the final tree.
set -u
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader > $OUT/gpu.txt
export ACCEPTANCE_WORK=/tmp/acc
BUDGET_S=175 scripts/acceptance_call.sh $OUT headline_long biggemm > $OUT/call.log 2>&1
cat $OUT/summary.txt
