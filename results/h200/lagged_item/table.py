#!/usr/bin/env python3
"""TrainLoop's loss read every step against one step late: paired overheads over each call's
processes, and their ratio process by process. Prints table.txt.

    python3 table.py > table.txt      (from this folder)
"""
import io
import json
import re
import statistics
import tarfile

# (call, tarball, process files in it)
SETS = [("call1", "call1/tl_logs.tar.gz", r"tl/p\d+\.json"),
        ("call2", "call2/tl_logs.tar.gz", r"tl/p\d+\.json"),
        ("call2 at 1 s", "call2/tl_logs.tar.gz", r"tl/long\d+\.json"),
        ("call3", "call3/tl_logs.tar.gz", r"tl/p\d+\.json")]
PATTERNS = ["ItemEveryStep", "LaggedItem", "ReadEveryN"]


def processes(path, pattern):
    """Each process's iteration rows by name (no /manual_time), in process order."""
    runs = []
    with tarfile.open(path) as tar:
        names = [m.name for m in tar.getmembers() if re.fullmatch(pattern, m.name)]
        for name in sorted(names, key=lambda n: int(re.search(r"(\d+)\.json$", n).group(1))):
            run = json.load(io.BytesIO(tar.extractfile(name).read()))
            runs.append({b["name"].replace("/manual_time", ""): b for b in run["benchmarks"]
                         if b.get("run_type") == "iteration"})
    return runs


def row(label, values):
    return "| %s | %.2f (%.2f-%.2f) |" % (label, statistics.median(values), min(values),
                                          max(values))


def main():
    print("Paired overhead per step, us: median (min-max) over the processes.\n")
    for call, path, pattern in SETS:
        runs = processes(path, pattern)
        print("## %s: %d processes\n" % (call, len(runs)))
        print("| row | overhead |\n|---|---:|")
        for n in (512, 1024):
            config = "/bf16/cublas/n:%d" % n
            for p in PATTERNS:
                name = "TrainLoop/%s%s%s" % (p, config, "/n_read:100" if p == "ReadEveryN" else "")
                if name in runs[0]:
                    print(row(name, [r[name]["overhead_us"] for r in runs]))
            item = [r["TrainLoop/ItemEveryStep" + config]["overhead_us"] for r in runs]
            lagged = [r["TrainLoop/LaggedItem" + config]["overhead_us"] for r in runs]
            ratios = [l / i for l, i in zip(lagged, item)]
            print("| LaggedItem / ItemEveryStep n=%d, process by process | %.2f (%.2f-%.2f) |"
                  % (n, statistics.median(ratios), min(ratios), max(ratios)))
        print()


if __name__ == "__main__":
    main()
