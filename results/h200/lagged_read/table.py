#!/usr/bin/env python3
"""LaggedRead against the plain waits: paired overheads over the processes of calls 2 and 3, and
the GPU's gaps around the read's copy in call 3's anatomy timeline. Prints table.txt.

    python3 table.py > table.txt      (from this folder)
"""
import io
import json
import statistics
import tarfile

CALLS = [("call2", "call2/lag.tar.gz", "lag/"), ("call3", "call3/lag3.tar.gz", "lag3/")]
PATTERNS = ["DeviceSync", "ScalarRead/pinned", "LaggedRead"]
WORKLOADS = [  # (label, name with {} for the pattern)
    ("NullKernel", "NullKernel/{}"),
    ("SmallGemm fp16 cuBLAS n=512", "SmallGemm/{}/fp16/cublas/n:512"),
    ("BigGemm fp16 cuBLAS n=8192", "BigGemm/{}/fp16/cublas/n:8192"),
    ("BigGemm bf16 cuBLAS n=8192", "BigGemm/{}/bf16/cublas/n:8192"),
    ("BigGemm fp8 cuBLASLt n=8192", "BigGemm/{}/fp8/cublaslt/n:8192"),
    ("SpinKernel 10 us", "SpinKernel/{}/us:10"),
    ("SpinKernel 1000 us", "SpinKernel/{}/us:1000"),
]


def members(path, prefix):
    with tarfile.open(path) as tar:
        for m in tar.getmembers():
            if m.isfile() and m.name.startswith(prefix):
                yield m.name[len(prefix):], tar.extractfile(m).read()


def process_rows(path, prefix):
    """Each process's rows by name (no /manual_time): {name: benchmark}."""
    runs = []
    for name, data in sorted(members(path, prefix)):
        if name.startswith("p") and name.endswith(".json"):
            run = json.load(io.BytesIO(data))
            runs.append((run["context"]["gpu_uuid"],
                         {b["name"].replace("/manual_time", ""): b for b in run["benchmarks"]}))
    return runs


def span(values, fmt="{:.1f}"):
    return (fmt.format(statistics.median(values)) + " (" + fmt.format(min(values)) + "-" +
            fmt.format(max(values)) + ")")


def main():
    for call, path, prefix in CALLS:
        runs = process_rows(path, prefix)
        gpus = sorted({gpu for gpu, _ in runs})
        print(f"## {call}: {len(runs)} processes on {', '.join(g[:12] for g in gpus)}")
        print("paired overhead, us: median (min-max) over the processes; LaggedRead as % of step\n")
        print(f"| after | {' | '.join(PATTERNS)} | LaggedRead, % of the step |")
        print("|---|" + "---:|" * (len(PATTERNS) + 1))
        for label, pattern_name in WORKLOADS:
            cells = []
            for p in PATTERNS:
                values = [rows[pattern_name.format(p)]["overhead_us"] for _, rows in runs]
                cells.append(span(values))
            lagged = [rows[pattern_name.format("LaggedRead")] for _, rows in runs]
            share = [100 * b["overhead_us"] / b["baseline_us"] for b in lagged]
            errors = sum(b.get("error_occurred", False) for _, rows in runs for b in rows.values())
            assert errors == 0, f"{call}: {errors} error rows"
            print(f"| {label} | {' | '.join(cells)} | {span(share, '{:.2f}')} |")
        print()

    # The GPU timeline of call 3's anatomy pass: gaps between consecutive GPU activities.
    with tarfile.open("call3/lag3.tar.gz") as tar:
        timeline = json.load(tar.extractfile("lag3/timeline.json"))
    print("## call3 anatomy (CUPTI; the kept pass of each row): GPU gaps, median us")
    print("(from the end of one GPU activity to the start of the next; activity: duration)\n")
    for b in timeline["benchmarks"]:
        if not b["name"].startswith(("BigGemm", "SpinKernel")):
            continue
        gpu = sorted((e for e in b["events"] if e["lane"] == "gpu"), key=lambda e: e["start_us"])
        gaps, lengths = {}, {}
        for a, c in zip(gpu, gpu[1:]):
            gaps.setdefault(f"{a['kind']}->{c['kind']}", []).append(c["start_us"] - a["end_us"])
        for e in gpu:
            if e["kind"] != "kernel":
                lengths.setdefault(e["kind"], []).append(e["end_us"] - e["start_us"])
        text = ", ".join(f"{k} {statistics.median(v):.2f}" for k, v in sorted(gaps.items()))
        text += "; " + ", ".join(f"{k} {statistics.median(v):.2f}" for k, v in lengths.items())
        print(f"- {b['name']} ({b['steps']} steps traced): {text}")


if __name__ == "__main__":
    main()
