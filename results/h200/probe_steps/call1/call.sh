#!/usr/bin/env bash
# Call A of results/h200/probe_steps/: the new source's test.sh on a fresh copy, the headline at 2 s
# a benchmark, BigGemm n=8192 DeviceSync, and test_fidelity alone, by scripts/acceptance_call.sh.
scripts/acceptance_call.sh "$OUT" test headline_long biggemm fidelity; echo "acceptance_call rc=$?"
scripts/source_hash.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
b=$(ls -d /tmp/acceptance/tree*/build | tail -1)
grep -E "GpuOps.A(n|)(Un|)[Pp]aired.*Probe|probe try took|probed steps" /tmp/acceptance/logs/test1.txt | head -8
cat "$OUT/summary.txt"
