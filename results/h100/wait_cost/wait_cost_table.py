#!/usr/bin/env python3
"""Tabulates wait_cost.cpp's output: wait_cost_table.py FILE... > wait_cost_h100.txt

Per process and workload, the launch's median host time (us) at each time away A, for a busy and
an idle GPU; then, pooled, what the README quotes: idle against busy, each A against A = 0, how
often a spin was interrupted, and the host's own 1 MiB chase after each A.
"""
import re
import statistics
import sys
from collections import defaultdict

GPU_TIME = re.compile(r"^(\S+)\s+GPU time ([0-9.]+) us a launch")
ROW = re.compile(r"^(\S+)\s+(\S+)\s+away\s+(\d+) us\s+n=\s*(\d+)\s+median\s+(\S+)"
                 r"(?:.*quiet n=\s*(\d+) median\s+(\S+) \| interrupted n=\s*(\d+) median\s+(\S+))?")


def read(path):
    """The rows of one process's output, and each workload's GPU time T (us)."""
    rows, gpu_us = {}, {}
    for line in open(path):
        g = GPU_TIME.match(line)
        if g:
            gpu_us[g.group(1)] = float(g.group(2))
        m = ROW.match(line)
        if m:
            name, state, away, n, med, nq, mq, ni, mi = m.groups()
            rows[(name, state, int(away))] = dict(
                median=float(med), quiet=int(nq) if nq else None, interrupted=int(ni) if ni else None,
                quiet_median=float(mq) if mq else None, interrupted_median=float(mi) if mi else None)
    return rows, gpu_us


def span(values):
    return f"{min(values):.2f}-{max(values):.2f}" if values else "-"


def print_medians(title, ratios, what):
    print(title)
    for a in sorted(ratios):
        v = ratios[a]
        print(f"  A={a:5d} us: {span(v)} (median {statistics.median(v):.2f}, {len(v)} {what})")


def main(paths):
    procs = {p: read(p) for p in paths}
    idle_over_busy = defaultdict(list)   # away -> ratios
    really_idle = []                     # idle/busy where the GPU idled: A > 1.3 T + 50 us
    over_zero = defaultdict(list)        # (workload, away) -> ratios, busy
    interrupted = defaultdict(lambda: [0, 0])  # away -> [interrupted, all]
    chase = defaultdict(list)            # away -> ratio to away 0
    quiet_vs_int = defaultdict(list)     # away -> interrupted / quiet median
    for path, (rows, gpu_us) in procs.items():
        print(f"== {path}")
        aways = sorted({a for (_, _, a) in rows})
        print(f"{'':32s}" + "".join(f"{a:>9d}" for a in aways) + "   (A, us)")
        for (name, state) in sorted({(n, s) for (n, s, _) in rows}):
            print(f"{name:26s} {state:5s}" + "".join(
                f"{rows[(name, state, a)]['median']:9.2f}" for a in aways))
        for (name, state, a), r in rows.items():
            if name.startswith("HostChase"):
                chase[a].append(r["median"] / rows[(name, state, 0)]["median"])
                continue
            if state == "idle":
                ratio = r["median"] / rows[(name, "busy", a)]["median"]
                idle_over_busy[a].append(ratio)
                # The probe's own test of a drain: below it the previous launch still runs.
                if a > 1.3 * gpu_us[name] + 50:
                    really_idle.append(ratio)
            else:
                over_zero[(name, a)].append(r["median"] / rows[(name, "busy", 0)]["median"])
            if r["interrupted"] is not None and a > 0:
                interrupted[a][0] += r["interrupted"]
                interrupted[a][1] += r["interrupted"] + r["quiet"]
                if r["quiet"] >= 5 and r["interrupted"] >= 5:
                    quiet_vs_int[a].append(r["interrupted_median"] / r["quiet_median"])
    print(f"\nover the {len(procs)} processes (medians of each process):")
    print_medians("idle GPU against busy GPU, same A, every workload:", idle_over_busy, "pairs")
    print(f"  where the GPU really idled (A > 1.3 T + 50 us): {span(really_idle)} "
          f"(median {statistics.median(really_idle):.2f}, {len(really_idle)} pairs)")
    print("launch after A against A = 0, busy GPU:")
    for name in sorted({n for (n, _) in over_zero}):
        print(f"  {name:26s}" + "  ".join(
            f"A={a}: {span(over_zero[(name, a)])}" for a in sorted(a for (n, a) in over_zero if n == name) if a > 0))
    if interrupted:
        print("spins interrupted (a gap over 3 us between two clock reads), every workload and state:")
        for a in sorted(interrupted):
            i, n = interrupted[a]
            print(f"  A={a:5d} us: {i} of {n} ({100 * i / n:.0f}%)")
        print_medians("interrupted rounds' median over quiet rounds', where each had 5 or more:",
                      quiet_vs_int, "cells")
    print("host's 1 MiB chase after A against A = 0:")
    for a in sorted(chase):
        if a > 0:
            print(f"  A={a:5d} us: {span(chase[a])}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: wait_cost_table.py FILE...")
    main(sys.argv[1:])
