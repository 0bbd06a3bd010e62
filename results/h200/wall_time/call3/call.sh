#!/usr/bin/env bash
# Call 3 of results/h200/wall_time/: test.sh twice, each on a fresh copy.
BUDGET_S=520 scripts/acceptance_call.sh "$OUT" test test; echo rc=$?
