#!/usr/bin/env python3
"""BigGemm n=8192 DeviceSync: how many process rows reach 3% of the step, as measured and after
moving each to its call's median submit time.

Reads every call's BigGemm processes (biggemm/run-N.json inside results/h100/*/call*/logs.tar.gz).
Per dtype/backend row, the overhead's slope on the host's submit time (baseline_host_us), both
relative to the call's median for the row, is fitted on every other call (least squares, us per
us, at least 0); each process's overhead is moved along it to its call's median submit time, and
again to the row's median submit time over every call measured by the same rule (a typical host
of the machine type), and taken as a share of its Async step (baseline_us). Split by the stopping rule the processes ran
under: 2 s a benchmark, or the default rule.

    results/h100/host_slope/biggemm_slope.py [GLOB...]

GLOB (default results/h100/*/call*/logs.tar.gz) picks the calls, e.g. one build's folders.
"""
import glob
import json
import statistics as st
import sys
import tarfile

from host_slope import slope  # least squares: (slope, correlation)

LIMIT_PCT = 3.0


CALLS = sys.argv[1:] or ['results/h100/*/call*/logs.tar.gz']


def processes():
    """{row: {call: [(submit us, overhead us, step us, rule), ...]}}"""
    out = {}
    for path in sorted({p for pattern in CALLS for p in glob.glob(pattern)}):
        with tarfile.open(path) as tar:
            for name in tar.getnames():
                if not (name.startswith('./biggemm/run-') and name.endswith('.json')):
                    continue
                run = json.load(tar.extractfile(name))
                rule = '2 s' if 'min_time=2s' in run['context'].get('stopping_rule', '') else 'default'
                for b in run['benchmarks']:
                    if b.get('run_type') == 'iteration' and 'baseline_host_us' in b:
                        row = b['name'].split('/manual_time')[0]
                        out.setdefault(row, {}).setdefault(path, []).append(
                            (b['baseline_host_us'], b['overhead_us'], b['baseline_us'], rule))
    return out


def main():
    totals = {}
    by_call = {}  # call: [process rows, 3% or more as measured, at the row's median submit time]
    for row, per_call in sorted(processes().items()):
        per_call = {c: ps for c, ps in per_call.items() if len(ps) >= 2}
        centred = {c: [(s - st.median(p[0] for p in ps), o - st.median(p[1] for p in ps))
                       for s, o, _, _ in ps] for c, ps in per_call.items()}
        typical_submit = {rule: st.median(p[0] for ps in per_call.values() for p in ps
                                          if p[3] == rule)
                          for rule in {p[3] for ps in per_call.values() for p in ps}}
        line = {}
        for call, ps in per_call.items():
            k = max(slope([p for other, qs in centred.items() if other != call for p in qs])[0], 0.0)
            median_submit = st.median(p[0] for p in ps)
            for submit, overhead, step, rule in ps:
                raw = 100 * overhead / step
                adjusted = 100 * (overhead - k * (submit - median_submit)) / step
                typical = 100 * (overhead - k * (submit - typical_submit[rule])) / step
                for key in (rule, 'all'):
                    t = line.setdefault(key, [0, 0, 0, 0.0, 0.0, 0, 0.0])
                    t[0] += 1
                    t[1] += raw >= LIMIT_PCT
                    t[2] += adjusted >= LIMIT_PCT
                    t[3], t[4] = max(t[3], raw), max(t[4], adjusted)
                    t[5] += typical >= LIMIT_PCT
                    t[6] = max(t[6], typical)
                c = by_call.setdefault(call, [0, 0, 0])
                c[0], c[1], c[2] = c[0] + 1, c[1] + (raw >= LIMIT_PCT), c[2] + (typical >= LIMIT_PCT)
        print(f'{row} ({len(per_call)} calls, pooled slope {slope([p for v in centred.values() for p in v])[0]:.2f} us/us)')
        for key in ('2 s', 'default'):
            if key in line:
                n, raw, adj, wr, wa, typ, wt = line[key]
                print(f'  {key:8s} {n:3d} processes, {LIMIT_PCT:g}% or more: as measured {raw} '
                      f'(worst {wr:.2f}%), at the call\'s median submit time {adj} (worst {wa:.2f}%), '
                      f'at the row\'s {typical_submit[key]:.1f} us {typ} (worst {wt:.2f}%)')
                tot = totals.setdefault(key, [0, 0, 0, 0])
                for i, j in enumerate((0, 1, 2, 5)):
                    tot[i] += line[key][j]
    for key, (n, raw, adj, typ) in totals.items():
        print(f'all rows, {key}: {n} process rows, {LIMIT_PCT:g}% or more: as measured {raw}, '
              f'at the call\'s median submit time {adj}, at the row\'s median over the calls {typ}')
    print(f'by call: process rows, {LIMIT_PCT:g}% or more as measured, at the row\'s median submit time')
    for call, (n, raw, typ) in sorted(by_call.items()):
        print(f'  {call.removeprefix("results/h100/").removesuffix("/logs.tar.gz"):28s} {n:3d} {raw:3d} {typ:3d}')
    print_line_through_medians()


def print_line_through_medians():
    """2 s processes: is the overhead a fixed multiple of the submit time (the slope equal to their
    ratio, the line through 0), or does it grow faster (the slope above the ratio, a negative
    intercept at the median)?"""
    print('2 s processes, overhead against submit time: their median ratio, the within-call slope,'
          ' and the line\'s intercept at the median (us)')
    for row, per_call in sorted(processes().items()):
        ps = [p for c in per_call.values() for p in c if p[3] == '2 s']
        centred = []
        for c in per_call.values():
            qs = [p for p in c if p[3] == '2 s']
            if len(qs) >= 2:
                ms, mo = st.median(p[0] for p in qs), st.median(p[1] for p in qs)
                centred += [(s - ms, o - mo) for s, o, _, _ in qs]
        if len(centred) < 3:
            continue
        k, r = slope(centred)
        ms, mo = st.median(p[0] for p in ps), st.median(p[1] for p in ps)
        ratio = st.median(o / s for s, o, _, _ in ps)
        print(f'  {row:40s} {len(ps):3d} processes: submit {ms:5.1f}, overhead {mo:5.1f}, '
              f'ratio {ratio:4.2f}, slope {k:4.2f} (r {r:.2f}), intercept {mo - k * ms:6.1f}')


if __name__ == '__main__':
    main()
