#!/usr/bin/env bash
# The device call behind this folder: what the host is like (lscpu, the PMU's availability),
# cause_probe.cu in PROBES processes of SECONDS_EACH s (100 ms windows; PROBE_MODE=sweep moves
# each window to the next CPU), then sync_bench's BigGemm n=8192 Async/DeviceSync rows, every
# dtype, in BIGGEMM_PROCESSES processes, each with the VM's steal and CPU ticks from /proc/stat
# before and after it (none, and no build, with 0).
#   bash results/h200/host_cause/cause_call.sh OUT   (from the repository root)
# OUT gets host.txt, summary.txt and raw.tar.gz (the probes' windows, the BigGemm JSON and ticks).
set -uo pipefail
out="${1:?usage: cause_call.sh OUT}"
here="$(cd "$(dirname "$0")" && pwd)"
raw="$(mktemp -d)"
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
{
  nvidia-smi -L
  lscpu
  echo "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid)"
  echo "smt $(cat /sys/devices/system/cpu/smt/active 2>/dev/null || echo n/a)"
  grep -m1 -o 'constant_tsc\|nonstop_tsc' /proc/cpuinfo | sort -u | tr '\n' ' '
  echo
} >"$out/host.txt" 2>&1
nvcc -O2 -arch=sm_90 -o "$raw/cause_probe" "$here/cause_probe.cu" >"$raw/probe_build.log" 2>&1 ||
  { cat "$raw/probe_build.log"; exit 1; }
for i in $(seq 1 "${PROBES:-3}"); do
  # shellcheck disable=SC2086 # PROBE_MODE is a word or nothing
  "$raw/cause_probe" "${SECONDS_EACH:-20}" 100 ${PROBE_MODE:-} >"$raw/probe-$i.txt" 2>"$raw/probe-$i.err" ||
    echo "probe $i: exit $?"
done

if [ "${BIGGEMM_PROCESSES:-6}" -gt 0 ] && ! { cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build -j16; } \
  >"$raw/build.log" 2>&1; then
  tail -20 "$raw/build.log"
  exit 1
fi
# The 'cpu' line of /proc/stat: user nice system idle iowait irq softirq steal, in USER_HZ ticks.
ticks() { awk '$1 == "cpu" { print $2, $3, $4, $5, $6, $7, $8, $9; exit }' /proc/stat; }
for i in $(seq 1 "${BIGGEMM_PROCESSES:-6}"); do
  before="$(ticks)"
  t0=$(date +%s.%N)
  ./build/bench/sync_bench --benchmark_filter='^BigGemm/(Async|DeviceSync)/[^/]+/[^/]+/n:8192/' \
    --benchmark_out="$raw/biggemm-$i.json" --benchmark_out_format=json >"$raw/biggemm-$i.log" 2>&1 ||
    echo "biggemm $i: exit $?"
  echo "$before $(ticks) $t0 $(date +%s.%N)" >"$raw/biggemm-$i.ticks"
done
tar czf "$out/raw.tar.gz" -C "$raw" .

# Per probe: the launch speed's quartiles, and the medians of every other column in the fast and
# the slow windows (a window is slow above 1.15 times the process's 10th percentile).
for i in $(seq 1 "${PROBES:-3}"); do
  f="$raw/probe-$i.txt"
  p10=$(awk '{ print $3 }' "$f" | sort -g | awk '{ v[NR] = $1 } END { print v[int(NR * 0.1) + 1] }')
  for group in fast slow; do
    awk -v cut="$(awk -v p="$p10" 'BEGIN { print 1.15 * p }')" -v g=$group \
      '(g == "slow") == ($3 > cut)' "$f" >"$raw/$group.txt"
    printf 'probe %s %s: %d windows;' "$i" "$group" "$(wc -l <"$raw/$group.txt")"
    for c in 3 4 5 6 7 8 9 10 11 12 13 15; do
      m=$(awk -v c=$c '{ print $c }' "$raw/$group.txt" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }')
      printf ' %s' "$m"
    done
    echo
  done
done | tee "$out/summary.txt"
echo "columns: us/launch cycles/launch instructions/launch alu_ns l1_ns l2_ns llc_ns mem_ns steal_cpu steal_all run_delay_us nivcsw" |
  tee -a "$out/summary.txt"
head -1 "$raw/probe-1.err" | tee -a "$out/summary.txt"
for i in $(seq 1 "${BIGGEMM_PROCESSES:-6}"); do
  read -r -a t <"$raw/biggemm-$i.ticks"
  printf 'biggemm %d: %.1f s, VM steal %d ticks, user+system %d ticks\n' "$i" \
    "$(awk -v a="${t[16]}" -v b="${t[17]}" 'BEGIN { print b - a }')" \
    $((t[15] - t[7])) $((t[8] + t[10] - t[0] - t[2]))
done | tee -a "$out/summary.txt"
