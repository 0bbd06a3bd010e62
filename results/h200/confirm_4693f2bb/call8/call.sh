#!/usr/bin/env bash
# Call 8 of results/h200/confirm_4693f2bb/: the gate (gate_runs.sh: clean, host1us, host10, gpu10,
# 20 processes each) in a call of its own.
BUDGET_S=590 scripts/acceptance_call.sh "$OUT" gate; echo "acceptance_call rc=$?"
scripts/source_hash.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
cat "$OUT/summary.txt"
