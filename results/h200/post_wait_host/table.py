#!/usr/bin/env python3
"""The tables of README.md, from the two calls' process JSON (the tarballs beside this file).

For every DeviceSync row: the paired overhead, the host's time to submit an Async step in the
baseline's batches (baseline_host_us), and from the anatomy pass the host's work outside the wait
(host_api_us + host_other_us: the calls and cuBLAS's code around them) and the GPU's idle time,
per step. Usage: table.py (from this folder)."""
import glob
import json
import os
import statistics
import tarfile
import tempfile


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    for rank, i in enumerate(order):
        r[i] = float(rank)
    return r


def spearman(xs, ys):
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return num / den


def rows(tarball):
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(tarball) as t:
            t.extractall(tmp)
        for path in sorted(glob.glob(os.path.join(tmp, "*.json"))):
            stem = os.path.basename(path)[:-5]
            mode = stem.split("-")[0] if not stem.startswith("run") else "auto"
            for b in json.load(open(path))["benchmarks"]:
                if "/DeviceSync/" not in b["name"]:
                    continue
                out.append(dict(process=stem, mode=mode, row=b["name"].replace("/manual_time", ""),
                                overhead=b["overhead_us"], step=b["baseline_us"],
                                submit=b["baseline_host_us"],
                                post_wait=b["host_api_us"] + b["host_other_us"],
                                idle=b["gpu_idle_us"]))
    return out


def summarize(label, rs):
    print(f"\n{label}")
    print("| row | mode | processes | overhead, us: median (range) | host submit, us | host work after the wait (traced), us | Spearman overhead ~ submit |")
    print("|---|---|---:|---|---|---|---:|")
    for row in sorted({r["row"] for r in rs}):
        for mode in ("auto", "spin", "yield"):
            sel = [r for r in rs if r["row"] == row and r["mode"] == mode]
            if not sel:
                continue
            o = [r["overhead"] for r in sel]
            s = [r["submit"] for r in sel]
            p = [r["post_wait"] for r in sel]
            print(f"| {row} | {mode} | {len(sel)} | {statistics.median(o):.1f} ({min(o):.1f}-{max(o):.1f}) "
                  f"| {min(s):.1f}-{max(s):.1f} | {min(p):.1f}-{max(p):.1f} | {spearman(s, o):+.2f} |")
    big = [r for r in rs if r["row"].startswith("BigGemm")]
    slow = [r for r in big if r["submit"] >= 13.5]
    fast = [r for r in big if r["submit"] < 13.5]
    for name, sel in (("submit >= 13.5 us", slow), ("submit < 13.5 us", fast)):
        if sel:
            o = sorted(r["overhead"] for r in sel)
            ratio = statistics.median(r["post_wait"] / r["submit"] for r in sel)
            over = sum(r["overhead"] >= 0.03 * r["step"] for r in sel)
            print(f"BigGemm rows with {name}: {len(sel)}, overhead median {statistics.median(o):.1f} us "
                  f"({o[0]:.1f}-{o[-1]:.1f}); 3% of the step or more: {over}; host work after the "
                  f"wait over the submit time: median {ratio:.1f}x")
    print("BigGemm, overhead ~ submit over every process row: Spearman "
          f"{spearman([r['submit'] for r in big], [r['overhead'] for r in big]):+.2f}; "
          "idle - host work after the wait (traced): median "
          f"{statistics.median(r['idle'] - r['post_wait'] for r in rs):.1f} us")


here = os.path.dirname(os.path.abspath(__file__))
summarize("call 1 (GPU-795d6e77): 8 processes, auto", rows(os.path.join(here, "call1_auto8.tar.gz")))
summarize("call 2 (GPU-41623187): 7 rounds of auto, spin, yield", rows(os.path.join(here, "call2_modes.tar.gz")))
