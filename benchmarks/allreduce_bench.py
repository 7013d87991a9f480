"""13.3.4's goals as ratios from one run; prints them (not a test). `benchmarks/bench.py` calls allreduce_goals.

    python benchmarks/allreduce_bench.py [--world-size N] [--repeats R] [--json FILE] [--quick]

Goals, on 2 gloo processes (the default): the interval-based overlap of the all-reduce with backward (the share
of the all-reduce's busy time during which backward computed, from profiled steps) >= 0.5 for the
gradient-hook version and for DDP at its best bucket size in the sweep; the bucket size the per-call
overhead + bandwidth model predicts fastest at most one size away in the sweep from the measured fastest.
Backward's own slowdown while overlapping (overlapped backward / backward alone) is printed beside each overlap.
"""
from __future__ import annotations

import argparse
import json
import sys

BUCKETS_MB = (0.25, 1.0, 4.0, 8.0, 25.0)
PROFILED = 3  # profiled steps per version: the overlap is pooled over them


def goal(rows, name, value, target, ok, unit=''):
    """Keep and print one goal; bench.py uses this one too (it imports this file, never the other way)."""
    rows.append({'goal': name, 'measured': value, 'target': target, 'met': bool(ok), 'unit': unit})
    print(f"  {'MET ' if ok else 'MISS'} {name}: {value:.3f}{unit} (goal {target})", flush=True)


def fastest_buckets(r) -> list[float]:
    """The DDP bucket sizes whose median lies within the repeats' spread (d2l_ext.results.chance_gap) of the fastest."""
    from d2l_ext.results import chance_gap
    best = min(r.ddp_versions(), key=lambda v: v.median)
    return sorted(v.bucket_mb for v in r.ddp_versions()
                  if v.median - best.median <= chance_gap(best.measurement, v.measurement))


def allreduce_goals(backend: str = 'gloo', world_size=None, bucket_mb=BUCKETS_MB, repeats: int = 5,
                    quick: bool = False) -> dict:
    """13.3.4's goals as ratios from one interleaved run; every repeat kept in 'result'."""
    from d2l_ext.allreduce import run_allreduce
    from d2l_ext.machine import cpu_cores, cpu_steal_seconds
    sizes = dict(layers=2, width=64, batch=8, repeats=1) if quick else dict(repeats=repeats)
    steal = cpu_steal_seconds()
    r = run_allreduce(backend, world_size, bucket_mb=bucket_mb, profiled=1 if quick else PROFILED, **sizes)
    steal = cpu_steal_seconds() - steal
    best, p = r.best_ddp(), r.prediction
    rows = []
    print(f'13.3.4 all-reduce during backward ({r.processes} processes, {backend}, {cpu_cores()} cores; '
          f'CPU time stolen by the host while measuring: {steal:.2f} s)')
    for v in r.versions:
        print(f'  {v.label:<38} median {v.median:.4f} s  every repeat: {" ".join(f"{x:.4f}" for x in v.step_times)}')
    print(f'  model: {p.per_call * 1e3:.3f} ms per call + bytes at '
          f'{p.bus_bandwidth / 1e9:.2f} GB/s bus bandwidth; backward alone {p.backward_span * 1e3:.1f} ms (profiled)')
    for vid in ('hooks', best.id):
        row = r.overlap_row(vid)
        print(f"  {vid}: overlap {row['measured']:.3f} (model {row['predicted']:.3f}), (a) - it "
              f"{row['wall_clock_s'] * 1e3:+.1f} ms, {row['calls']} calls, backward slowdown x"
              f"{row['backward_slowdown'] or 1.0:.2f} (overlapped backward / backward alone)")
    for vid, name in (('hooks', 'gradient hooks'), (best.id, f'DDP at its best bucket size, {best.bucket_mb:g} MB')):
        measured = r.version(vid).overlap or 0.0
        goal(rows, f'interval overlap of the all-reduce with backward, {name} '
                   f'(backward x{r.slowdown(vid) or 1.0:.2f})', measured, '>= 0.5', measured >= 0.5)
    swept = sorted(v.bucket_mb for v in r.ddp_versions())
    model = p.best_buckets(swept)
    fastest = fastest_buckets(r)  # the sizes not told apart from the fastest by the repeats' spread
    apart = min(abs(swept.index(a) - swept.index(b)) for a in fastest for b in model)
    goal(rows, f"model's best bucket ({', '.join(f'{mb:g}' for mb in model)} MB): sizes in the sweep from the "
               f"measured best ({', '.join(f'{mb:g}' for mb in fastest)} MB, not told apart)",
         apart, '<= 1', apart <= 1)
    return {'goals': rows, 'best_bucket_mb': best.bucket_mb, 'model_best_bucket_mb': model, 'steal_seconds': steal,
            'overlap': {'hooks': r.overlap_row('hooks'), 'ddp': r.overlap_row(best.id)},
            'result': r.to_dict()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--world-size', default=None)
    ap.add_argument('--repeats', type=int, default=5)
    ap.add_argument('--json', default=None, help='also write everything measured to this file')
    ap.add_argument('--quick', action='store_true', help='tiny sizes: check the script runs')
    args = ap.parse_args(argv)
    out = allreduce_goals(world_size=args.world_size, repeats=args.repeats, quick=args.quick)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
