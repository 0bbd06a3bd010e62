#!/usr/bin/env python3
"""Where a default sweep's wall time goes, from its JSON and its console timestamped line by line.

  sweep_time.py SWEEP.json[.gz] CONSOLE_TS[.gz] [OLD.json[.gz] OLD_CONSOLE_TS[.gz]]

CONSOLE_TS: sync_bench's console, each line led by the Unix time it was printed (call2/call.sh,
call3/call.sh). A benchmark's wall time is from the line before its row to its row; its
`cpu_time` (one iteration) is the thread's CPU time over the timed rounds, which these patterns
spin through, so wall minus cpu_time is what ran outside them: set-up, warm-up, sizing, the
accounting pass and the GPU-busy probe. Rows are summed by family, size and (BigGemm) dtype, the
slowest first; with OLD, both runs side by side.
"""
import collections
import gzip
import json
import sys


def opened(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def families(json_path, console_path):
    with opened(json_path) as f:
        rows = {b["name"]: b for b in json.load(f)["benchmarks"]}
    fam = collections.defaultdict(lambda: [0, 0.0, 0.0])  # rows, wall s, outside the rounds s
    first = last = None
    with opened(console_path) as f:
        for line in f:
            words = line.split(" ", 2)
            if len(words) < 2:
                continue
            t = float(words[1] if words[0] == "start" else words[0])
            first = t if first is None else first
            name = words[1]
            if name in rows:
                parts = name.split("/")
                size = [p for p in parts if p.startswith("n:")]
                dtype = [p for p in parts if p in ("fp32", "tf32", "fp16", "bf16", "fp8")]
                key = parts[0] + ("/" + size[0] if size else "")
                if parts[0] == "BigGemm" and dtype:
                    key += "/" + dtype[0]
                wall = t - last
                sums = fam[key]
                sums[0] += 1
                sums[1] += wall
                sums[2] += wall - rows[name].get("cpu_time", 0.0) * 1e-6
            last = t
    return fam, last - first


def main(argv):
    if len(argv) not in (3, 5):
        sys.exit(__doc__)
    new, new_total = families(argv[1], argv[2])
    old, old_total = families(argv[3], argv[4]) if len(argv) == 5 else (None, None)
    if old is None:
        print(f"sync_bench: {new_total:.1f} s")
        print(f"{'rows':24s} {'n':>4s} {'wall s':>7s} {'outside':>8s}")
        for k in sorted(new, key=lambda k: -new[k][1]):
            n, wall, out = new[k]
            print(f"{k:24s} {n:4d} {wall:7.1f} {out:8.1f}")
        return
    print(f"sync_bench: {old_total:.1f} s -> {new_total:.1f} s")
    print(f"{'rows':24s} {'n':>4s} {'wall s':>15s} {'outside the rounds s':>21s}")
    for k in sorted(old, key=lambda k: -old[k][1]):
        n, wall, out = old[k]
        nn, nwall, nout = new.get(k, (0, 0.0, 0.0))
        print(f"{k:24s} {n:4d} {wall:6.1f} -> {nwall:6.1f} {out:9.1f} -> {nout:6.1f}")


if __name__ == "__main__":
    main(sys.argv)
