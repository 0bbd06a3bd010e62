#!/usr/bin/env python3
"""The offline checks behind this folder's README: does the gate catch more of the injected +1 us
with 20 processes a side than with 10, and does it raise more false alarms?

Run from the repository root, after building sync_summary (build/summary/sync_summary):
  rejudge.py halves   each call here cut into its first and last 10 processes: +1 us caught in
                      the same call, and clean against clean between calls, at 10 a side
  rejudge.py merged   two 10-process gate calls of one H100 and build merged into 20 a side
                      (results/h100/lead_in, lead_in_final, head_f0463d7e): +1 us caught, beside
                      each call alone; and the merged clean run of GPU-b39c1937 against this
                      folder's four (another machine, same build)
  rejudge.py h200     the H200 folders with two machines of two or more calls each: clean against
                      clean across the machines, at 10 a side and merged to 20
A merged run puts two calls' processes on each side, so its spread holds what moved between the
calls too: a harder test than 20 processes of one call.
"""
import atexit
import glob
import importlib.util
import itertools
import json
import os
import shutil
import sys
import tempfile
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "head", os.path.join(HERE, "..", "head_f0463d7e", "rejudge.py"))
head = importlib.util.module_from_spec(spec)
spec.loader.exec_module(head)  # compare() and the +1 us families, as the earlier re-judging used
CALLS = [os.path.join(HERE, f"call{c}") for c in range(1, 5)]
TMP = tempfile.mkdtemp()
atexit.register(shutil.rmtree, TMP)


def iterations(path):
    run = json.load(open(path))
    return run, [b for b in run["benchmarks"] if b.get("run_type") == "iteration"]


def write(run, benchmarks, name):
    out = os.path.join(TMP, name)
    json.dump(dict(run, benchmarks=benchmarks), open(out, "w"))
    return out


def cut(path, lo, hi, name):
    """The processes lo..hi-1 of a merged run, as a run of their own."""
    run, its = iterations(path)
    return write(run, [dict(b, repetition_index=b["repetition_index"] - lo, repetitions=hi - lo)
                       for b in its if lo <= b["repetition_index"] < hi], name)


def merge(a, b, name):
    """Two merged runs as one, b's processes after a's."""
    run, ia = iterations(a)
    _, ib = iterations(b)
    n = max(x["repetition_index"] for x in ia) + 1
    total = n + max(x["repetition_index"] for x in ib) + 1
    return write(run, [dict(x, repetitions=total) for x in ia] +
                 [dict(x, repetitions=total, repetition_index=x["repetition_index"] + n)
                  for x in ib], name)


def caught(base, new):
    rows = [r for r in head.compare(base, new, []) if r["benchmark"].split("/")[0] in
            head.HOST1US_FAMILIES]
    reads = "; ".join(f"{r['benchmark'].split('/')[1]} {float(r['delta']):+.2f} us, limit "
                      f"{float(r['limit']):.2f}" for r in rows if "pinned" in r["benchmark"])
    return sum(r["verdict"] == "REGRESSION" for r in rows), len(rows), reads


def clean_pairs(pairs):
    """Gated rows, flags and the largest |change| / limit over (base, new) pairs."""
    rows, flags, worst = 0, [], 0.0
    for a, b in pairs:
        for r in head.compare(a, b, []):
            rows += 1
            worst = max(worst, abs(float(r["delta"])) / float(r["limit"]))
            if r["verdict"] != "unchanged":
                flags.append(f"{r['verdict']} {r['benchmark']}")
    return f"{len(pairs)} pairs, {rows} gated rows, {len(flags)} flagged, worst {worst:.2f}x " \
           f"its limit" + "".join(f"\n    {f}" for f in flags)


def halves():
    hit = rows = 0
    cleans = []
    for i, call in enumerate(CALLS, 1):
        for half, (lo, hi) in (("first", (0, 10)), ("last", (10, 20))):
            c = cut(os.path.join(call, "clean.json"), lo, hi, f"c{i}{half}_clean.json")
            h = cut(os.path.join(call, "host1us.json"), lo, hi, f"c{i}{half}_host1us.json")
            k, n, reads = caught(c, h)
            hit, rows = hit + k, rows + n
            print(f"call{i} {half} 10: +1 us caught {k} of {n}  ({reads})")
            cleans.append((i, c))
    print(f"+1 us at 10 a side: {hit} of {rows}")
    print("clean against clean, different calls, 10 a side: " + clean_pairs(
        [(a, b) for (i, a), (j, b) in itertools.permutations(cleans, 2) if i != j]))


def merged():
    hit = rows = 0
    for build, x, y in (("lead_in", 6, 7), ("lead_in", 6, 8), ("lead_in", 7, 8),
                        ("lead_in_final", 3, 4), ("head_f0463d7e", 4, 5)):
        calls = [os.path.join(HERE, "..", build, f"call{c}") for c in (x, y)]
        runs = {r: merge(*(os.path.join(c, f"{r}.json") for c in calls), f"{build}{x}{y}_{r}.json")
                for r in ("clean", "host1us")}
        k, n, reads = caught(runs["clean"], runs["host1us"])
        hit, rows = hit + k, rows + n
        print(f"{build} calls {x}+{y}, 20 a side: +1 us caught {k} of {n}  ({reads})")
        for c, call in zip((x, y), calls):
            k, n, reads = caught(os.path.join(call, "clean.json"), os.path.join(call, "host1us.json"))
            print(f"    call{c} alone, 10: {k} of {n}  ({reads})")
    print(f"+1 us, merged to 20 a side: {hit} of {rows}")
    b39 = merge(*(os.path.join(HERE, "..", "head_f0463d7e", f"call{c}", "clean.json")
                  for c in (4, 5)), "b39c1937_clean.json")
    ours = [os.path.join(c, "clean.json") for c in CALLS]
    print("GPU-b39c1937 (head_f0463d7e calls 4+5) against this folder's clean runs, both ways: " +
          clean_pairs([(b39, o) for o in ours] + [(o, b39) for o in ours]))


def h200():
    root = os.path.join(HERE, "..", "..", "h200")
    for folder in sorted(os.listdir(root)):
        by_gpu = defaultdict(list)
        for f in sorted(glob.glob(os.path.join(root, folder, "call*", "clean.json"))):
            by_gpu[json.load(open(f))["context"]["gpu_uuid"]].append(f)
        gpus = [g for g, runs in by_gpu.items() if len(runs) >= 2]
        if len(gpus) < 2:
            continue
        merged_runs = {g: [merge(a, b, f"{folder}_{g}_{i}.json") for i, (a, b) in
                           enumerate(itertools.combinations(by_gpu[g], 2))] for g in gpus}
        for label, runs in (("10 a side", by_gpu), ("merged to 20", merged_runs)):
            print(f"{folder}, {label}: " + clean_pairs(
                [(a, b) for g, h in itertools.permutations(gpus, 2) for a in runs[g]
                 for b in runs[h]]))


if __name__ == "__main__":
    commands = {"halves": halves, "merged": merged, "h200": h200}
    if len(sys.argv) != 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]]()
