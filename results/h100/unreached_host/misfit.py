#!/usr/bin/env python3
"""How far a host slope fitted within calls misses the slope between calls on one GPU.

For each paired row of the gate's default set (scripts/ci_regress.sh's DEFAULT_FILTER) and each
GPU with two or more calls, over the clean runs of the CALL_DIRs:
- within: Theil-Sen slope of overhead_us on the host regressor over pairs of processes of the same
  call (what compare fits);
- across: the same over pairs of processes of different calls (what a switch of the host's speed
  between calls shows);
both clamped to [0, 3] as compare clamps its slope. The regressor is compare's: baseline_us, or
baseline_host_us where the GPU was busy for 80% of the Async baseline or more.
Prints the groups sorted by across - within; the last line is the largest misfit.

  results/h100/unreached_host/misfit.py CALL_DIR...   (from the repository root)
"""
import collections
import itertools
import json
import re
import statistics
import sys

FILTER = re.search(r"^DEFAULT_FILTER='(.*)'$", open("scripts/ci_regress.sh").read(), re.M).group(1)
IN_SET = re.compile(FILTER)


def processes(path):
    rows = collections.defaultdict(list)
    for b in json.load(open(path))["benchmarks"]:
        if b.get("run_type") == "iteration" and "overhead_us" in b and IN_SET.search(b["run_name"]):
            rows[b["run_name"]].append(b)
    return rows


def regressor(rows):
    base = [b.get("baseline_us") for b in rows]
    busy = [b["gpu_busy_us"] for b in rows if b.get("gpu_busy_us") is not None]
    if busy and None not in base and statistics.median(busy) >= 0.8 * statistics.median(base):
        return [b.get("baseline_host_us") for b in rows]
    return base


def slopes(pairs):
    return [(y2 - y1) / (x2 - x1) for (x1, y1), (x2, y2) in pairs if x1 != x2]


def clamp(s):
    return min(max(s, 0.0), 3.0)


groups = collections.defaultdict(list)  # (row, gpu) -> [[(x, y) per process] per call]
for call in sys.argv[1:]:
    for name, rows in processes(call + "/clean.json").items():
        x = regressor(rows)
        if None in x:
            continue  # a run made before baseline_host_us
        gpu = rows[0].get("gpu_uuid") or call
        groups[(name, gpu[4:12])].append(list(zip(x, [b["overhead_us"] for b in rows])))

result = []
for (name, gpu), calls in groups.items():
    if len(calls) < 2:
        continue
    within = slopes(p for c in calls for p in itertools.combinations(c, 2))
    across = slopes(
        (p, q) for a, b in itertools.combinations(calls, 2) for p in a for q in b)
    w, a = clamp(statistics.median(within)), clamp(statistics.median(across))
    result.append((a - w, name, gpu, w, a, len(calls)))
result.sort()
print(len(result), "row-GPU groups")
for d, name, gpu, w, a, n in result:
    print(f"{d:+.2f} within {w:.2f} across {a:.2f} runs {n} {gpu} {name}")
