#!/usr/bin/env bash
# Call A of results/h200/confirm_4693f2bb/: scripts/test.sh twice on fresh copies of source
# 4693f2bb58ea7093 (the refactored probe tests among them), then the probe tests' console.
BUDGET_S=560 scripts/acceptance_call.sh "$OUT" test test; echo "acceptance_call rc=$?"
b=$(ls -d /tmp/acceptance/tree*/build | tail -1)
timeout 30 "$b/tests/test_gpu_ops" --gtest_filter='*Probe*' >"$OUT/probe_tests.txt" 2>&1
echo "probe tests rc=$?"
scripts/source_hash.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
cat "$OUT/summary.txt"
grep -E "OK \]|FAILED|PASSED" "$OUT/probe_tests.txt" | tail -6
