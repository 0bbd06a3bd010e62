#!/usr/bin/env python3
"""TrainLoop's loss reads, copied and mapped, over each call's 6 processes (callN/trainloop.json,
each process a repetition): paired overhead median (range) per call, then over every process, with
the unread step's host time (baseline_host_us) beside it, and the gate candidates' clean runs
(callN/clean.json, 20 processes): the same per call.
   python3 table.py   (from this folder)"""
import glob, json, statistics

fmt = lambda v: f"{statistics.median(v):6.2f} ({min(v):.2f}-{max(v):.2f})"


def rows(path):
    out = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        if b.get("error_occurred"):
            raise SystemExit(f"{path} {b['name']}: {b.get('error_message')}")
        if "overhead_us" in b:
            out.setdefault(b["name"].replace("/manual_time", ""), []).append(b)
    return out


calls = sorted(glob.glob("call*/"))
for kind, title in (("trainloop.json", "TrainLoop, 6 processes a call"),
                    ("clean.json", "gate candidates, clean, 20 processes a call")):
    by_call = {c: rows(c + kind) for c in calls}
    names = list(dict.fromkeys(n for r in by_call.values() for n in r))
    print(f"## {title}: overhead_us median (range); last column over all processes, then the"
          " unread step's host time (median)")
    print(f"{'benchmark':50s} " + " ".join(f"{c.rstrip('/'):>20s}" for c in calls) + f" {'all':>20s}  host")
    for n in names:
        per = [[b["overhead_us"] for b in by_call[c].get(n, [])] for c in calls]
        every = [b for c in calls for b in by_call[c].get(n, [])]
        print(f"{n:50s} " + " ".join(f"{fmt(v) if v else '-':>20s}" for v in per) +
              f" {fmt([b['overhead_us'] for b in every]):>20s}"
              f"  {statistics.median(b['baseline_host_us'] for b in every):5.1f}  n={len(every)}")
    print()
