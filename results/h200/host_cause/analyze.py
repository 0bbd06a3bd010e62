#!/usr/bin/env python3
"""Sums up the probe windows and BigGemm runs of call*/raw.tar.gz into analysis.txt.

  python3 analyze.py > analysis.txt        (from this folder)

The probe's columns grew over the calls: calls 1-2 ran the first version (ALU chain, a 512 KiB
chase started cold, a 256 MiB one), call 3 the second (warm L2, warm 16 MiB, cold 256 MiB chases),
calls 4-7 the third (a warm L1 chase too; calls 6-7 in its sweep mode).
A window is "slow" above 1.15 times its process's 10th percentile of the time per launch.
"""
import glob
import io
import json
import os
import tarfile

LAYOUTS = {  # number of columns -> names of the columns after t, cpu, launch, cycles, instructions
    13: ["alu", "chase512k", "mem", "steal_cpu", "steal_all", "run_delay", "nvcsw", "nivcsw"],
    14: ["alu", "l2", "llc", "mem", "steal_cpu", "steal_all", "run_delay", "nvcsw", "nivcsw"],
    15: ["alu", "l1", "l2", "llc", "mem", "steal_cpu", "steal_all", "run_delay", "nvcsw", "nivcsw"],
}
LATENCIES = ["alu", "l1", "chase512k", "l2", "llc", "mem"]


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    for k, i in enumerate(order):
        r[i] = float(k)
    return r


def pearson(x, y):
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sx = sum((a - mx) ** 2 for a in x) ** 0.5
    sy = sum((b - my) ** 2 for b in y) ** 0.5
    return sxy / sx / sy if sx and sy else float("nan")


def spearman(x, y):
    return pearson(ranks(x), ranks(y))


def members(call):
    with tarfile.open(os.path.join(call, "raw.tar.gz")) as tar:
        for m in tar.getmembers():
            if m.isfile() and m.name.endswith((".txt", ".json", ".ticks")):
                yield os.path.basename(m.name), tar.extractfile(m).read().decode()


def probe_rows(text):
    rows = []
    for line in text.splitlines()[1:]:  # the first window follows the warm-up
        v = [float(x) for x in line.split()]
        names = ["t", "cpu", "launch", "cycles", "instructions"] + LAYOUTS[len(v)]
        rows.append(dict(zip(names, v)))
    return rows


def main():
    calls = sorted(glob.glob("call*"), key=lambda c: int(c[4:]))
    processes = []  # (call, probe, gpu, launch median, alu median)
    sweeps = {}  # (call, probe) -> {cpu: median of launch / its sweep's median}
    print("# Per probe process: windows, slow share; fast -> slow medians (ns; launch in us);")
    print("# Spearman of the launch time with each column over the windows, and with itself later")
    for call in calls:
        gpu = open(os.path.join(call, "host.txt")).read().split("UUID: ")[1][:12]
        files = dict(members(call))
        for name in sorted(f for f in files if f.startswith("probe-") and f.endswith(".txt")):
            rows = probe_rows(files[name])
            launch = [r["launch"] for r in rows]
            cut = 1.15 * sorted(launch)[int(len(launch) * 0.1)]
            slow = [r for r in rows if r["launch"] > cut]
            fast = [r for r in rows if r["launch"] <= cut]
            cols = [c for c in LATENCIES if c in rows[0]]
            parts = []
            for c in ["launch"] + cols:
                f = median([r[c] for r in fast])
                s = median([r[c] for r in slow]) if slow else float("nan")
                parts.append(f"{c} {f:.2f}->{s:.2f} ({100 * (s / f - 1):+.0f}%)")
            rho = " ".join(f"{c} {spearman(launch, [r[c] for r in rows]):+.2f}" for c in cols)
            took = sum(r["steal_all"] for r in rows), sum(r["run_delay"] for r in rows) / 1e3
            cpus = sorted({int(r["cpu"]) for r in rows})
            where = f"{len(cpus)} CPUs" if len(cpus) > 1 else f"CPU {cpus[0]}"
            print(f"{call} {name[:-4]} {gpu} {where}: {len(rows)} windows, {len(slow)} slow; "
                  + "; ".join(parts))
            lags = " ".join(f"{k}: {spearman(launch[:-k], launch[k:]):+.2f}" for k in (1, 4, 16))
            print(f"    rho: {rho}; launch against the window 1, 4, 16 later: {lags}")
            print(f"    VM steal {took[0]:.0f} ticks, run-queue delay {took[1]:.1f} ms")
            processes.append((call, name[:-4], gpu, median(launch), median([r["alu"] for r in rows])))
            if len(cpus) > 1:
                # Each window against the median of the 16 around it (one sweep): a CPU's own
                # speed, with the drift over time taken out.
                rel = []
                for i in range(len(rows)):
                    lo = max(0, min(i - 8, len(rows) - 16))
                    rel.append(launch[i] / median(launch[lo:lo + 16]))
                sweeps[(call, name[:-4])] = {
                    c: median([rel[i] for i, r in enumerate(rows) if int(r["cpu"]) == c]) for c in cpus
                }

    print("\n# Per process: the launch time against the core's clock (4 cycles a step of the chain)")
    for call, probe, gpu, launch, alu in processes:
        print(f"{call} {probe} {gpu}: launch {launch:.2f} us, chain {alu:.3f} ns = {4 / alu:.2f} GHz")
    x = [p[3] for p in processes]
    y = [p[4] for p in processes]
    print(f"{len(processes)} processes on {len({p[2] for p in processes})} GPUs: "
          f"Spearman {spearman(x, y):+.2f}, Pearson {pearson(x, y):+.2f}")

    if sweeps:
        print("\n# Sweep mode: each CPU's launch time relative to its sweep's median")
        keys = sorted(sweeps)
        for k in keys:
            v = sweeps[k]
            print(f"{k[0]} {k[1]}: {min(v.values()):.3f}-{max(v.values()):.3f} over {len(v)} CPUs")
        rhos = []
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                cpus = sorted(set(sweeps[a]) & set(sweeps[b]))
                rhos.append(spearman([sweeps[a][c] for c in cpus], [sweeps[b][c] for c in cpus]))
        print(f"rank correlation of the CPUs' order between processes ({len(rhos)} pairs): "
              f"{min(rhos):+.2f} to {max(rhos):+.2f}, median {median(rhos):+.2f}")

    print("\n# BigGemm n=8192, per process: DeviceSync overhead in % of the Async step over the")
    print("# 9 rows (median, largest), and the host's time to submit an Async step (median)")
    for call in calls:
        files = dict(members(call))
        for name in sorted((f for f in files if f.startswith("biggemm-") and f.endswith(".json")),
                           key=lambda f: int(f[8:-5])):
            rows = {b["name"]: b for b in json.load(io.StringIO(files[name]))["benchmarks"]}
            pct, host = [], []
            for n, b in rows.items():
                if "/DeviceSync/" in n and "overhead_us" in b:
                    step = rows[n.replace("/DeviceSync/", "/Async/")]["real_time"]
                    pct.append(100 * b["overhead_us"] / step)
                    host.append(b["baseline_host_us"])
            ticks = files[name.replace(".json", ".ticks")].split()
            steal = int(ticks[15]) - int(ticks[7])
            print(f"{call} {name[:-5]}: {median(pct):.2f}%, largest {max(pct):.2f}%; "
                  f"host {median(host):.1f} us; VM steal {steal} ticks")


main()
