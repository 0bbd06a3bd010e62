#!/usr/bin/env bash
# How far the wait references moved between two clean runs, against the limit of the BigGemm row
# each stands for (docs/ci_gate.md, "A wait after a long GPU step"): every ordered pair of the
# CALL_DIRs, each clean run cut to the gate's set as pool.sh cuts it. One line a pair: the pair,
# SpinKernel/DeviceSync/us:1000's change (us), 1 if it is gated, BigGemm/DeviceSync bf16 n=4096's
# limit (us), then the same three for ScalarRead/pinned. From the repository root, after a build:
#   results/h200/wait_reference/window.sh CALL_DIR... > window.txt   (SYNC_SUMMARY picks the tool)
set -euo pipefail
summary="${SYNC_SUMMARY:-build/summary/sync_summary}"
filter="$(sed -n "s/^DEFAULT_FILTER='\(.*\)'$/\1/p" scripts/ci_regress.sh)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
runs=()
for d in "$@"; do
  name="$work/$(echo "${d%/}" | sed 's|results/h200/||; s|/|-|g').json"
  "$summary" merge --filter="$filter" --output="$name" "$d/clean.json" 2>/dev/null
  runs+=("$name")
done
for a in "${runs[@]}"; do
  for b in "${runs[@]}"; do
    [ "$a" = "$b" ] && continue
    "$summary" compare --format=csv "$a" "$b" 2>/dev/null | awk -F, \
      -v pair="$(basename "$a" .json)>$(basename "$b" .json)" '
      $1 == "SpinKernel/DeviceSync/us:1000" { rd = $8; rg = ($4 !~ /^not gated/) }
      $1 == "SpinKernel/ScalarRead/pinned/us:1000" { rs = $8; sg = ($4 !~ /^not gated/) }
      $1 == "BigGemm/DeviceSync/bf16/cublas/n:4096" { ld = $10 }
      $1 == "BigGemm/ScalarRead/pinned/bf16/cublas/n:4096" { ls = $10 }
      END { print pair, rd, rg, ld, rs, sg, ls }' || true
  done
done
