#!/usr/bin/env python3
"""Where a sync_bench run's wall time went, from its JSON alone (the wall_s counter).

For each family (and BigGemm by size, paired or not): the sum of wall_s, and the part spent in the
timed batches, estimated as steps * real_time (+ steps * baseline_us for a paired row, whose
baseline batches are as long). The rest is outside the timed batches: set-up, warm-up, batch
sizing, each batch's one-period lead-in, the accounting pass and the GPU-busy probe.
    python3 outside_rounds.py RUN.json
"""
import collections
import json
import statistics
import sys


def main(path):
    with open(path) as f:
        run = json.load(f)
    groups = collections.defaultdict(list)
    for b in run["benchmarks"]:
        if "wall_s" not in b or "steps" not in b:
            continue
        parts = b["name"].split("/")
        key = parts[0]
        if key == "BigGemm":
            size = next(p for p in parts if p.startswith("n:"))
            key += " " + size + (" paired" if "baseline_us" in b else " unpaired")
        timed = b["steps"] * b["real_time"] * 1e-6
        if "baseline_us" in b:
            timed += b["steps"] * b["baseline_us"] * 1e-6
        groups[key].append((b["wall_s"], timed))
    print("%-26s %5s %9s %9s %22s" % ("rows", "n", "wall (s)", "timed (s)", "outside per row (ms)"))
    total_wall = total_timed = 0.0
    for key, rows in sorted(groups.items(), key=lambda kv: -sum(w for w, _ in kv[1])):
        wall = sum(w for w, _ in rows)
        timed = sum(t for _, t in rows)
        total_wall += wall
        total_timed += timed
        outside = statistics.median(w - t for w, t in rows) * 1e3
        print("%-26s %5d %9.1f %9.1f %22.0f" % (key, len(rows), wall, timed, outside))
    print("%-26s %5s %9.1f %9.1f" % ("all", "", total_wall, total_timed))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
