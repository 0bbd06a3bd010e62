#!/usr/bin/env bash
# Call D of results/h200/probe_steps/: the revised probe (about a millisecond of work a try, 1 to
# 64 steps): the default sweep and SmallGemm on a fresh copy, then the GPU tests of the step loop
# and the patterns on that build, the probe's two tests' console last.
BUDGET_S=240 scripts/acceptance_call.sh "$OUT" sweep; echo "acceptance_call rc=$?"
b=$(ls -d /tmp/acceptance/tree*/build | tail -1)
timeout 200 ctest --test-dir "$b" -R '^test_gpu_ops$|^test_gpu_patterns$|BusyProbe' --output-on-failure \
  >"$OUT/gpu_tests.txt" 2>&1
echo "ctest rc=$?"
"$b/tests/test_gpu_ops" --gtest_filter='*Probe*' >>"$OUT/gpu_tests.txt" 2>&1
echo "probe tests rc=$?"
scripts/source_hash.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
grep -E "tests passed|tests failed|probe try took|probed steps|OK \]|FAILED" "$OUT/gpu_tests.txt" | tail -12
