#!/usr/bin/env python3
"""Compares two sweeps of the same benchmarks run on one machine, before and after a change to the
GPU-busy probe: each family's wall time (the wall_s counter), each family's gpu_busy_us new/old
(median and p10/p90 over its rows), and the rows whose gpu_bound differs, with the share
(gpu_busy_us / real_time) on each side that decided it.

  python3 probe_compare.py OLD NEW

OLD and NEW: a call's logs.tar.gz (its sweep.json and smallgemm.json are read) or a JSON file."""
import collections
import io
import json
import sys
import tarfile


def runs(path):
    """{'sweep': rows, 'smallgemm': rows} from a logs.tar.gz, or {'json': rows} from a file."""
    def rows(data):
        doc = json.loads(data)
        return {b["name"]: b for b in doc["benchmarks"] if b.get("run_type") != "aggregate"}
    if not path.endswith(".tar.gz"):
        with open(path) as f:
            return {"json": rows(f.read())}
    out = {}
    with tarfile.open(path) as tar:
        for member in tar.getmembers():
            name = member.name.rsplit("/", 1)[-1]
            if name in ("sweep.json", "smallgemm.json"):
                out[name[:-5]] = rows(tar.extractfile(member).read())
    return out


def group(name):
    family = name.split("/")[0]
    return family + " n=" + name.split("n:")[1].split("/")[0] if family == "BigGemm" else family


def compare(kind, old, new):
    walls = collections.defaultdict(lambda: [0, 0.0, 0.0])
    ratios = collections.defaultdict(list)
    flips = []
    for name, a in old.items():
        b = new.get(name)
        if b is None:
            continue
        w = walls[name.split("/")[0]]
        w[0] += 1
        w[1] += a.get("wall_s", 0.0)
        w[2] += b.get("wall_s", 0.0)
        if "gpu_busy_us" in a and "gpu_busy_us" in b:
            ratios[group(name)].append(b["gpu_busy_us"] / a["gpu_busy_us"])
            if a.get("gpu_bound") != b.get("gpu_bound"):
                flips.append((name, a, b))
    print(f"{kind}: wall_s by family, old -> new")
    for family, (rows, wo, wn) in sorted(walls.items(), key=lambda x: -x[1][1]):
        print(f"  {family:14s} {rows:4d} rows {wo:6.1f} -> {wn:6.1f} s")
    print(f"  {'all':14s} {sum(w[0] for w in walls.values()):4d} rows "
          f"{sum(w[1] for w in walls.values()):6.1f} -> {sum(w[2] for w in walls.values()):6.1f} s")
    print(f"{kind}: gpu_busy_us new/old")
    for g, r in sorted(ratios.items()):
        r.sort()
        q = lambda p: r[int(p * (len(r) - 1))]
        print(f"  {g:16s} {len(r):4d} rows median {q(.5):.3f} (p10 {q(.1):.3f}, p90 {q(.9):.3f})")
    total = sum(len(r) for r in ratios.values())
    print(f"{kind}: gpu_bound differs in {len(flips)} of {total} rows "
          "(share = gpu_busy_us / real_time, bound at 0.80)")
    for name, a, b in flips:
        print(f"  {name[:66]:66s} old {a['gpu_busy_us'] / a['real_time']:.2f} "
              f"({a['gpu_busy_us']:.1f} of {a['real_time']:.1f} us), new "
              f"{b['gpu_busy_us'] / b['real_time']:.2f} ({b['gpu_busy_us']:.1f} of "
              f"{b['real_time']:.1f} us)")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    old, new = runs(sys.argv[1]), runs(sys.argv[2])
    for kind in old:
        if kind in new:
            compare(kind, old[kind], new[kind])


if __name__ == "__main__":
    main()
