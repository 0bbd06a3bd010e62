#!/usr/bin/env python3
"""GraphReplay of 100 GEMMs in every H200 gate call kept: its step time, its GPU-busy time and the
GPU's idle per timed batch ((step - busy) x batch), beside the host's time to submit a step, and
the sync_bench source (none before the fingerprint existed). Run from the repository root:
python3 results/h200/graph_idle/idle_by_build.py > results/h200/graph_idle/idle_by_build.txt"""
import glob
import json
import statistics

ROW = "GraphReplay/Replay/fp16/cublas/n:512/k:100/"
lines = []
for path in sorted(glob.glob("results/h200/**/clean.json", recursive=True)):
    with open(path) as f:
        run = json.load(f)
    reps = [b for b in run["benchmarks"] if b["name"].startswith(ROW)
            and b.get("run_type") == "iteration" and "gpu_busy_us" in b]
    if not reps:
        continue
    med = lambda key: statistics.median(key(b) for b in reps)
    lines.append((run["context"].get("date", "")[:16], path.replace("results/h200/", ""),
                  run["context"].get("sync_bench_source", "-")[:8], med(lambda b: b["real_time"]),
                  med(lambda b: b["gpu_busy_us"]),
                  med(lambda b: (b["real_time"] - b["gpu_busy_us"]) * b["batch"]),
                  med(lambda b: b["host_us"]), med(lambda b: b["batch"])))
print("# date, run, source, medians over its processes: step, busy, idle per batch, host submit "
      "(us), steps a batch")
for line in sorted(lines):
    print("%s %-40s %-8s step %7.2f busy %7.2f idle/batch %6.2f host %6.2f batch %g" % line)
