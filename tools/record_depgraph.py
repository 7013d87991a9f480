"""Record 13.3.3's step on this machine (one device vs the two lanes its graph uses) into one JSON file.

    python3 tools/record_depgraph.py --out FILE [--batch 256,4096,16384] [--repeats 7] [--no-dag] [--force]

On a GPU machine the lanes are the GPU and the CPU (or two GPUs) and the default batches are the
lesson's 256 rows and two larger ones; without a GPU it records the lesson's size only, for trying
it out (a CPU recording is never shown as GPU evidence). Exercise 5 (the planned DAG) is recorded on
the same lanes unless --no-dag. It prints the caption and the name to ship
the file under: d2l_ext/depgraph/recorded/<name>. Needs PyTorch only (no Jupyter, no matplotlib).
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GPU_BATCHES = (256, 4096, 16384)  # the lesson's minibatch, then 16 and 64 times as many rows
CPU_BATCHES = (256,)


def _output(path: str, force: bool) -> pathlib.Path:
    """The output path, refused before anything is measured if it cannot be written."""
    out = pathlib.Path(path).expanduser()
    if out.is_dir():
        sys.exit(f'--out {out} is a folder: name a file')
    if out.exists() and not force:
        sys.exit(f'{out} exists: pass --force to replace it, or name another file')
    if not out.parent.resolve().is_dir() or not os.access(out.parent.resolve(), os.W_OK):
        sys.exit(f'cannot write into {out.parent.resolve()}: name a file in a folder you can write')
    return out


def _batches(text: str | None, gpu: bool) -> list[int]:
    if not text:
        return list(GPU_BATCHES if gpu else CPU_BATCHES)
    try:
        batches = [int(b) for b in text.split(',') if b.strip()]
    except ValueError:
        sys.exit(f'--batch takes whole numbers separated by commas, e.g. 256,4096; got {text!r}')
    if not batches or any(b < 2 for b in batches):
        sys.exit(f'--batch: every batch needs at least 2 rows (one part per lane); got {text!r}')
    return batches


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--out', required=True, help='the JSON file to write')
    p.add_argument('--batch', help='batch sizes, comma-separated (default: 256,4096,16384 with a GPU, else 256)')
    p.add_argument('--repeats', type=int, default=7, help='timed repeats of each way, interleaved (default 7)')
    p.add_argument('--force', action='store_true', help='replace --out if it exists')
    p.add_argument('--no-dag', action='store_true', help='leave out exercise 5 (the planned DAG of products)')
    args = p.parse_args(argv)
    out = _output(args.out, args.force)
    if args.repeats < 1:
        sys.exit(f'--repeats must be at least 1, got {args.repeats}')
    import torch

    from d2l_ext.depgraph import recording
    from d2l_ext.errors import UsageError
    batches = _batches(args.batch, torch.cuda.is_available())
    started = time.perf_counter()
    try:
        rec = recording.record_step(batches=batches, repeats=args.repeats,
                                    progress=lambda i, n: print(f'batch {i} of {n} recorded', file=sys.stderr),
                                    dag=not args.no_dag)
    except UsageError as e:
        sys.exit(str(e))
    part = out.with_name(out.name + '.part')
    part.write_text(json.dumps(rec, indent=1), encoding='utf-8')
    part.replace(out)  # an interrupted run leaves no half-written recording
    try:
        from d2l_ext.display.graph import step_lines
        print(step_lines(rec, ask=False))  # the lines the lesson prints under its figure
    except ImportError:  # no matplotlib here: the numbers alone
        import statistics
        for run in rec['runs']:  # each way's median step, seconds
            print(run['batch'], {way: statistics.median(times) for way, times in run['times'].items()})
    kind = 'GPU recording' if recording.is_gpu(rec) else 'CPU recording (not for shipping as GPU evidence)'
    print(f'{kind} written to {out} in {time.perf_counter() - started:.1f} s; '
          f'ship it as d2l_ext/depgraph/recorded/{recording.file_name(rec)}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
