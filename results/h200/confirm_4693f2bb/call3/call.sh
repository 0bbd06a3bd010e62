#!/usr/bin/env bash
# Call C of results/h200/confirm_4693f2bb/: scripts/test.sh a third time, the headline at 2 s a
# benchmark (6 processes), BigGemm n=8192 DeviceSync (2 processes), test_fidelity alone and the
# default sweep with SmallGemm, on source 4693f2bb58ea7093. The budget is 590 s so that the sweep's
# estimate fits after the others' (their sum is 575 s; on this machine they take about 480 s).
BUDGET_S=590 scripts/acceptance_call.sh "$OUT" test headline_long biggemm fidelity sweep
echo "acceptance_call rc=$?"
scripts/source_hash.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
cat "$OUT/summary.txt"
