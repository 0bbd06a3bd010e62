#!/usr/bin/env bash
# Call E of results/h200/probe_steps/: the default sweep and SmallGemm on the code before the probe
# change (.old_tree: git archive of 1d52d73, source a96de21b), on the machine call D ran the
# revised probe on, right after it.
(cd .old_tree && ACCEPTANCE_WORK=/tmp/acc_old BUDGET_S=230 scripts/acceptance_call.sh "$OUT" sweep)
echo "old rc=$?"
(cd .old_tree && scripts/source_hash.sh)
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
