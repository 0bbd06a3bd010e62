#!/usr/bin/env python3
"""Per-benchmark medians over a folder's processes: step, paired overhead (min-max), host CPU share.

    table.py DIR MODE...   (DIR/MODE/run-*.json, as scripts/processes.sh writes them)
"""
import collections, glob, json, statistics as st, sys

for mode in sys.argv[2:]:
    rows = collections.defaultdict(list)
    files = sorted(glob.glob(f"{sys.argv[1]}/{mode}/run-*.json"))
    for f in files:
        for b in json.load(open(f))["benchmarks"]:
            if b.get("error_occurred"):
                sys.exit(f"{f}: {b['name']}: {b.get('error_message')}")
            rows[b["name"].replace("/manual_time", "")].append(b)
    print(f"== {mode}: {len(files)} processes")
    for name, v in rows.items():
        ov = [x["overhead_us"] for x in v if "overhead_us" in x] or [float("nan")]
        cpu = st.median([x["host_cpu_us"] / x["host_us"] for x in v])
        print(f"{name:50s} step {st.median([x['real_time'] for x in v]):8.2f}  overhead "
              f"{st.median(ov):7.2f} ({min(ov):.2f}-{max(ov):.2f})  cpu/wall {cpu:.2f}  "
              f"blocking calls {v[0].get('syncs_per_step')}")
