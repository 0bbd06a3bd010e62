#!/usr/bin/env python3
"""Re-judges the gate runs of the three lead-in builds offline, and tabulates BigGemm's processes:
the numbers of this folder's README ("Detection at +1 us", "BigGemm n=8192 DeviceSync").

Run from the repository root, after building sync_summary (build/summary/sync_summary):
  rejudge.py detection [COMPARE FLAG...]  +1 us caught in the same call, by build and by row
  rejudge.py clean [COMPARE FLAG...]      every ordered pair of the 9 clean runs: rows flagged,
                                          and the largest |change| / limit
  rejudge.py corpus PLATFORM [FLAG...]    clean against clean within each folder of
                                          results/PLATFORM/ (h100 or h200): false regressions
  rejudge.py biggemm                      BigGemm/DeviceSync n=8192 over this folder's processes
COMPARE FLAG: any of sync_summary compare's, e.g. --threshold=1.5 or --noise-k=2.5.
"""
import csv
import glob
import itertools
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter, defaultdict

SUMMARY = "build/summary/sync_summary"
BUILDS = ("lead_in", "lead_in_final", "head_f0463d7e")  # 73f156a, 76307a1, b2294c2
HOST1US_FAMILIES = ("NullKernel", "SmallGemm", "SyncEvery")  # gate_runs.sh's --sync_inject_filter


def compare(base, new, flags):
    out = subprocess.run([SUMMARY, "compare", "--format=csv", *flags, base, new],
                         capture_output=True, text=True, check=False).stdout
    return [r for r in csv.DictReader(out.splitlines())
            if r["verdict"] not in ("-", "") and not r["gate"].startswith("not gated")]


def lead_in_cleans():
    return sorted(f for b in BUILDS for f in glob.glob(f"results/h100/{b}/call*/clean.json"))


def detection(flags):
    by_build, by_row = defaultdict(Counter), defaultdict(Counter)
    for clean in lead_in_cleans():
        build = clean.split("/")[2]
        for r in compare(clean, clean.replace("clean.json", "host1us.json"), flags):
            if r["benchmark"].split("/")[0] not in HOST1US_FAMILIES:
                continue
            caught = r["verdict"] == "REGRESSION"
            for tally in (by_build[build], by_row[r["benchmark"]]):
                tally["rows"] += 1
                tally["caught"] += caught
            if not caught:
                print(f"missed {r['benchmark']} in {clean}: change {float(r['delta']):+.3f} us, "
                      f"limit {float(r['limit']):.3f} us, p {float(r['p_value']):.4f}")
    for name, t in [*by_build.items(), *sorted(by_row.items())]:
        print(f"{t['caught']:3d} of {t['rows']:3d}  {name}")


def clean(flags):
    rows = [(abs(float(r["delta"])) / float(r["limit"]), r["verdict"], r["benchmark"], a, b)
            for a, b in itertools.permutations(lead_in_cleans(), 2) for r in compare(a, b, flags)]
    flagged = [r for r in rows if r[1] != "unchanged"]
    print(f"{len(rows)} gated rows, {len(flagged)} flagged")
    for ratio, verdict, name, a, b in [r for r in sorted(rows) if r[1] == "unchanged"][-3:] + flagged:
        print(f"  {ratio:.2f}x its limit  {verdict}  {name}  {a} -> {b}")


def corpus(platform, flags):
    folders = defaultdict(list)
    for f in sorted(glob.glob(f"results/{platform}/**/clean.json", recursive=True)):
        folders[f.split("/")[2]].append(f)
    total, false = 0, Counter()
    for runs in folders.values():
        for a, b in itertools.permutations(runs, 2):
            for r in compare(a, b, flags):
                total += 1
                if r["verdict"] == "REGRESSION":
                    false[(a.split("/")[2], "/".join(r["benchmark"].split("/")[:2]))] += 1
    print(f"{sum(false.values())} false regressions in {total} gated rows")
    for (folder, row), n in sorted(false.items()):
        print(f"  {n}  {row} in {folder}/")


def spearman(x, y):
    def ranks(v):
        order = sorted(range(len(v)), key=v.__getitem__)
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2
            i = j + 1
        return r
    rx, ry = ranks(x), ranks(y)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return num / den if den else float("nan")


def biggemm():
    here = os.path.dirname(os.path.abspath(__file__))
    rows = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        for call in ("call1", "call6", "call7"):
            with tarfile.open(os.path.join(here, call, "logs.tar.gz")) as tar:
                tar.extractall(os.path.join(tmp, call))
            for f in sorted(glob.glob(os.path.join(tmp, call, "biggemm", "run-*.json"))):
                run = json.load(open(f))
                gpu = run["context"]["gpu_uuid"][4:12]
                for b in run["benchmarks"]:
                    name = b["name"].split("/manual_time")[0]
                    if (b.get("run_type") == "aggregate" or
                            not name.startswith("BigGemm/DeviceSync/") or
                            not name.endswith("/n:8192")):
                        continue
                    pct = 100 * b["overhead_us"] / b["baseline_us"]
                    rows[name].append((gpu, pct, b["overhead_us"], b["baseline_host_us"],
                                       b.get("sm_clock_mhz", 0)))
    for name, procs in sorted(rows.items()):
        pct = [p[1] for p in procs]
        # acceptance.sh rounds each process's percent to two decimals before comparing with 3.
        over = Counter(p[0] for p in procs if round(p[1], 2) >= 3)
        per_gpu = "  ".join(f"{g}: {over[g]} of {sum(p[0] == g for p in procs)}"
                            for g in sorted({p[0] for p in procs}))
        host = spearman([p[2] for p in procs], [p[3] for p in procs])
        clock = spearman([p[2] for p in procs], [p[4] for p in procs])
        print(f"{name}: {len(procs)} processes, median {statistics.median(pct):.2f}%, worst "
              f"{max(pct):.2f}%; 3% or more: {per_gpu}; Spearman with host time {host:.2f}, "
              f"with the SM clock {clock:.2f}")


def main(argv):
    if len(argv) < 2 or argv[1] not in ("detection", "clean", "corpus", "biggemm"):
        sys.exit(__doc__)
    if argv[1] == "corpus":
        if len(argv) < 3:
            sys.exit("rejudge.py corpus: name a platform (h100 or h200)")
        corpus(argv[2], argv[3:])
    elif argv[1] == "biggemm":
        biggemm()
    else:
        {"detection": detection, "clean": clean}[argv[1]](argv[2:])


if __name__ == "__main__":
    main(sys.argv)
