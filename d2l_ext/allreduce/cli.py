"""`python -m d2l_ext allreduce ...` (13.3.4); also `python -m d2l_ext.allreduce ...`, alone or under torchrun."""
from __future__ import annotations

import argparse
import json
import os
import sys

from ..i18n import t


def add_parser(subparsers) -> argparse.ArgumentParser:
    """13.3.4: the `allreduce` subcommand and its options."""
    s = subparsers.add_parser('allreduce', help='13.3.4: gradients all-reduced while backward still runs')
    s.add_argument('--backend', default='gloo', choices=['gloo'],
                   help='gloo: one CPU process each (NCCL is not supported: it was never run on 2 GPUs)')
    s.add_argument('--world-size', default=None, help='processes (default: 2)')
    s.add_argument('--bucket-mb', default='1', help='DDP bucket size in MB, or several: 0.25,1,4,25 (default 1)')
    s.add_argument('--repeats', default='3', help='timed repeats of every version after one warm-up (default 3)')
    s.add_argument('--layers', default='6', help='MLP layers (default 6)')
    s.add_argument('--width', default='1024', help='MLP width (default 1024)')
    s.add_argument('--batch', default='128', help='examples per process (default 128)')
    s.add_argument('--port', default=None, help='port on 127.0.0.1 where the processes meet (default: a free one)')
    s.add_argument('--timeout', default='30', help='seconds a process waits for a silent peer, 1-3600 (default 30)')
    s.add_argument('--trace-dir', default=None, help='write one Chrome trace per version and process here')
    s.add_argument('--json', action='store_true', help='print one JSON object (fields: README)')
    return s


def _under_torchrun() -> bool:
    return 'TORCHELASTIC_RUN_ID' in os.environ and 'RANK' in os.environ


def _print(result, as_json: bool) -> None:
    from ..machine import turns_line
    # processes on fewer cores than processes take turns: said before any overlap is printed
    turns = turns_line(result.processes, result.cores or None, 'processes') if getattr(result, 'processes', 0) else ''
    if as_json:
        print(json.dumps({'command': 'allreduce', **result.to_dict(), 'caveats': [turns] if turns else []},
                         indent=1))
    else:
        print('\n'.join(line for line in (turns, result.summary()) if line))


def run(args) -> int:
    """13.3.4: every option checked before PyTorch is imported or a process starts (bad values: one line, exit 2);
    then start the processes (or, under torchrun, be one of them) and print what they measured."""
    from ..paths import missing_files, try_folder
    from .plan import make_plan
    torchrun = _under_torchrun()
    plan = make_plan(args.backend, os.environ['WORLD_SIZE'] if torchrun else args.world_size, port=args.port,
                     torchrun=torchrun, bucket_mb=args.bucket_mb, repeats=args.repeats, layers=args.layers,
                     width=args.width, batch=args.batch, timeout=args.timeout)
    if args.trace_dir is not None:
        plan.trace_dir = str(try_folder(args.trace_dir, '--trace-dir', create=True))
    from .worker import run_allreduce
    result = run_allreduce(plan=plan)
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
