"""13.3.4's goals as ratios from one run; prints them (not a test). `benchmarks/bench.py` calls allreduce_goals.

    python benchmarks/allreduce_bench.py [--backend gloo|nccl] [--world-size N] [--repeats R] [--json FILE] [--quick]

Goals, on 2 processes (the default): the interval-based overlap of the all-reduce with backward (the share
of the all-reduce's busy time during which backward computed, from profiled steps) >= 0.5 for the
gradient-hook version and for DDP at its best bucket size in the sweep; the bucket size the per-call
overhead + bandwidth model predicts fastest at most one size away in the sweep from the measured fastest.
Backward's own slowdown while overlapping (overlapped backward / backward alone) is printed beside each overlap; where a
goal is missed, the output names the term of the model that explains it.
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


def overlap_reason(r, vid) -> str:
    """Which term of the model explains an overlap below 0.5: the model itself, or a measured term it leaves out."""
    v, p = r.version(vid), r.prediction
    model = r.predicted(vid)
    if model['overlap'] < 0.5:
        calls = model['calls']
        if calls <= 1:
            return 'model: one call, which starts when backward ends'
        nbytes = p.gradient_bytes / calls
        call, fixed, moving = p.call(nbytes), p.per_call, p.ring_factor * nbytes / p.bus_bandwidth
        term = f'per-call overhead term ({fixed * 1e3:.2f} ms)' if fixed > moving else \
            f'bandwidth term ({moving * 1e3:.2f} ms)'
        if call > p.backward_span / calls:
            return (f'model: {term}: a call takes {call * 1e3:.2f} ms, longer than backward needs per call '
                    f'({p.backward_span / calls * 1e3:.2f} ms), so calls queue past the end of backward')
        return f'model: {calls} calls allow at most {(calls - 1) / calls:.0%}'
    slowdown = r.slowdown(vid) or 1.0
    if slowdown > 1.05:
        return (f'not in the model: backward x{slowdown:.2f} while sending (measured; its cause is not), and the '
                f'all-reduce took {v.comm_seconds * 1e3:.1f} ms against the model\'s {model["busy"] * 1e3:.1f} ms')
    return (f"not in the model: the all-reduce took {v.comm_seconds * 1e3:.1f} ms against the model's "
            f'{model["busy"] * 1e3:.1f} ms (bandwidth while overlapping below the measured {p.bus_bandwidth / 1e9:.2f} '
            f'GB/s)')


def bucket_reason(r, model_best, measured_best) -> str:
    """Which term explains a model's best bucket size away from the measured one."""
    p = r.prediction
    parts = []
    for mb in (model_best, measured_best):
        s = p.schedule('ddp', mb)
        parts.append(f'{mb:g} MB: {s["calls"]} calls x {p.per_call * 1e3:.2f} ms per call = '
                     f'{s["calls"] * p.per_call * 1e3:.1f} ms, exposed after backward {s["exposed"] * 1e3:.1f} ms')
    m, b = r.version(f'ddp-{measured_best:g}'), r.version(f'ddp-{model_best:g}')
    term = 'per-call overhead' if abs(m.calls - b.calls) * p.per_call > abs(m.median - b.median) / 2 else \
        "overlap (the measured overlap differs from the model's)"
    return f"term: {term}; model: {'; '.join(parts)}"


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
    print(f'  model: {p.per_call * 1e3:.3f} ms per call (one float: median of {len(p.small_times)}) + bytes at '
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
        if measured < 0.5:
            print(f'       why: {overlap_reason(r, vid)}')
    swept = sorted(v.bucket_mb for v in r.ddp_versions())
    model = p.best_buckets(swept)
    fastest = fastest_buckets(r)  # the sizes not told apart from the fastest by the repeats' spread
    apart = min(abs(swept.index(a) - swept.index(b)) for a in fastest for b in model)
    goal(rows, f"model's best bucket ({', '.join(f'{mb:g}' for mb in model)} MB): sizes in the sweep from the "
               f"measured best ({', '.join(f'{mb:g}' for mb in fastest)} MB, not told apart)",
         apart, '<= 1', apart <= 1)
    if apart > 1:
        print(f'       why: {bucket_reason(r, model[0], best.bucket_mb)}')
    return {'goals': rows, 'best_bucket_mb': best.bucket_mb, 'model_best_bucket_mb': model, 'steal_seconds': steal,
            'overlap': {'hooks': r.overlap_row('hooks'), 'ddp': r.overlap_row(best.id)},
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
