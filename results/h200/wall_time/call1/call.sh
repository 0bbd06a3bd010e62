#!/usr/bin/env bash
# Call 1 of results/h200/wall_time/: test.sh on a fresh copy, the default sweep (with wall_s) and
# SmallGemm, the headline at 2 s a benchmark; then the sweep's "Where the run's time went".
set -u
BUDGET_S=565 scripts/acceptance_call.sh "$OUT" test sweep headline_long
echo "acceptance_call.sh rc=$?"
b=$(ls -d /tmp/acceptance/tree*/build | tail -1)
"$b/summary/sync_summary" report /tmp/acceptance/logs/sweep.json >"$OUT/sweep_report.txt" 2>&1
sed -n "/Where the run's time went/,/^$/p" "$OUT/sweep_report.txt"
cat "$OUT/summary.txt"
