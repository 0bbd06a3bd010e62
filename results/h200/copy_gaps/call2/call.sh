#!/usr/bin/env bash
# copy_gaps call 2: copy_gap_probe.cu (with the mapped publish) in 4 processes.
#   bash .device_call_gaps2.sh OUT   (from the repository root, results/ moved aside)
set -uo pipefail
out="${1:?usage: OUT}"
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
cuda="$(dirname "$(dirname "$(command -v nvcc)")")"
nvidia-smi -L | tee "$out/gpu.txt"
nvidia-smi --query-gpu=driver_version,clocks.sm,power.draw --format=csv >>"$out/gpu.txt"
start=$(date +%s)
nvcc -O2 -arch=sm_90 -I"$cuda/extras/CUPTI/include" -o /tmp/copy_gap_probe .copy_gap_probe.cu \
  -L"$cuda/extras/CUPTI/lib64" -Xlinker -rpath -Xlinker "$cuda/extras/CUPTI/lib64" -lcublas -lcupti \
  >"$out/probe_build.log" 2>&1 || { cat "$out/probe_build.log"; exit 1; }
for i in 1 2 3 4; do
  echo "## process $i"
  /tmp/copy_gap_probe 15 || echo "# copy_gap_probe: exit $?"
done >"$out/probe.txt" 2>&1
echo "probe: $(($(date +%s) - start)) s" | tee "$out/summary.txt"
grep -E "^(untraced|## )" "$out/probe.txt" | grep -E "##|d2h,gemm|mapped|^untraced (gemm|kernel|d2h,kernel|d2h,memset) " | tee -a "$out/summary.txt"
