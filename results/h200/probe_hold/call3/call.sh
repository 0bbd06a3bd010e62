#!/usr/bin/env bash
# test.sh on a fresh copy and the headline (acceptance_call.sh), then the default sweep through
# run.sh with every console line timestamped (where its time goes), then --benchmark_filter=SmallGemm.
set -uo pipefail
out="$1"
BUDGET_S=330 bash scripts/acceptance_call.sh "$out" test headline_long >"$out/acceptance.txt" 2>&1
tree="$(ls -d /tmp/acceptance/tree*/ | tail -1)"
stamp() { perl -MTime::HiRes=time -ne 'BEGIN{$|=1} printf "%.4f %s", time, $_'; }
t0=$(date +%s.%N)
(cd "$tree" && BUILD_DIR="$tree/build" OUT_JSON=/tmp/sweep.json stdbuf -oL -eL bash scripts/run.sh 2>&1) | stamp >"$out/sweep_ts.txt"
echo "sweep: run.sh exit ${PIPESTATUS[0]}, $(perl -e "printf '%.1f', $(date +%s.%N) - $t0") s" | tee -a "$out/summary.txt"
t1=$(date +%s.%N)
timeout 120 "$tree/build/bench/sync_bench" --benchmark_filter=SmallGemm --benchmark_out=/tmp/smallgemm.json --benchmark_out_format=json >/tmp/smallgemm.txt 2>&1
echo "smallgemm: exit $?, $(perl -e "printf '%.1f', $(date +%s.%N) - $t1") s" | tee -a "$out/summary.txt"
gzip -9c /tmp/sweep.json >"$out/sweep.json.gz"
gzip -9c /tmp/smallgemm.json >"$out/smallgemm.json.gz"
gzip -9 "$out/sweep_ts.txt"
cat "$out/summary.txt"
