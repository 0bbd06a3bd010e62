#!/usr/bin/env bash
# Every ordered pair of this folder's calls, and each call with itself: BASE callA/clean.json
# against NEW callB/{clean,host1us,host10,gpu10}.json, through sync_summary compare. One line a row
# and pair: the verdict, the change and the limit. Clean against clean across calls counts false
# alarms; clean against an injected run, what the gate catches (host1us injects into NullKernel
# and SmallGemm only).
#   SYNC_SUMMARY=... bash pairs.sh > pairs.txt   (from this folder; default ../../../build/...)
set -uo pipefail
S="${SYNC_SUMMARY:-../../../build/summary/sync_summary}"
calls=(call*/)
for a in "${calls[@]}"; do
  for b in "${calls[@]}"; do
    for run in clean host1us host10 gpu10; do
      [ "$a" = "$b" ] && [ "$run" = clean ] && continue
      "$S" compare --format=csv "${a}clean.json" "${b}$run.json" |
        awk -F, -v pair="${a%/} clean -> ${b%/} $run" '
          NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
          {
            printf "%-28s %-48s %+8.1f%% limit %7.3f  %s\n", pair, $col["benchmark"],
              $col["change_pct"], $col["limit"], $col["verdict"]
          }'
    done
  done
done
