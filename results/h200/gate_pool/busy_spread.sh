#!/usr/bin/env bash
# How far machines of one kind differ in the GPU's time for the same work: for each row whose
# process said it was GPU-bound (gpu_bound 1, unpaired), the median gpu_busy_us of each GPU over
# the clean runs kept in results/h200 (gate, host_distance, acceptance*, spin10), and the spread of
# those medians (max / min - 1). Rows seen on 3 GPUs or more. From the repository root:
#   results/h200/gate_pool/busy_spread.sh
set -euo pipefail
shopt -s nullglob
files=(results/h200/gate/call*/clean.json results/h200/host_distance/call*/clean.json
  results/h200/acceptance*/call*/clean.json results/h200/spin10/call*/clean.json)
jq -r '.benchmarks[] | select(.run_type == "iteration" and .gpu_bound == 1 and .gpu_busy_us != null
    and .overhead_us == null) | [(.name | sub("/manual_time$"; "")), .gpu_uuid, .gpu_busy_us] | @tsv' \
  "${files[@]}" | sort -t $'\t' -k1,1 -k2,2 -k3,3g |
  awk -F'\t' '
    function flush() { if (n) { m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
                                 med[row] = med[row] " " m; gpus[row]++ } n = 0 }
    { if ($1 != row || $2 != gpu) { flush(); row = $1; gpu = $2 } v[++n] = $3 }
    END { flush()
          for (r in med) { if (gpus[r] < 3) continue
            k = split(substr(med[r], 2), x, " "); lo = x[1]; hi = x[1]
            for (i = 2; i <= k; ++i) { if (x[i] < lo) lo = x[i]; if (x[i] > hi) hi = x[i] }
            printf "%-60s %2d GPUs  busy %8.2f-%8.2f us  %4.1f%%\n", r, k, lo, hi, 100 * (hi / lo - 1) } }' |
  sort
