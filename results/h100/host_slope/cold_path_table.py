#!/usr/bin/env python3
"""Tabulates cold_path.cpp's output files: per workload, each process's median host time of the
launch in each situation, and the after_sync and after_drain launches as multiples of the Async
loop's (after_launch).

usage: cold_path_table.py FILE...   (e.g. ../acceptance11/call*/cold_path*.txt)
"""
import re
import sys

LINE = re.compile(r'(\S+)\s+(after_\S+)\s+n=\s*(\d+)\s+median\s+([\d.]+)')


def read(path):
    rows = {}
    for line in open(path):
        m = LINE.match(line)
        if m:
            rows.setdefault(m[1], {})[m[2]] = float(m[4])
    return rows


def main(paths):
    if not paths:
        sys.exit(__doc__)
    runs = [(p, read(p)) for p in paths]
    workloads = list(dict.fromkeys(w for _, r in runs for w in r))
    situations = ['after_launch', 'after_launch_spin', 'after_launch_wait', 'after_sync',
                  'after_sync_spin', 'after_sync_kernel', 'after_drain']
    short = [s.replace('after_', '') for s in situations]
    for w in workloads:
        print(w)
        print('  %-34s' % 'process' + ''.join('%13s' % s for s in short) +
              '  sync/launch  drain/launch')
        ratios = []
        for p, r in runs:
            s = r.get(w)
            if not s:
                continue
            cells = ''.join('%13s' % ('%.1f' % s[k] if k in s else '-') for k in situations)
            sync = s['after_sync'] / s['after_launch']
            drain = s['after_drain'] / s['after_launch'] if 'after_drain' in s else None
            ratios.append(sync)
            print('  %-34s%s  %11.2f  %12s' % (p[-34:], cells, sync,
                                               '%.2f' % drain if drain else '-'))
        print('  after_sync / after_launch over %d processes: %.2f-%.2f' %
              (len(ratios), min(ratios), max(ratios)))


if __name__ == '__main__':
    main(sys.argv[1:])
