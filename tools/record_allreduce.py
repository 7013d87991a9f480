"""Record 13.3.4 (gradients all-reduced during backward) at several gloo world sizes into one JSON file.

    python3 tools/record_allreduce.py --out FILE [--world-sizes 2,4,8] [--repeats 7] [--force]
        [--bucket-mb 0.25,1,8,25] [--layers 6 --width 1024 --batch 128]

It runs the lesson's own run (d2l_ext.allreduce.run_allreduce) once per world size, every version checked
against float64, and writes every repeat, the profiled steps' intervals, the model's prediction and the
machine, versions and date. On a machine with fewer cores than processes they take turns (the recording
says so). It prints the caption and the name to ship the file under: d2l_ext/allreduce/recorded/<name>.
Needs PyTorch only (no Jupyter; without matplotlib it prints the medians instead of the caption).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


# The lesson's step versions, in its order: (a), (b), (c); (d) is every 'ddp-<MB>' id.
STEPS = ('serial', 'flat', 'hooks')
# Events kept for drawing: the step versions only (backward alone and all-reduce alone keep their statistics).
DRAWN = STEPS + ('buckets', 'ddp')
# JSON floats rounded to this many significant digits: the profiler's clock is microseconds.
DIGITS = 7


def _rounded(x):
    if isinstance(x, float):
        return float(f'{x:.{DIGITS}g}')
    if isinstance(x, dict):
        return {k: _rounded(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_rounded(v) for v in x]
    return x


def _run_json(result, seconds: float) -> dict:
    """One world size's result as JSON: no trace paths (they stay on the recording machine)."""
    d = result.to_dict()
    d.pop('traces', None)
    d['events'] = {vid: events for vid, events in d['events'].items() if vid.split('-')[0] in DRAWN}
    return _rounded({'world_size': result.processes, 'seconds': seconds,
                     'shared_cores': result.processes > result.cores, 'result': d})


def record(world_sizes=(2, 4, 8), *, bucket_mb=(0.25, 1, 8, 25), repeats=7, profiled=2, layers=6, width=1024,
           batch=128, timeout=60.0, progress=None) -> dict:
    """Record 13.3.4 with gloo at each world size -> a JSON-ready recording (13.3.4)."""
    from d2l_ext.allreduce import recording, run_allreduce
    from d2l_ext.machine import cpu_cores, provenance
    out = {'format': recording.FORMAT, 'section': '13.3.4', 'recorded_with': 'tools/record_allreduce.py',
           'machine': provenance(), 'backend': 'gloo', 'sizes': {'layers': layers, 'width': width, 'batch': batch},
           'bucket_mb': list(bucket_mb), 'repeats': repeats, 'profiled': profiled, 'runs': []}
    for i, n in enumerate(world_sizes):
        started = time.perf_counter()
        result = run_allreduce('gloo', n, bucket_mb=list(bucket_mb), repeats=repeats, profiled=profiled,
                               layers=layers, width=width, batch=batch, timeout=timeout,
                               share_cores=n > cpu_cores())
        out['runs'].append(_run_json(result, time.perf_counter() - started))
        if progress:
            progress(i + 1, len(world_sizes), n)
    return out


def _ints(text: str, what: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(',') if v.strip()]
    except ValueError:
        sys.exit(f'--{what} takes whole numbers separated by commas, e.g. 2,4,8; got {text!r}')
    if not values or any(v < 2 for v in values):
        sys.exit(f'--{what}: every world size needs at least 2 processes; got {text!r}')
    return values


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--out', required=True, help='the JSON file to write')
    p.add_argument('--world-sizes', default='2,4,8', help='gloo processes, comma-separated (default 2,4,8)')
    p.add_argument('--bucket-mb', default='0.25,1,8,25', help='DDP bucket sizes in MB (default 0.25,1,8,25)')
    p.add_argument('--repeats', type=int, default=7, help='timed repeats of every version, interleaved (default 7)')
    p.add_argument('--profiled', type=int, default=2, help='profiled steps per version (default 2)')
    p.add_argument('--layers', type=int, default=6, help="MLP layers (default 6, the lesson's)")
    p.add_argument('--width', type=int, default=1024, help="MLP width (default 1024, the lesson's)")
    p.add_argument('--batch', type=int, default=128, help="examples per process (default 128, the lesson's)")
    p.add_argument('--force', action='store_true', help='replace --out if it exists')
    args = p.parse_args(argv)
    from record_depgraph import _output  # the same refusal of an output that cannot be written
    out = _output(args.out, args.force)
    sizes = _ints(args.world_sizes, 'world-sizes')
    if args.repeats < 1 or args.profiled < 1:
        sys.exit('--repeats and --profiled must be at least 1')
    from d2l_ext.allreduce import recording
    from d2l_ext.allreduce.plan import bucket_sizes
    from d2l_ext.errors import UsageError, WorkerFailed
    started = time.perf_counter()
    try:
        rec = record(sizes, bucket_mb=bucket_sizes(args.bucket_mb), repeats=args.repeats,
                               profiled=args.profiled, layers=args.layers, width=args.width, batch=args.batch,
                               progress=lambda i, k, n: print(f'{n} processes recorded ({i} of {k}, '
                                                              f'{time.perf_counter() - started:.0f} s)',
                                                              file=sys.stderr))
    except (UsageError, WorkerFailed) as e:
        sys.exit(str(e))
    part = out.with_name(out.name + '.part')
    part.write_text(json.dumps(rec), encoding='utf-8')
    part.replace(out)  # an interrupted run leaves no half-written recording
    try:
        from d2l_ext.display.allreduce_recorded import recorded_text
        print(recorded_text(rec))
    except ImportError:  # no matplotlib here: the medians alone
        for n, result in recording.results(rec).items():
            print(n, 'processes:', {v.id: round(v.median, 5) for v in result.versions})
    kind = 'recording from a GPU machine' if recording.is_gpu_machine(rec) else \
        'CPU-only recording (for tests, not for shipping)'
    print(f'{kind} written to {out} in {time.perf_counter() - started:.1f} s; '
          f'ship it as d2l_ext/allreduce/recorded/{recording.file_name(rec)}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
