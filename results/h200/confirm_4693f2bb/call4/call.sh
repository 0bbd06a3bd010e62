#!/usr/bin/env bash
# Call D of results/h200/confirm_4693f2bb/: BigGemm bf16 n=8192 ScalarRead/pinned and LaggedRead in
# 8 fresh processes as they are and 8 with a 200 us host spin before each step (--sync_inject),
# alternating, then the rewritten GPU test of the lagged read 3 times and test_gpu_patterns whole.
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
export BUILD_DIR=/tmp/lagged_build
( source scripts/setup.sh ) >"$OUT/build.log" 2>&1 || { echo "build failed"; tail -20 "$OUT/build.log"; exit 1; }
exe=$BUILD_DIR/bench/sync_bench
mkdir -p /tmp/lagged_runs
filter='^BigGemm/(ScalarRead/pinned|LaggedRead)/bf16/cublas/n:8192/'
for k in 1 2 3 4 5 6 7 8; do
  "$exe" --benchmark_filter="$filter" --benchmark_out=/tmp/lagged_runs/plain-$k.json \
    >/tmp/lagged_runs/plain-$k.log 2>&1 || echo "plain $k rc=$?"
  "$exe" --benchmark_filter="$filter" --sync_inject=host:200us \
    --benchmark_out=/tmp/lagged_runs/spin-$k.json >/tmp/lagged_runs/spin-$k.log 2>&1 || echo "spin $k rc=$?"
done
tar czf "$OUT/lagged_runs.tar.gz" -C /tmp lagged_runs
"$BUILD_DIR/tests/test_gpu_patterns" --gtest_filter='*LaggedRead*' --gtest_repeat=3 \
  >"$OUT/lagged_tests.txt" 2>&1; echo "lagged tests rc=$?"
timeout 120 ctest --test-dir "$BUILD_DIR" -R '^test_gpu_patterns$' --output-on-failure \
  >"$OUT/gpu_patterns.txt" 2>&1; echo "test_gpu_patterns rc=$?"
scripts/source_hash.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
grep -E "OK \]|FAILED|NOTE" "$OUT/lagged_tests.txt" | tail -8
grep -E "tests passed|tests failed" "$OUT/gpu_patterns.txt"
