#!/usr/bin/env bash
# One device call: the gate's four runs at 20 processes each (scripts/acceptance_call.sh OUT gate),
# then the wait ladder on the same build: LADDER processes (default 20) of SpinKernel's DeviceSync
# and ScalarRead/pinned after 10, 100 and 1000 us of GPU work and BigGemm bf16 n=4096's, merged
# into OUT/ladder.json. What it is for: does a sync after a 100 us step wait as one after 10 us
# or as one after 1 ms, and does BigGemm's overhead go with SpinKernel's after 1 ms, process by
# process (README.md here). Run from the repository root on the GPU machine:
#   results/h200/wait_reference/call.sh OUT
set -uo pipefail
out="$1"
k="${LADDER:-20}"
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s)
BUDGET_S="${BUDGET_S:-470}" ACCEPTANCE_WORK=/tmp/acc scripts/acceptance_call.sh "$out" gate \
  >"$out/call.log" 2>&1
gate_rc=$?
t1=$(date +%s)
tree="$(ls -d /tmp/acc/tree*/ 2>/dev/null | tail -1)"
bench="${tree}build/bench/sync_bench" summary="${tree}build/summary/sync_summary"
filter='^(SpinKernel/(DeviceSync|ScalarRead/pinned)/us:(10|100|1000)/|BigGemm/(DeviceSync|ScalarRead/pinned)/bf16/cublas/n:4096/)'
if [ -x "$bench" ]; then
  SYNC_BENCH="$bench" timeout 100 scripts/processes.sh "$k" /tmp/ladder --benchmark_filter="$filter" \
    >/tmp/ladder.log 2>&1
  echo "ladder: processes.sh exit $?" >>"$out/call.log"
  "$summary" merge --output="$out/ladder.json" /tmp/ladder/run-*.json >>"$out/call.log" 2>&1
else
  echo "ladder: no build at $bench" >>"$out/call.log"
fi
t2=$(date +%s)
cat "$out/summary.txt" 2>/dev/null
echo "gate part exit $gate_rc in $((t1 - t0)) s; ladder $((t2 - t1)) s"
[ -r "$out/ladder.json" ] && jq -r '.benchmarks[] | select(.run_type=="iteration") |
  "\(.name | sub("/manual_time$"; "")) \(.overhead_us * 10 | round / 10)"' "$out/ladder.json" |
  awk '{ v[$1] = v[$1] " " $2 } END { for (n in v) print n ":" v[n] }' | sort
