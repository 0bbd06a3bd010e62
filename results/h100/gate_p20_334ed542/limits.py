#!/usr/bin/env python3
"""How compare's host-slope error term of 2026-11-28 moved the gate's limits: for every
host-adjusted gated row of every clean-against-clean pair (both orders) and every call's clean
against its own host1us run, the limit by the new sync_summary over the limit by the old one.
Both compare the runs cut to the gate's default set (scripts/ci_regress.sh's DEFAULT_FILTER).

    results/h100/gate_p20_334ed542/limits.py OLD_SYNC_SUMMARY NEW_SYNC_SUMMARY CALL_DIR...

(from the repository root; OLD built at 2695e35, NEW at the fix or later)
"""
import csv
import io
import itertools
import re
import statistics as st
import subprocess
import sys


def gated_rows(summary, base, new, gate_filter):
    out = subprocess.run([summary, 'compare', '--format=csv', '--filter=' + gate_filter, base, new],
                         capture_output=True, text=True).stdout
    return {r['benchmark']: r for r in csv.DictReader(io.StringIO(out))}


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__.strip().splitlines()[-3].strip())
    old, new, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    gate_filter = re.search(r"^DEFAULT_FILTER='(.*)'$", open('scripts/ci_regress.sh').read(),
                            re.M).group(1)
    pairs = [(a + '/clean.json', b + '/clean.json') for a, b in itertools.permutations(dirs, 2)]
    pairs += [(d + '/clean.json', d + '/host1us.json') for d in dirs]
    ratios = {}
    for base, run in pairs:
        before = gated_rows(old, base, run, gate_filter)
        for name, row in gated_rows(new, base, run, gate_filter).items():
            if (row['gate'].startswith('not gated') or 'host-adj' not in row['gate'] or
                    name not in before or before[name]['gate'].startswith('not gated')):
                continue
            ratios.setdefault(name, []).append(float(row['limit']) / float(before[name]['limit']))
    every = [x for v in ratios.values() for x in v]
    if not every:
        sys.exit('limits.py: no host-adjusted gated row in those calls')
    q = st.quantiles(every, n=20)
    print(f'{len(every)} host-adjusted gated rows over {len(pairs)} comparisons; new limit / old: '
          f'median {st.median(every):.3f}, 5-95% {q[0]:.3f}-{q[-1]:.3f}; narrower '
          f'{sum(x < 0.999 for x in every)}, wider {sum(x > 1.001 for x in every)}, the same '
          f'{sum(0.999 <= x <= 1.001 for x in every)}')
    for name, v in sorted(ratios.items(), key=lambda kv: st.median(kv[1])):
        print(f'  {name:55s} {len(v):3d}  median {st.median(v):.3f}  '
              f'range {min(v):.3f}-{max(v):.3f}')


if __name__ == '__main__':
    main()
