#!/usr/bin/env bash
# A second H200 call after the clang-tidy mends (285f497): the headline rows and BigGemm n=8192 in
# fresh processes (acceptance_call.sh), then every GPU test program and test_cli in three separate
# processes each, on the build acceptance_call.sh made.
out="$1"
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
BUDGET_S=300 BIGGEMM_PROCESSES=3 scripts/acceptance_call.sh "$out" headline_long biggemm \
  >"$out/call.log" 2>&1
echo "acceptance_call.sh: exit $?" >>"$out/call.log"
b="$(ls -d /tmp/acceptance/tree* | tail -1)/build/tests"
mkdir -p /tmp/gpu_tests
{
  nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
  for i in 1 2 3; do
    for t in test_gpu_patterns test_gpu_ops test_gpu_copies test_gpu_graphs test_gpu_multigpu test_cli; do
      (cd "$b" && timeout 120 "./$t") >"/tmp/gpu_tests/$t.$i.txt" 2>&1
      echo "$t process $i: exit $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "/tmp/gpu_tests/$t.$i.txt" | tr '\n' ' ')"
    done
  done
} >"$out/gpu_tests.txt" 2>&1
tar czf "$out/gpu_tests.tar.gz" -C /tmp gpu_tests
