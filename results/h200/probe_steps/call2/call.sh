#!/usr/bin/env bash
# Call B of results/h200/probe_steps/: the default sweep and SmallGemm on one machine, first on the
# code before this change (.old_tree: git archive of 1d52d73, source a96de21b), then on this one;
# each by its own scripts/acceptance_call.sh sweep (a fresh copy, built, run.sh, SmallGemm).
mkdir -p "$OUT/old" "$OUT/new"
(cd .old_tree && ACCEPTANCE_WORK=/tmp/acc_old BUDGET_S=280 scripts/acceptance_call.sh "$OUT/old" sweep)
echo "old rc=$?"
(cd .old_tree && scripts/source_hash.sh)
ACCEPTANCE_WORK=/tmp/acc_new BUDGET_S=280 scripts/acceptance_call.sh "$OUT/new" sweep
echo "new rc=$?"
scripts/source_hash.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
cat "$OUT/old/summary.txt" "$OUT/new/summary.txt"
