#!/usr/bin/env python3
"""How much of the headline overheads' process-to-process spread is the host's speed.

For every call's headline_long.json (the merge of its 6 processes, 2 s a benchmark), each
process's paired overhead and its host's submit time (baseline_host_us: host time per step of the
paired Async baseline, measured in the same process) are taken relative to the call's median for
the row. The overhead's dependence on the submit time is fitted (least squares through the
relative deviations, every call pooled), and each process's overhead adjusted by it:
    adjusted = overhead deviation - slope * submit-time deviation.
Out of sample, each call is adjusted by the slope fitted on every other call, and a second
folder's calls (another GPU type) by the first folder's slope. Last, each call by the slope of its
own processes alone (Theil-Sen, clamped to [0, 3]), as `sync_summary compare --host-adjust`
adjusts a merged run.

    results/h100/host_slope/host_slope.py FIT_GLOB [APPLY_GLOB]
"""
import glob
import json
import statistics as st
import sys

ROWS = ['NullKernel/DeviceSync', 'SmallGemm/DeviceSync/fp16/cublas/n:512']
LIMIT = 0.05  # the headline's criterion: +-5% of the call's median


def calls(pattern):
    """{row: {file: [(submit deviation, overhead deviation), ...]}} over calls of 4+ processes."""
    out = {row: {} for row in ROWS}
    for path in sorted(glob.glob(pattern)):
        procs = {}
        for b in json.load(open(path))['benchmarks']:
            row = b['name'].split('/manual_time')[0]
            if b.get('run_type') == 'iteration' and row in out and 'baseline_host_us' in b:
                procs.setdefault(row, []).append((b['baseline_host_us'], b['overhead_us']))
        for row, ps in procs.items():
            if len(ps) < 4:
                continue
            mh, mo = st.median(p[0] for p in ps), st.median(p[1] for p in ps)
            out[row][path] = [(h / mh - 1, o / mo - 1) for h, o in ps]
    return out


def slope(points):
    mx, my = st.mean(p[0] for p in points), st.mean(p[1] for p in points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    sxy = sum((x - mx) * (y - my) for x, y in points)
    syy = sum((y - my) ** 2 for _, y in points)
    return sxy / sxx, sxy / (sxx * syy) ** 0.5


def theil_sen(points):
    return st.median((y2 - y1) / (x2 - x1) for i, (x1, y1) in enumerate(points)
                     for x2, y2 in points[i + 1:] if x2 != x1)


def spread(values):
    q = st.quantiles(values, n=20)
    outside = sum(abs(v) > LIMIT for v in values)
    return (f'5-95% {q[0] * 100:+.1f}..{q[-1] * 100:+.1f}%, worst {min(values) * 100:+.1f}/'
            f'{max(values) * 100:+.1f}%, outside +-5%: {outside} of {len(values)}')


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    fit = calls(sys.argv[1])
    apply = calls(sys.argv[2]) if len(sys.argv) == 3 else None
    for row in ROWS:
        per_call = fit[row]
        points = [p for ps in per_call.values() for p in ps]
        if len(per_call) < 2:
            print(f'{row}: fewer than 2 calls of 4+ processes in {sys.argv[1]}')
            continue
        k, r = slope(points)
        print(f'{row}: {len(per_call)} calls, {len(points)} processes ({sys.argv[1]})')
        print(f'  submit time against its call median: {spread([x for x, _ in points])}')
        print(f'  overhead against its call median:    {spread([y for _, y in points])}')
        print(f'  fit: {k:.3f} % of overhead per % of submit time, correlation {r:.2f}')
        print(f'  adjusted, in sample:                 {spread([y - k * x for x, y in points])}')
        adjusted, ks = [], []
        for path, ps in per_call.items():
            kk, _ = slope([p for other, qs in per_call.items() if other != path for p in qs])
            ks.append(kk)
            adjusted += [y - kk * x for x, y in ps]
        print(f'  adjusted, each call by the others\' slope ({min(ks):.3f}-{max(ks):.3f}): '
              f'{spread(adjusted)}')
        own = []
        for ps in per_call.values():  # as sync_summary compare --host-adjust does within a run
            kk = min(max(theil_sen(ps), 0.0), 3.0)
            own += [y - kk * x for x, y in ps]
        print(f'  adjusted, each call by its own Theil-Sen slope, clamped to [0, 3]: {spread(own)}')
        if apply and len(apply[row]) >= 1:
            other = [p for ps in apply[row].values() for p in ps]
            print(f'  {sys.argv[2]}: {len(apply[row])} calls, {len(other)} processes; overhead '
                  f'{spread([y for _, y in other])}')
            print(f'    adjusted by the slope above:       {spread([y - k * x for x, y in other])}')


if __name__ == '__main__':
    main()
