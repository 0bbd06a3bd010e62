#!/usr/bin/env bash
# Call 4 of results/h200/wall_time/: the default sweep again (built on a fresh copy), SmallGemm,
# then the sweep's "Where the run's time went".
BUDGET_S=240 scripts/acceptance_call.sh "$OUT" sweep; echo rc=$?
b=$(ls -d /tmp/acceptance/tree*/build | tail -1)
"$b/summary/sync_summary" report /tmp/acceptance/logs/sweep.json >"$OUT/sweep_report.txt" 2>&1
sed -n "/Where the run's time went/,/^$/p" "$OUT/sweep_report.txt"
