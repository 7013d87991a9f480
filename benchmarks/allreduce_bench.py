"""13.3.4's speed goals, measured in one run; prints ratios (not a test). `benchmarks/bench.py` calls allreduce_goals.

    python benchmarks/allreduce_bench.py [--backend gloo|nccl] [--world-size N] [--repeats R] [--json FILE] [--quick]

Hidden fraction of the all-reduce = (backward then all-reduce - overlapped) / all-reduce alone, for the
gradient-hook version and for DDP at its best bucket size (swept). Goal with gloo on idle cores, one
per process: >= 0.5. With NCCL on >= 2 GPUs: DDP step <= 1.1 x backward alone, and the bus bandwidth.
"""
from __future__ import annotations

import argparse
import json
import sys

from bench import goal  # one way to print and keep a goal (bench.py imports this file too)

BUCKETS_MB = (0.25, 1.0, 4.0, 25.0)


def allreduce_goals(backend: str = 'gloo', world_size=None, bucket_mb=BUCKETS_MB, repeats: int = 5,
                    quick: bool = False) -> dict:
    """13.3.4's goals as ratios from one interleaved run; every repeat kept in 'result'."""
    from d2l_ext.allreduce import run_allreduce
    from d2l_ext.machine import cpu_cores, cpu_steal_seconds
    sizes = dict(layers=2, width=64, batch=8, repeats=1) if quick else dict(repeats=repeats)
    steal = cpu_steal_seconds()
    # no_sync: the 'backward alone' for DDP (its hooks run, nothing is sent), beside the plain model's
    r = run_allreduce(backend, world_size, bucket_mb=bucket_mb, no_sync=True, **sizes)
    steal = cpu_steal_seconds() - steal
    best = r.best_ddp()
    rows = []
    print(f'13.3.4 all-reduce during backward ({r.processes} processes, {backend}, {cpu_cores()} cores; '
          f'CPU time stolen by the host while measuring: {steal:.2f} s)')
    for v in r.versions:
        print(f'  {v.label:<38} median {v.median:.4f} s  every repeat: {" ".join(f"{x:.4f}" for x in v.step_times)}')
    p = r.prediction
    print(f'  predicted: all-reduce {p.allreduce:.4f} s, serial {p.serial:.4f} s, best overlap {p.overlapped:.4f} s; '
          f'bus bandwidth {p.bus_bandwidth / 1e9:.2f} GB/s')
    if backend == 'gloo':
        shared = r.processes >= cpu_cores()  # gloo's threads then compete with backward for the same cores
        note = ' (gloo shares the cores with compute)' if shared else ''
        goal(rows, 'hidden fraction, gradient hooks' + note, r.hidden_fraction('hooks'), '>= 0.5',
              r.hidden_fraction('hooks') >= 0.5)
        goal(rows, f'hidden fraction, DDP at {best.bucket_mb:g} MB buckets' + note, r.hidden_fraction(best.id),
              '>= 0.5', r.hidden_fraction(best.id) >= 0.5)
    else:
        ratio = best.median / r.version('backward').median
        goal(rows, f'DDP step / backward alone at {best.bucket_mb:g} MB buckets', ratio, '<= 1.1', ratio <= 1.1, 'x')
        for vid in ('hooks', best.id):
            print(f'  hidden fraction, {vid}: {r.hidden_fraction(vid):.3f}')
    bookkeeping = r.version('nosync').median / r.version('backward').median
    print(f'  DDP inside no_sync / plain model (nothing sent either way): {bookkeeping:.3f}x')
    return {'goals': rows, 'best_bucket_mb': best.bucket_mb, 'steal_seconds': steal, 'no_sync_ratio': bookkeeping,
            'hidden_fraction': {'hooks': r.hidden_fraction('hooks'), 'ddp': r.hidden_fraction(best.id)},
            'result': r.to_dict()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--backend', default='gloo')
    ap.add_argument('--world-size', default=None)
    ap.add_argument('--repeats', type=int, default=5)
    ap.add_argument('--json', default=None, help='also write everything measured to this file')
    ap.add_argument('--quick', action='store_true', help='tiny sizes: check the script runs')
    args = ap.parse_args(argv)
    out = allreduce_goals(args.backend, args.world_size, repeats=args.repeats, quick=args.quick)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
