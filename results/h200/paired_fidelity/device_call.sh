#!/usr/bin/env bash
# One device call behind this folder: scripts/test.sh on a fresh copy of the tree (no build
# folder), then the two paired-overhead fidelity tests alone in PROCESSES separate processes.
#   bash results/h200/paired_fidelity/device_call.sh OUT [PROCESSES]
# OUT gets test_fresh.txt (test.sh's output), gpu.txt (nvidia-smi -L) and overhead_runs.txt (each
# process's output, prefixed run<i>:).
set -uo pipefail
out="${1:?usage: device_call.sh OUT [PROCESSES]}"
processes="${2:-10}"
export NCCL_NVLS_ENABLE=0
rm -rf /tmp/fresh && mkdir -p /tmp/fresh
tar cf - --exclude='./build*' --exclude=./.git . | (cd /tmp/fresh && tar xf -)
cd /tmp/fresh || exit 1
nvidia-smi -L >"$out/gpu.txt"
start=$(date +%s)
(BUILD_DIR=/tmp/fresh/build bash scripts/test.sh) >"$out/test_fresh.txt" 2>&1
echo "test.sh: exit $?, $(($(date +%s) - start)) s"
for i in $(seq 1 "$processes"); do
  build/tests/test_fidelity --gtest_filter='*Overhead*' 2>&1 | sed "s/^/run$i: /" >>"$out/overhead_runs.txt"
  echo "run$i: exit ${PIPESTATUS[0]}"
done
