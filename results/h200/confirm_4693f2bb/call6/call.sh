#!/usr/bin/env bash
# Call 6 of results/h200/confirm_4693f2bb/: scripts/test.sh twice on fresh copies (test.sh in a
# row; the first GPU run of the BigGemm bound's reruns).
BUDGET_S=590 scripts/acceptance_call.sh "$OUT" test test; echo "acceptance_call rc=$?"
scripts/source_hash.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
cat "$OUT/summary.txt"
