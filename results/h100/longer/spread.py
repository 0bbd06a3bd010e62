#!/usr/bin/env python3
"""Per-process spread of the paired overheads in results/h100/longer/call.sh's runs.

  spread.py CALLDIR...   (each holding runs.tar.gz, which call.sh wrote)

For each call and each way of measuring: the headline rows' overhead_us in every process, against
that call's median (+-%), and BigGemm's overhead in % of its paired Async step in every process.
Last, the same pooled over the calls: how many processes lie within +-5% of their call's median,
and how many BigGemm process rows stay under 3%.
"""
import json
import statistics
import sys
import tarfile


def rows(call, way):
    out = {}
    with tarfile.open(f"{call}/runs.tar.gz") as t:
        for m in sorted(t.getmembers(), key=lambda m: m.name):
            if not (m.name.startswith(f"runs/{way}/run-") and m.name.endswith(".json")):
                continue
            for b in json.load(t.extractfile(m))["benchmarks"]:
                if "overhead_us" in b:
                    name = b["name"].replace("/manual_time", "")
                    value = b["overhead_us"]
                    if way.startswith("biggemm"):
                        value = 100 * value / b["baseline_us"]
                    out.setdefault(name, []).append(value)
    return out


ways = {"headline2": "headline, 2 s", "headline5": "headline, 5 s",
        "biggemm0": "BigGemm, default rule", "biggemm2": "BigGemm, 2 s"}
pooled = {w: [0, 0] for w in ways}  # within +-5% (or under 3%), all
for call in sys.argv[1:]:
    print(call)
    for way, title in ways.items():
        for name, values in sorted(rows(call, way).items()):
            med = statistics.median(values)
            if way.startswith("headline"):
                dev = [100 * (v / med - 1) for v in values]
                pooled[way][0] += sum(abs(d) <= 5 for d in dev)
                pooled[way][1] += len(dev)
                print(f"  {title:22s} {name:40s} median {med:.2f} us, {min(dev):+.1f}%/{max(dev):+.1f}%:",
                      " ".join(f"{v:.2f}" for v in values))
            else:
                pooled[way][0] += sum(v < 3 for v in values)
                pooled[way][1] += len(values)
                print(f"  {title:22s} {name:40s} median {med:.2f}%, worst {max(values):.2f}%:",
                      " ".join(f"{v:.2f}" for v in values))
print("pooled:")
for way, title in ways.items():
    ok, n = pooled[way]
    what = "within +-5% of their call's median" if way.startswith("headline") else "under 3%"
    print(f"  {title:22s} {ok} of {n} process rows {what}")
