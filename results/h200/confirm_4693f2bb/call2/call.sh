#!/usr/bin/env bash
# Call B of results/h200/confirm_4693f2bb/: the gate's runs at 20 processes a side on source
# 4693f2bb58ea7093 (clean, host +1 us, host +10%, GPU +10%), in a call of their own.
BUDGET_S=560 scripts/acceptance_call.sh "$OUT" gate; echo "acceptance_call rc=$?"
scripts/source_hash.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
cat "$OUT/summary.txt"
