"""`python -m d2l_ext allreduce ...` (13.3.4); also `python -m d2l_ext.allreduce ...`, alone or under torchrun."""
from __future__ import annotations

import argparse
import json
import os
import sys


def add_parser(subparsers) -> argparse.ArgumentParser:
    """13.3.4: the `allreduce` subcommand and its options."""
    s = subparsers.add_parser('allreduce', help='13.3.4: gradients all-reduced while backward still runs')
    s.add_argument('--backend', default='gloo', help="gloo (CPU processes, default) or nccl (one process per GPU)")
    s.add_argument('--world-size', default=None, help='processes (default: 2 for gloo, every GPU for nccl)')
    s.add_argument('--bucket-mb', default='1', help='DDP bucket size in MB, or several: 0.25,1,4,25 (default 1)')
    s.add_argument('--repeats', default='3', help='timed repeats of every version after one warm-up (default 3)')
    s.add_argument('--layers', default='6', help='MLP layers (default 6)')
    s.add_argument('--width', default='1024', help='MLP width (default 1024)')
    s.add_argument('--batch', default='128', help='examples per process (default 128)')
    s.add_argument('--port', default=None, help='port on 127.0.0.1 for the processes to meet (default: a free one)')
    s.add_argument('--timeout', type=float, default=30.0, help='seconds a process waits for a silent peer')
    s.add_argument('--trace-dir', default=None, help='write one Chrome trace per version and process here')
    s.add_argument('--json', action='store_true', help='print one JSON object (fields: README)')
    return s


def _options(args) -> dict:
    return dict(backend=args.backend, bucket_mb=args.bucket_mb, repeats=args.repeats, layers=args.layers,
                width=args.width, batch=args.batch, timeout=args.timeout, trace_dir=args.trace_dir)


def _print(result, as_json: bool) -> None:
    if as_json:
        print(json.dumps({'command': 'allreduce', **result.to_dict()}, indent=1))
    else:
        print(result.summary())


def run(args) -> int:
    """13.3.4: start the processes (or, under torchrun, be one of them) and print what they measured."""
    from .engine import run_allreduce, run_under_torchrun
    if 'TORCHELASTIC_RUN_ID' in os.environ and 'RANK' in os.environ:
        result = run_under_torchrun(**_options(args))
    else:
        result = run_allreduce(world_size=args.world_size, port=args.port, **_options(args))
    if result is not None:
        _print(result, args.json)
    return 0


def main(argv=None) -> int:
    """`python -m d2l_ext.allreduce`: the same subcommand, for torchrun's -m and before the main CLI has it."""
    from ..cli import _Parser
    from ..errors import ResultMismatch, UsageError
    from .engine import ProcessFailed
    parser = _Parser(prog='python -m d2l_ext.allreduce')
    sub = parser.add_subparsers(dest='command', required=True, parser_class=_Parser)
    add_parser(sub)
    args = parser.parse_args(['allreduce', *(sys.argv[1:] if argv is None else argv)])
    try:
        return run(args)
    except (UsageError, ResultMismatch, ProcessFailed) as e:
        print(f'{parser.prog}: error: {e}', file=sys.stderr)
        return 2 if isinstance(e, UsageError) else 1
    except KeyboardInterrupt:
        print(f'{parser.prog}: interrupted', file=sys.stderr)
        return 130
