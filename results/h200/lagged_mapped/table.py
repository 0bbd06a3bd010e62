#!/usr/bin/env python3
"""Paired overheads of the lagged rows over every process of calls 1, 2 and 4 (6 each, three
H200s), read from the calls' tarballs: per call the median (range), then over all 18 processes.
   python3 table.py   (from this folder)"""
import json, statistics, tarfile

calls = {"call1": "call1/lm1.tar.gz", "call2": "call2/lm2.tar.gz", "call4": "call4/lm4.tar.gz"}
rows = {}  # name -> call -> [(us, % of baseline)]
for call, path in calls.items():
    with tarfile.open(path) as tar:
        for m in tar.getmembers():
            base = m.name.rsplit("/", 1)[-1]
            if not (base.startswith("p") and base.endswith(".json")):
                continue
            for b in json.load(tar.extractfile(m))["benchmarks"]:
                if b.get("error_occurred"):
                    raise SystemExit(f"{call} {b['name']}: {b.get('error_message')}")
                if "overhead_us" in b:
                    name = b["name"].replace("/manual_time", "")
                    rows.setdefault(name, {}).setdefault(call, []).append(
                        (b["overhead_us"], 100 * b["overhead_us"] / b["baseline_us"]))
fmt = lambda v: f"{statistics.median(v):6.2f} ({min(v):.2f}-{max(v):.2f})"
print(f"{'benchmark':48s} " + " ".join(f"{c:>20s}" for c in calls) + f" {'all, us':>20s} {'all, % of step':>20s}")
for name, by_call in rows.items():
    every = [x for v in by_call.values() for x in v]
    print(f"{name:48s} " + " ".join(f"{fmt([u for u, _ in by_call.get(c, [(float('nan'), 0)])]):>20s}" for c in calls)
          + f" {fmt([u for u, _ in every]):>20s} {fmt([p for _, p in every]):>20s}  n={len(every)}")
