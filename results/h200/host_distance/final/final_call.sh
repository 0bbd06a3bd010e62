#!/usr/bin/env bash
# The committed tree on a fresh copy: scripts/test.sh, then scripts/run.sh (the main job).
set -uo pipefail
out="$1"
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
rm -rf /tmp/fresh && mkdir -p /tmp/fresh
tar cf - --exclude='./build*' --exclude=./.git --exclude=./final_call.sh . | (cd /tmp/fresh && tar xf -)
cd /tmp/fresh || exit 1
nvidia-smi -L >"$out/gpu.txt"
start=$(date +%s)
(BUILD_DIR=/tmp/fresh/build bash scripts/test.sh) >"$out/test1.txt" 2>&1
echo "test.sh: exit $?, $(($(date +%s) - start)) s, $(grep -o '[0-9]*% tests passed.*' "$out/test1.txt")"
grep -E "Test +#[0-9]+: test_fidelity" "$out/test1.txt"
start=$(date +%s)
OUT_JSON=$out/sweep.json bash scripts/run.sh >"$out/run.txt" 2>&1
echo "run.sh: exit $?, $(($(date +%s) - start)) s"
cat "$out/gpu.txt"
