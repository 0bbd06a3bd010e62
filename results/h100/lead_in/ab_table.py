#!/usr/bin/env python3
"""The A/B table of a lead_in call: per benchmark, the old build's (batches from an idle GPU) and
the new build's (batches after a lead-in) step, baseline and paired overhead, median and range over
the processes of each side.  Usage: ab_table.py DIR...  (each DIR holds ab/oldN.json, ab/newN.json)
"""
import glob
import json
import os
import statistics
import sys


def rows(paths):
    out = {}
    for path in paths:
        for b in json.load(open(path))["benchmarks"]:
            if b.get("error_occurred") or b.get("skipped"):
                continue
            name = b["name"].replace("/manual_time", "")
            out.setdefault(name, []).append(b)
    return out


def span(values, fmt="{:.2f}"):
    if not values:
        return "-"
    med = statistics.median(values)
    return (fmt + " (" + fmt + "-" + fmt + ")").format(med, min(values), max(values))


def main(dirs):
    old, new = [], []
    for d in dirs:
        old += sorted(glob.glob(os.path.join(d, "ab", "old*.json")))
        new += sorted(glob.glob(os.path.join(d, "ab", "new*.json")))
    o, n = rows(old), rows(new)
    print(f"{len(old)} old processes, {len(new)} new; us per step: median (min-max) over processes")
    print(f"{'benchmark':52s} {'B':>4s} | {'old step':>22s} {'new step':>22s} | "
          f"{'old baseline':>22s} {'new baseline':>22s} | {'old overhead':>20s} {'new overhead':>20s}"
          f" | {'new-old ovh':>11s}")
    for name in o:
        if name not in n:
            continue
        def col(side, key):
            return [b[key] for b in side[name] if key in b]
        ob, nb = col(o, "baseline_us"), col(n, "baseline_us")
        oo, no = col(o, "overhead_us"), col(n, "overhead_us")
        shift = (f"{statistics.median(no) - statistics.median(oo):+.2f}" if oo and no else "-")
        batch = statistics.median(col(n, "batch"))
        print(f"{name:52s} {batch:4.0f} | {span(col(o, 'real_time')):>22s} "
              f"{span(col(n, 'real_time')):>22s} | {span(ob):>22s} {span(nb):>22s} | "
              f"{span(oo):>20s} {span(no):>20s} | {shift:>11s}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["."])
