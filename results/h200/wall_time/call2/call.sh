#!/usr/bin/env bash
# Call 2 of results/h200/wall_time/: test.sh twice, each on a fresh copy.
BUDGET_S=565 scripts/acceptance_call.sh "$OUT" test test; echo rc=$?
