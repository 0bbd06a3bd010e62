#!/usr/bin/env bash
# One device call behind this folder, playing one CI runner. On a fresh copy of the tree (no build
# folder): scripts/test.sh TESTS times in a row; then, when BASE exists (the baseline the earlier
# runners built), scripts/ci_regress.sh BASE (the gate, as CI runs it); then
# scripts/ci_regress.sh --add-to-baseline BASE (this runner's processes into the baseline).
#   bash results/h200/runners/device_call.sh OUT BASE [TESTS]
# OUT gets gpu.txt (nvidia-smi -L), test<i>.txt (each test.sh's output), gate.md (compare's
# table), new.json (the gated run: its processes merged), ci.log (both ci_regress.sh's stderr) and
# base.json (BASE with this runner added). Prints one line a step.
set -uo pipefail
out="${1:?usage: device_call.sh OUT BASE [TESTS]}"
base_in="${2:?usage: device_call.sh OUT BASE [TESTS]}"
tests="${3:-3}"
export NCCL_NVLS_ENABLE=0
rm -rf /tmp/fresh && mkdir -p /tmp/fresh
tar cf - --exclude='./build*' --exclude=./.git . | (cd /tmp/fresh && tar xf -)
cd /tmp/fresh || exit 1
nvidia-smi -L >"$out/gpu.txt"
for i in $(seq 1 "$tests"); do
  start=$(date +%s)
  (BUILD_DIR=/tmp/fresh/build bash scripts/test.sh) >"$out/test$i.txt" 2>&1
  echo "test.sh $i: exit $?, $(($(date +%s) - start)) s," \
    "$(grep -o '[0-9]*% tests passed.*' "$out/test$i.txt")"
done
base=/tmp/base.json
rm -f "$base" && { [ ! -e "$base_in" ] || cp "$base_in" "$base"; }
if [ -e "$base" ]; then
  start=$(date +%s)
  OUT=/tmp/new.json scripts/ci_regress.sh "$base" >"$out/gate.md" 2>"$out/ci.log"
  echo "gate: exit $?, $(($(date +%s) - start)) s"
  cp /tmp/new.json "$out/new.json"
fi
start=$(date +%s)
scripts/ci_regress.sh --add-to-baseline "$base" 2>>"$out/ci.log"
echo "add-to-baseline: exit $?, $(($(date +%s) - start)) s"
cp "$base" "$out/base.json"
tail -2 "$out/ci.log"
