"""`python -m d2l_ext allreduce ...` (13.3.4); also `python -m d2l_ext.allreduce ...`, alone or under torchrun."""
from __future__ import annotations

import argparse
import json
import math
import os
import sys

from ..errors import UsageError
from ..i18n import t
from .plan import check_port, check_timeout

# float32 bytes per parameter per process: model, gradients, the reference's copy and gradients, DDP, buffers
BYTES_PER_PARAMETER = 4 * 8


def add_parser(subparsers) -> argparse.ArgumentParser:
    """13.3.4: the `allreduce` subcommand and its options."""
    s = subparsers.add_parser('allreduce', help='13.3.4: gradients all-reduced while backward still runs')
    s.add_argument('--backend', default='gloo', help='gloo (CPU processes, default) or nccl (one process per GPU)')
    s.add_argument('--world-size', default=None, help='processes (default: 2 for gloo, every GPU for nccl)')
    s.add_argument('--bucket-mb', default='1', help='DDP bucket size in MB, or several: 0.25,1,4,25 (default 1)')
    s.add_argument('--repeats', default='3', help='timed repeats of every version after one warm-up (default 3)')
    s.add_argument('--layers', default='6', help='MLP layers (default 6)')
    s.add_argument('--width', default='1024', help='MLP width (default 1024)')
    s.add_argument('--batch', default='128', help='examples per process (default 128)')
    s.add_argument('--port', default=None, help='port on 127.0.0.1 for the processes to meet, 1024-65535 '
                                                '(default: a free one)')
    s.add_argument('--timeout', default='30', help='seconds a process waits for a silent peer, 1-3600 (default 30)')
    s.add_argument('--trace-dir', default=None, help='write one Chrome trace per version and process here')
    s.add_argument('--json', action='store_true', help='print one JSON object (fields: README)')
    return s


def _check_gloo(world_size, layers, width, batch) -> None:
    """The world sizes this machine allows (the one answer plan.world_sizes gives), then whether the model fits."""
    from ..machine import cpu_cores, free_host_bytes, positive_int, turns_line
    from .plan import world_sizes
    fewest, most = world_sizes('gloo')
    try:
        n = fewest if world_size is None else int(str(world_size).strip())
    except ValueError:
        n = 0
    if not fewest <= n <= most:
        if fewest == most and cpu_cores() < fewest:  # one core: gloo still needs two processes, taking turns
            raise UsageError(t('cli.world_only', only=fewest, value=world_size,
                               turns=turns_line(fewest, what='processes')))
        raise UsageError(t('cli.world_range', fewest=fewest, most=most, cores=cpu_cores(), value=world_size))
    sizes = {k: positive_int(v, k, t('allreduce.usage.size_hint', name=k))
             for k, v in (('layers', layers), ('width', width), ('batch', batch))}
    fits = memory_advice(n, sizes['layers'], sizes['width'], sizes['batch'], free_host_bytes())
    if fits is not None:
        raise UsageError(t('cli.model_memory', world=n, **sizes, **fits))


def memory_advice(world: int, layers: int, width: int, batch: int, free: float) -> dict | None:
    """None when the processes fit in 80% of `free` bytes; else the need, and the option that causes it with a value
    below its current one that fits in half (the batch when its activations outweigh the weights, else the width)."""
    per_width2 = world * layers * BYTES_PER_PARAMETER
    weights = per_width2 * width ** 2
    per_example = world * width * layers * 4 * 4  # activations and their gradients, float32
    need = weights + batch * per_example
    if need <= 0.8 * free:
        return None
    budget = 0.5 * free
    option, current, fit = '--width', width, int(math.sqrt(budget / per_width2))
    if batch * per_example > weights and weights < budget:  # the batch is the cause
        option, current, fit = '--batch', batch, int((budget - weights) / per_example)
    return dict(need=need / 2**30, free=free / 2**30, option=option, fit=max(1, min(fit, current - 1)))


def _under_torchrun() -> bool:
    return 'TORCHELASTIC_RUN_ID' in os.environ and 'RANK' in os.environ


def _print(result, as_json: bool) -> None:
    from ..machine import turns_line
    # gloo processes on fewer cores than processes take turns: said before any overlap is printed
    gloo = getattr(result, 'backend', 'gloo') == 'gloo' and getattr(result, 'processes', 0)
    turns = turns_line(result.processes, getattr(result, 'cores', 0) or None, 'processes') if gloo else ''
    if as_json:
        print(json.dumps({'command': 'allreduce', **result.to_dict(), 'caveats': [turns] if turns else []},
                         indent=1))
    else:
        print('\n'.join(line for line in (turns, result.summary()) if line))


def run(args) -> int:
    """13.3.4: every option checked before PyTorch is imported or a process starts (bad values: one line, exit 2);
    then start the processes (or, under torchrun, be one of them) and print what they measured."""
    from ..paths import missing_files, try_folder
    args.timeout, args.port = check_timeout(args.timeout), check_port(args.port)
    if args.backend == 'gloo' and not _under_torchrun():
        _check_gloo(args.world_size, args.layers, args.width, args.batch)
    if args.trace_dir is not None:
        args.trace_dir = str(try_folder(args.trace_dir, '--trace-dir', create=True))
    from .worker import run_allreduce, run_under_torchrun
    options = dict(backend=args.backend, bucket_mb=args.bucket_mb, repeats=args.repeats, layers=args.layers,
                   width=args.width, batch=args.batch, timeout=args.timeout, trace_dir=args.trace_dir)
    if _under_torchrun():
        result = run_under_torchrun(**options)
    else:
        result = run_allreduce(world_size=args.world_size, port=args.port, **options)
    if result is None:
        return 0
    # traces the profiler could not write (it only prints 'Failed to write'): dropped from the result, said
    total = sum(len(paths) for paths in result.traces.values())
    missing = missing_files(p for paths in result.traces.values() for p in paths)
    result.traces = {vid: [p for p in paths if p not in missing] for vid, paths in result.traces.items()}
    _print(result, args.json)
    if missing:
        print(t('cli.traces_missing', count=len(missing), total=total, first=missing[0]), file=sys.stderr)
        return 1
    return 0


def main(argv=None) -> int:
    """`python -m d2l_ext.allreduce`: the same subcommand, for torchrun's -m and before the main CLI has it."""
    from ..cliparse import guard_interrupts, parser_with_subcommands, run_program
    prog = 'python -m d2l_ext.allreduce'
    if argv is None and not _under_torchrun():  # a program of its own: Ctrl-C gives one line, children ignore it
        guard_interrupts()

    def work() -> int:
        parser, sub = parser_with_subcommands(prog)
        add_parser(sub)
        return run(parser.parse_args(['allreduce', *(sys.argv[1:] if argv is None else argv)]))
    return run_program(prog, work)
