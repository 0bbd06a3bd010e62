#!/usr/bin/env python3
"""test_fidelity's verdicts over device calls: sync_bench against the hand-written loop.

Reads every test_fidelity output kept in the calls' logs.tar.gz and takes, for each run and
comparison, its verdict line (one per comparison, with the rounds it took: 30, 60 or 90). The runs
alone (fidelityN.txt, `ctest --verbose`) print the verdicts; test.sh's logs (testN.txt) hold them
only from 2026-11-28's test.sh on, which prints them from CTest's log. Prints, per comparison, the
range over the runs of both halves' step and of the median per-round difference, clean and
injected.

    results/h100/gate_p20_0634182d/fidelity_table.py CALL_DIR...
"""
import re
import sys
import tarfile

LINE = re.compile(r'fidelity: (clean|host|gpu)\s+(\S+(?: overhead)?)\s+hand-written\s+([\d.]+) us'
                  r'\s+sync_bench\s+([\d.]+) us\s+\(([+-][\d.]+)% \+- ([\d.]+)%, (\d+) rounds\)')


def runs(call):
    """{(call, member): {(kind, comparison): (hand, sync_bench, diff, rounds)}} of one call."""
    out = {}
    try:
        tar = tarfile.open(f'{call}/logs.tar.gz')
    except (OSError, tarfile.TarError):
        return out
    with tar:
        for m in tar.getmembers():
            name = m.name.rsplit('/', 1)[-1]
            if not re.fullmatch(r'(test|fidelity)\d+\.txt', name):
                continue
            verdicts = {}
            for line in tar.extractfile(m).read().decode(errors='replace').splitlines():
                hit = LINE.search(line)
                if hit:
                    kind, comp, hand, sb, diff, _, rounds = hit.groups()
                    verdicts[(kind, comp)] = (float(hand), float(sb), float(diff), int(rounds))
            if verdicts:
                out[(call, name)] = verdicts
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    every = {}
    for call in sys.argv[1:]:
        every.update(runs(call.rstrip('/')))
    if not every:
        sys.exit('fidelity_table.py: no test_fidelity verdicts in those calls')
    print(f'{len(every)} test_fidelity runs in {len({c for c, _ in every})} calls')
    keys = sorted({k for v in every.values() for k in v}, key=lambda k: (k[1], k[0] != 'clean'))
    for kind, comp in keys:
        rows = [v[(kind, comp)] for v in every.values() if (kind, comp) in v]
        lo = [min(col) for col in zip(*rows)]
        hi = [max(col) for col in zip(*rows)]
        print(f'{kind:5} {comp:56} {len(rows):2} runs  hand-written {lo[0]:9.3f}-{hi[0]:9.3f} us'
              f'  sync_bench {lo[1]:9.3f}-{hi[1]:9.3f} us  difference {lo[2]:+5.1f}% to {hi[2]:+5.1f}%'
              f'  ({sum(r[3] > 30 for r in rows)} needed more than 30 rounds)')


if __name__ == '__main__':
    main()
