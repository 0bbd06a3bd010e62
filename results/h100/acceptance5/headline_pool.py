#!/usr/bin/env python3
"""The headline rows' paired overheads over every H100 call that ran them 2 s a benchmark
(results/h100/acceptance*/call*/headline_long.json): each call's median over its processes, and
the processes against the median of all of them.

  python3 results/h100/acceptance5/headline_pool.py   (from the repository root)
"""
import glob
import json
import statistics

calls = sorted(glob.glob("results/h100/acceptance*/call*/headline_long.json"))
call_medians, processes, gpus = {}, {}, set()
for path in calls:
    with open(path) as f:
        run = json.load(f)
    gpus.add(run["context"].get("gpu_uuid", "?"))
    rows = {}
    for b in run["benchmarks"]:
        if b.get("run_type") == "iteration" and "overhead_us" in b:
            rows.setdefault(b["name"].replace("/manual_time", ""), []).append(b["overhead_us"])
    for name, values in rows.items():
        call_medians.setdefault(name, []).append(statistics.median(values))
        processes.setdefault(name, []).extend(values)
print(f"{len(calls)} calls on {len(gpus)} GPUs")
for name, medians in call_medians.items():
    pooled = statistics.median(processes[name])
    within = sum(abs(v / pooled - 1) <= 0.05 for v in processes[name])
    print(f"{name}: {len(processes[name])} processes, median {pooled:.2f} us; call medians "
          f"{min(medians):.2f}-{max(medians):.2f} us ({100 * (min(medians) / pooled - 1):+.1f}%/"
          f"{100 * (max(medians) / pooled - 1):+.1f}%); processes within +-5% of the pooled "
          f"median: {within} of {len(processes[name])}")
