#!/usr/bin/env python3
"""Out-of-sample check of compare's unreached-host term: every ordered pair of clean runs in which
at least one side is a call the term was not chosen on.

For each pair (BASE, NEW) of `clean.json` runs, cut to the gate's default set as judge.sh cuts
them, it runs `sync_summary compare --format=csv` and counts, over the gated rows: those flagged (a
false alarm: both runs are the same build, unchanged), the host-adjusted ones and those among them
where the term was active (host_unreached > 0), and how close the closest row came to its limit
(|delta| / limit).

  pairs.py --summary BIN --new DIR... --old DIR...   (from the repository root)

A summary built before the term has no host_unreached column; its rows count as 0 there.
"""
import argparse
import csv
import io
import itertools
import os
import re
import subprocess
import sys
import tempfile


def default_filter():
    with open("scripts/ci_regress.sh") as f:
        m = re.search(r"^DEFAULT_FILTER='(.*)'$", f.read(), re.M)
    if not m:
        sys.exit("pairs.py: no DEFAULT_FILTER in scripts/ci_regress.sh")
    return m.group(1)


def cut(summary, run, out, flt):
    subprocess.run([summary, "merge", f"--filter={flt}", f"--output={out}", run],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--summary", required=True)
    ap.add_argument("--new", nargs="+", required=True, help="calls out of sample")
    ap.add_argument("--old", nargs="*", default=[], help="calls the term was chosen on")
    a = ap.parse_args()
    flt = default_filter()
    tmp = tempfile.mkdtemp()
    runs = {}
    for d in a.new + a.old:
        out = os.path.join(tmp, f"{len(runs)}.json")
        cut(a.summary, os.path.join(d, "clean.json"), out, flt)
        runs[d] = out
    pairs = gated = adjusted = flagged = active = 0
    closest = (0.0, "")
    flags = []
    for b, n in itertools.permutations(runs, 2):
        if b not in a.new and n not in a.new:
            continue
        pairs += 1
        res = subprocess.run([a.summary, "compare", "--format=csv", runs[b], runs[n]],
                             capture_output=True, text=True)
        if res.returncode not in (0, 1):
            sys.exit(f"pairs.py: compare {b} {n} exited {res.returncode}: {res.stderr}")
        for row in csv.DictReader(io.StringIO(res.stdout)):
            if row["gate"].startswith("not gated") or row["verdict"] == "-":
                continue
            gated += 1
            adjusted += "host-adjusted" in row["gate"]
            if float(row.get("host_unreached") or 0) > 0:
                active += 1
            if row["verdict"] in ("REGRESSION", "IMPROVEMENT"):
                flagged += 1
                flags.append(f"{b} -> {n}: {row['benchmark']} {row['verdict']}")
            limit = float(row["limit"] or "inf")
            frac = abs(float(row["delta"])) / limit if limit > 0 else 0.0
            if frac > closest[0]:
                closest = (frac, f"{row['benchmark']} ({b} -> {n})")
    print(f"{pairs} ordered pairs with a call out of sample; {gated} gated rows")
    print(f"false alarms: {flagged}")
    for f in flags:
        print(f"  {f}")
    print(f"term active (host_unreached > 0): {active} of {adjusted} host-adjusted rows")
    print(f"closest to its limit: {closest[0]:.2f} of it, {closest[1]}")


if __name__ == "__main__":
    main()
