#!/usr/bin/env python3
"""Per benchmark, machine and --devices setting: the step time, and the paired overhead or the
bandwidth, over the processes, median (min-max), from the per-process JSON in each
callN/logs.tar.gz; the calls on one machine (the same GPUs) pooled.
  python3 results/two_gpus/table.py > results/two_gpus/table.txt"""
import json
import pathlib
import statistics
import tarfile

HERE = pathlib.Path(__file__).resolve().parent


def runs(call):
    """{setting: [benchmarks of one process, ...]} of a call folder."""
    out = {}
    with tarfile.open(call / "logs.tar.gz") as tar:
        for m in sorted(tar.getmembers(), key=lambda m: m.name):
            name = pathlib.Path(m.name).name
            if not (m.name.startswith("json/") and name.endswith(".json")):
                continue
            setting = name.rsplit("-", 1)[0].replace("multigpu", "default")
            data = json.load(tar.extractfile(m))
            rows = {b["name"].replace("/manual_time", ""): b for b in data["benchmarks"]
                    if b.get("run_type") == "iteration"}
            out.setdefault(setting, []).append(rows)
    return out


def spread(values, fmt):
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}-{fmt.format(max(values))})"


def main():
    # The calls on one machine (the same GPUs) pooled, per --devices setting.
    groups = {}
    for call in sorted(p for p in HERE.glob("call*") if p.is_dir()):
        gpu_lines = [l for l in (call / "summary.txt").read_text().splitlines() if l[:1].isdigit()]
        gpus = tuple(l.split(", ")[2][:12] for l in gpu_lines)
        model = gpu_lines[0].split(", ")[1]
        for setting, procs in runs(call).items():
            group = groups.setdefault((gpus, setting), {"model": model, "calls": [], "procs": []})
            group["calls"].append(f"{call.name} ({len(procs)})")
            group["procs"] += procs
    for (gpus, setting), group in groups.items():
        procs = group["procs"]
        print(f"== {len(gpus)} x {group['model']} ({', '.join(gpus)}), --devices={setting}: "
              f"{len(procs)} processes from {', '.join(group['calls'])}")
        names = [n for n in procs[0] if n.startswith("MultiGpu/")]
        for n in names:
            rows = [p[n] for p in procs if n in p]
            if any(r.get("skipped") or r.get("error_occurred") for r in rows):
                continue
            text = f"  {n:62s} step {spread([r['real_time'] for r in rows], '{:.2f}')} us"
            if "overhead_us" in rows[0]:
                text += f"  overhead +{spread([r['overhead_us'] for r in rows], '{:.2f}')} us"
            if "bytes_per_second" in rows[0]:
                text += f"  {spread([r['bytes_per_second'] * 1e-9 for r in rows], '{:.1f}')} GB/s"
            print(text)


if __name__ == "__main__":
    main()
