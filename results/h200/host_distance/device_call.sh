#!/usr/bin/env bash
# One device call behind results/h200/host_distance/, run from the repository root: on a fresh
# copy of the tree (no build folder), scripts/test.sh TESTS times in a row (default 1), then
# scripts/gate_runs.sh with the runs named (default all four), stopped after GATE_SECONDS (default
# 400) so that the call ends inside its limit.
#   bash results/h200/host_distance/device_call.sh OUT [NAME...]
# OUT gets gpu.txt, test<i>.txt (each test.sh's output), the runs' JSON and logs.tar.gz (their
# logs and gate_runs.sh's).
set -uo pipefail
out="${1:?usage: device_call.sh OUT [NAME...]}"
shift
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
rm -rf /tmp/fresh /tmp/gate && mkdir -p /tmp/fresh /tmp/gate
tar cf - --exclude='./build*' --exclude=./.git . | (cd /tmp/fresh && tar xf -)
cd /tmp/fresh || exit 1
nvidia-smi -L >"$out/gpu.txt"
for i in $(seq 1 "${TESTS:-1}"); do
  start=$(date +%s)
  (BUILD_DIR=/tmp/fresh/build bash scripts/test.sh) >"$out/test$i.txt" 2>&1
  echo "test.sh $i: exit $?, $(($(date +%s) - start)) s," \
    "$(grep -o '[0-9]*% tests passed.*' "$out/test$i.txt")"
  grep -E "Test +#[0-9]+: test_fidelity" "$out/test$i.txt"
done
timeout "${GATE_SECONDS:-400}" scripts/gate_runs.sh /tmp/gate "$@" >/tmp/gate/gate_runs.log 2>&1
echo "gate_runs.sh: exit $?"
cat /tmp/gate/gate_runs.log
cp /tmp/gate/*.json "$out/" 2>/dev/null
# The logs by name: tar expands no wildcard when it creates an archive (calls 1-4's came out empty).
(cd /tmp/gate && tar czf "$out/logs.tar.gz" ./*.log)
cat "$out/gpu.txt"
