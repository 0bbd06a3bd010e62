#!/usr/bin/env bash
# Call 9 of results/h200/confirm_4693f2bb/: test_fidelity alone, as often as the session's last
# device time allows (a part that would not end within BUDGET_S is skipped, and says so).
BUDGET_S=370 scripts/acceptance_call.sh "$OUT" fidelity fidelity fidelity fidelity fidelity
echo "acceptance_call rc=$?"
scripts/source_hash.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
