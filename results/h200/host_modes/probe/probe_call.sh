#!/usr/bin/env bash
# The device call behind mode_probe-*.txt: builds mode_probe.cu and runs it in PROCESSES
# processes of SECONDS each (20 ms windows), then sums each up: the host time per launch by
# half (free, pinned), and how long the thread stayed in one speed.
#   bash probe_call.sh OUT      (from the repository root, results/ moved aside; ../mode_probe.cu copied beside it)
set -uo pipefail
out="${1:?usage: probe_call.sh OUT}"
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
nvcc -O2 -arch=sm_90 -o /tmp/mode_probe mode_probe.cu || exit 1
nvidia-smi -L | tee "$out/gpu.txt"
for i in $(seq 1 "${PROCESSES:-3}"); do
  /tmp/mode_probe "${SECONDS_EACH:-20}" 20 >"$out/mode_probe-$i.txt" || echo "process $i: exit $?"
  # Per half: quantiles of the host time per launch, how many CPUs the thread ran on, and runs
  # of "slow" windows (over 1.15x the half's 10th percentile) and fast ones, in time order.
  for half in 0 1; do
    name=$([ $half -eq 0 ] && echo free || echo pinned)
    awk -v h=$half '$5 == h { print $2 }' "$out/mode_probe-$i.txt" >/tmp/half.txt
    sort -g /tmp/half.txt >/tmp/half_sorted.txt
    n=$(wc -l </tmp/half_sorted.txt)
    q() { sed -n "$(awk -v n="$n" -v f="$1" 'BEGIN { print int(n * f) + 1 }')p" /tmp/half_sorted.txt; }
    cut=$(awk -v p="$(q 0.1)" 'BEGIN { print 1.15 * p }')
    cpus=$(awk -v h=$half '$5 == h { print $3 }' "$out/mode_probe-$i.txt" | sort -u | wc -l)
    printf 'process %s %s: %d windows, us/launch p10 %s median %s p90 %s max %s; %d CPUs;' \
      "$i" "$name" "$n" "$(q 0.1)" "$(q 0.5)" "$(q 0.9)" "$(tail -1 /tmp/half_sorted.txt)" "$cpus"
    awk -v cut="$cut" '{ cur = $1 > cut; if (cur != prev || NR == 1) { runs++; run = 0 } run++; prev = cur
        if (cur) { slow++; if (run > ls) ls = run } else if (run > lf) lf = run }
      END { printf " slow windows %d (over %.2f us), %d runs, longest slow %d, longest fast %d windows\n", slow, cut, runs, ls, lf }' /tmp/half.txt
  done
done | tee "$out/summary.txt"
