#!/usr/bin/env python3
"""BigGemm n=8192 DeviceSync: how many process rows reach 3% of the step, as measured and after
moving each to a reference submit time.

Reads the calls' BigGemm processes (biggemm/run-N.json inside each logs.tar.gz). Per dtype/backend
row, the overhead's slope on the host's submit time (baseline_host_us), both relative to the
call's median for the row, is fitted on every other call (least squares, us per us, at least 0).
Each process's overhead is moved along it to its call's median submit time, and again to the
row's median submit time over every call measured by the same rule (a typical host of the machine
type), and taken as a share of its Async step (baseline_us). Split by the stopping rule the
processes ran under: 2 s a benchmark, or the default rule.

    results/h100/host_slope/biggemm_slope.py [GLOB...]

GLOB (default results/h100/*/call*/logs.tar.gz, every build) picks the calls: biggemm_h100.txt is
'results/h100/acceptance*/call*/logs.tar.gz', the 27 calls before the lead-in. At least two calls
of two processes or more are needed, for a slope fitted on other calls.
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
                rule_text = run['context'].get('stopping_rule', '')
                rule = '2 s' if 'min_time=2s' in rule_text else 'default'
                for b in run['benchmarks']:
                    if b.get('run_type') == 'iteration' and 'baseline_host_us' in b:
                        row = b['name'].split('/manual_time')[0]
                        out.setdefault(row, {}).setdefault(path, []).append(
                            (b['baseline_host_us'], b['overhead_us'], b['baseline_us'], rule))
    return out


def main():
    rows = processes()
    if not rows:
        sys.exit(f'biggemm_slope.py: no BigGemm processes in {CALLS} '
                 '(run it from the repository root)')
    totals = {}
    by_call = {}  # call: [process rows, 3% or more as measured, at the row's median submit time]
    for row, per_call in sorted(rows.items()):
        per_call = {c: ps for c, ps in per_call.items() if len(ps) >= 2}
        if len(per_call) < 2:
            sys.exit(f'biggemm_slope.py: {row}: {len(per_call)} call(s) of 2+ processes; need 2')
        centred = {c: [(s - st.median(p[0] for p in ps), o - st.median(p[1] for p in ps))
                       for s, o, _, _ in ps] for c, ps in per_call.items()}
        rules = {p[3] for ps in per_call.values() for p in ps}
        typical_submit = {rule: st.median(p[0] for ps in per_call.values() for p in ps
                                          if p[3] == rule) for rule in rules}
        # per key: processes, 3%+ as measured, at the call's median, at the typical submit time,
        # and the worst of each of the three
        line = {}
        for call, ps in per_call.items():
            others = [p for other, qs in centred.items() if other != call for p in qs]
            k = max(slope(others)[0], 0.0)
            median_submit = st.median(p[0] for p in ps)
            for submit, overhead, step, rule in ps:
                shares = (100 * overhead / step,
                          100 * (overhead - k * (submit - median_submit)) / step,
                          100 * (overhead - k * (submit - typical_submit[rule])) / step)
                over = [x >= LIMIT_PCT for x in shares]
                for key in (rule, 'all'):
                    t = line.setdefault(key, [0, 0, 0, 0, 0.0, 0.0, 0.0])
                    t[0] += 1
                    for i in range(3):
                        t[1 + i] += over[i]
                        t[4 + i] = max(t[4 + i], shares[i])
                c = by_call.setdefault(call, [0, 0, 0])
                c[0], c[1], c[2] = c[0] + 1, c[1] + over[0], c[2] + over[2]
        pooled = slope([p for v in centred.values() for p in v])[0]
        print(f'{row} ({len(per_call)} calls, pooled slope {pooled:.2f} us/us)')
        for key in ('2 s', 'default'):
            if key in line:
                n, raw, adj, typ, wr, wa, wt = line[key]
                print(f'  {key:8s} {n:3d} processes, {LIMIT_PCT:g}% or more: as measured {raw} '
                      f'(worst {wr:.2f}%), at the call\'s median submit time {adj} '
                      f'(worst {wa:.2f}%), at the row\'s {typical_submit[key]:.1f} us {typ} '
                      f'(worst {wt:.2f}%)')
                tot = totals.setdefault(key, [0, 0, 0, 0])
                for i in range(4):
                    tot[i] += line[key][i]
    for key, (n, raw, adj, typ) in totals.items():
        print(f'all rows, {key}: {n} process rows, {LIMIT_PCT:g}% or more: as measured {raw}, '
              f'at the call\'s median submit time {adj}, at the row\'s median over the calls {typ}')
    print(f'by call: process rows, {LIMIT_PCT:g}% or more as measured, '
          f'at the row\'s median submit time')
    for call, (n, raw, typ) in sorted(by_call.items()):
        name = call.removeprefix('results/h100/').removesuffix('/logs.tar.gz')
        print(f'  {name:28s} {n:3d} {raw:3d} {typ:3d}')
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
