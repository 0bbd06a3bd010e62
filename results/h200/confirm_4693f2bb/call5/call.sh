#!/usr/bin/env bash
# Call E of results/h200/confirm_4693f2bb/: scripts/test.sh on a fresh copy with the lagged read's
# GPU test rewritten (a 200 us host spin injected), then that test 5 more times.
BUDGET_S=280 scripts/acceptance_call.sh "$OUT" test; echo "acceptance_call rc=$?"
b=$(ls -d /tmp/acceptance/tree*/build | tail -1)
timeout 60 "$b/tests/test_gpu_patterns" --gtest_filter='*LaggedReadHides*' --gtest_repeat=5 \
  >"$OUT/lagged_tests.txt" 2>&1
echo "lagged tests rc=$?"
scripts/source_hash.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
cat "$OUT/summary.txt"
grep -cE "OK \] GpuPatterns.LaggedReadHides" "$OUT/lagged_tests.txt"
