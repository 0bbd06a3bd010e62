#!/usr/bin/env bash
# Device call 3 (a third H200): build the tree, then test_gpu_multigpu in 3 processes (its new
# test runs SyncAll over 2, 4 and 8 streams of the GPU).
set -uo pipefail
OUT="$1"
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
if ! { cmake -S . -B /tmp/b3 -DCMAKE_BUILD_TYPE=Release >"$OUT/build.log" 2>&1 &&
  cmake --build /tmp/b3 -j16 --target test_gpu_multigpu sync_bench >>"$OUT/build.log" 2>&1; }; then
  echo "build failed"
  tail -20 "$OUT/build.log"
  exit 1
fi
for i in 1 2 3; do
  /tmp/b3/tests/test_gpu_multigpu >"$OUT/multigpu-$i.log" 2>&1
  echo "test_gpu_multigpu process $i: exit $? ($(grep -cE '^\[       OK \]' "$OUT/multigpu-$i.log") ok, $(grep -cE '^\[  FAILED  \]' "$OUT/multigpu-$i.log") failed lines)"
done
grep -A8 "OneGpuNamedEightTimes" "$OUT/multigpu-1.log" | head -10
