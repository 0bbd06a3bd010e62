#!/usr/bin/env bash
# The device call behind this folder, run from the repository root with base26.json there (the
# merge README.md names): the CI gate as CI runs it, on a fresh copy of the tree, against that
# baseline; then scripts/gate_runs.sh and scripts/gate_rates.sh --base against the same.
#   bash ci_call.sh OUT
set -uo pipefail
out="$1"
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
rm -rf /tmp/fresh /tmp/gate && mkdir -p /tmp/fresh /tmp/gate
tar cf - --exclude='./build*' --exclude=./.git --exclude=./ci_call.sh --exclude=./base26.json . |
  (cd /tmp/fresh && tar xf -)
cp base26.json /tmp/base26.json
cd /tmp/fresh || exit 1
nvidia-smi -L >"$out/gpu.txt"
start=$(date +%s)
(source scripts/setup.sh) >"$out/build.log" 2>&1
echo "build: exit $?, $(($(date +%s) - start)) s"
start=$(date +%s)
OUT=/tmp/new.json scripts/ci_regress.sh /tmp/base26.json >"$out/gate.md" 2>"$out/ci.log"
echo "ci_regress.sh: exit $?, $(($(date +%s) - start)) s"
cp /tmp/new.json "$out/new.json"
tail -3 "$out/gate.md"
scripts/gate_runs.sh /tmp/gate 2>&1
scripts/gate_rates.sh --base /tmp/base26.json /tmp/gate >"$out/rates.txt" 2>&1
echo "gate_rates.sh: exit $?"
grep -A12 "^Totals" "$out/rates.txt"
tar czf "$out/gate_runs.tar.gz" -C /tmp/gate .
cat "$out/gpu.txt"
