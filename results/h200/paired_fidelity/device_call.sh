#!/usr/bin/env bash
# One device call behind this folder: scripts/test.sh on a fresh copy of the tree (no build
# folder), then test_fidelity's tests matching FILTER (default: the two paired-overhead ones) alone
# in PROCESSES separate processes. With TEST_SH=0 the copy is only built (scripts/setup.sh).
#   bash results/h200/paired_fidelity/device_call.sh OUT [PROCESSES] [FILTER]
# OUT gets gpu.txt (nvidia-smi -L), test_fresh.txt (test.sh's or setup.sh's output) and
# fidelity_runs.txt (each process's output, prefixed run<i>:).
set -uo pipefail
out="${1:?usage: device_call.sh OUT [PROCESSES] [FILTER]}"
processes="${2:-10}"
filter="${3:-*Overhead*}"
export NCCL_NVLS_ENABLE=0
rm -rf /tmp/fresh && mkdir -p /tmp/fresh
tar cf - --exclude='./build*' --exclude=./.git . | (cd /tmp/fresh && tar xf -)
cd /tmp/fresh || exit 1
nvidia-smi -L >"$out/gpu.txt"
start=$(date +%s)
if [ "${TEST_SH:-1}" = 0 ]; then
  (BUILD_DIR=/tmp/fresh/build bash scripts/setup.sh) >"$out/test_fresh.txt" 2>&1
else
  (BUILD_DIR=/tmp/fresh/build bash scripts/test.sh) >"$out/test_fresh.txt" 2>&1
fi
echo "test.sh (TEST_SH=${TEST_SH:-1}): exit $?, $(($(date +%s) - start)) s"
for i in $(seq 1 "$processes"); do
  start=$(date +%s)
  build/tests/test_fidelity --gtest_filter="$filter" 2>&1 | sed "s/^/run$i: /" >>"$out/fidelity_runs.txt"
  echo "run$i: exit ${PIPESTATUS[0]}, $(($(date +%s) - start)) s"
done
