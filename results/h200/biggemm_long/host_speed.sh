#!/usr/bin/env bash
# Does a BigGemm n=8192 process's DeviceSync overhead follow how fast its host was? For every
# BigGemm process JSON kept under results/h200 (acceptance2's and acceptance3's logs, biggemm8192,
# biggemm_order, biggemm_long): the host's time per step submitting the Async GEMMs (host_us, the
# median over the process's 9 dtype/backend rows) against the DeviceSync overhead in % of the
# Async step (the median and the largest of the 9). Prints one line a process, then by host speed, then Spearman's
# rank correlation. Needs a built sync_summary.
#
#   results/h200/biggemm_long/host_speed.sh [SYNC_SUMMARY]   (from the repository root)
set -euo pipefail
export LC_ALL=C
tool="${1:-build/summary/sync_summary}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for tgz in results/h200/acceptance[23]/call*/logs.tar.gz; do
  c="$(basename "$(dirname "$(dirname "$tgz")")")-$(basename "$(dirname "$tgz")")"
  # grep without -q: tar killed by SIGPIPE would read as no match under pipefail.
  tar tzf "$tgz" | grep '^\./biggemm/run-' >/dev/null || continue
  mkdir -p "$work/x/$c" && tar xzf "$tgz" -C "$work/x/$c" ./biggemm
  for f in "$work/x/$c"/biggemm/run-*.json; do cp "$f" "$work/$c-$(basename "$f")"; done
done
for f in results/h200/biggemm8192/call[1235]-process*.json results/h200/biggemm_order/call*/order-*.json \
  results/h200/biggemm_long/call*/*.json; do
  cp "$f" "$work/$(echo "${f#results/h200/}" | tr / -)"
done
for f in "$work"/*.json; do
  name="$(basename "$f" .json)"
  host="$("$tool" report --format=csv --metric=host_us --filter='^BigGemm/Async/.*/n:8192$' "$f" |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["median"] }' | sort -g |
    awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')"
  "$tool" report --format=csv --metric=overhead_us --filter='^BigGemm/DeviceSync/.*/n:8192$' "$f" |
    awk -F, -v name="$name" -v host="$host" '
      NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { v[++k] = 100 * $c["overhead_us"] / $c["baseline_us"] }
      END { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
            printf "%.1f %.2f %.2f %s\n", host, k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2, v[k], name }'
done | sort -g >"$work/processes.txt"
echo "$(wc -l <"$work/processes.txt") processes: Async host us/step, DeviceSync overhead % of the step (median, largest of 9 rows)"
awk '{ printf "  %5.1f us  median %.2f%%  largest %.2f%%  %s\n", $1, $2, $3, $4 }' "$work/processes.txt"
echo "by the host's time per step:"
awk '{ b = $1 < 16 ? 1 : $1 < 20 ? 2 : $1 < 25 ? 3 : 4; n[b]++; if ($3 >= 3) o[b]++
       if (!(b in lo) || $2 < lo[b]) lo[b] = $2; if (!(b in hi) || $2 > hi[b]) hi[b] = $2
       if ($3 > w[b]) w[b] = $3 }
     END { split("under 16 us,16-20 us,20-25 us,25 us or more", label, ",")
           for (b = 1; b <= 4; b++) if (n[b])
             printf "  %-14s %2d processes, %2d with a row at 3%% or more (largest %.2f%%), medians %.2f-%.2f%%\n",
               label[b], n[b], o[b], w[b], lo[b], hi[b] }' "$work/processes.txt"
# Spearman: Pearson's correlation of the ranks (ties get the mean of their ranks).
rank() { awk -v col="$1" '{ print $col, NR }' "$work/processes.txt" | sort -g -k1,1 |
  awk '{ v[NR] = $1; id[NR] = $2 } END { i = 1; while (i <= NR) { j = i; while (j < NR && v[j + 1] == v[i]) j++
         for (k = i; k <= j; k++) print id[k], (i + j) / 2; i = j + 1 } }' | sort -n -k1,1; }
for col in 2 3; do
  join <(rank 1) <(rank "$col") | awk -v what="$([ "$col" = 2 ] && echo median || echo largest)" '
    { x[NR] = $2; y[NR] = $3; sx += $2; sy += $3 }
    END { mx = sx / NR; my = sy / NR
          for (i = 1; i <= NR; i++) { a += (x[i] - mx) * (y[i] - my); b += (x[i] - mx) ^ 2; c += (y[i] - my) ^ 2 }
          printf "Spearman, host time against the %s overhead: %.2f\n", what, a / sqrt(b * c) }'
done
