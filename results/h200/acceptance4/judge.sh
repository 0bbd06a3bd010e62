#!/usr/bin/env bash
# Judges acceptance3's five calls and the three here together with scripts/acceptance.sh: one
# sync_bench (bench/ and common/ as 29013f3) on eight H200s. The gate's runs are first cut to the
# gate's default set as it is now (scripts/ci_regress.sh's DEFAULT_FILTER, sync_summary merge
# --filter: these runs hold rows that have left it since), and judged by the sync_summary built
# from this tree (../gate_pool/judge.sh). Everything else is judged as measured. Writes
# verdict.txt (and prints it).
#
#   results/h200/acceptance4/judge.sh   (from the repository root, after a build)
set -uo pipefail
results/h200/gate_pool/judge.sh results/h200/acceptance3/call*/ results/h200/acceptance4/call*/ |
  tee results/h200/acceptance4/verdict.txt
