"""`python -m d2l_ext ...`: the section's experiments from a terminal, for instructors.

    devices                          the lanes each framework has on this machine
    parallel --framework torch|mxnet|all --size N --iters K --repeats R [--json]   (13.3.1)
    comm     --framework torch|mxnet|all --size N --iters K --repeats R [--json]   (13.3.2)
    record   [--out FILE]            run both and save them, with provenance, for readers without this hardware

Bad values exit with code 2 and one line that says what to change.
"""
from __future__ import annotations

import argparse
import json
import sys

from .errors import ResultMismatch, UsageError
from .report import comm_text, parallel_text


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse would print the whole usage first)
        self.exit(2, f'{self.prog}: error: {message} (see --help)\n')


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog='python -m d2l_ext', description='d2l §13.3 Automatic Parallelism experiments')
    sub = p.add_subparsers(dest='command', required=True, parser_class=_Parser)
    d = sub.add_parser('devices', help='list the lanes per framework')
    d.add_argument('--json', action='store_true')
    for name, helptext in (('parallel', '13.3.1: lanes alone, serial sum, together'),
                           ('comm', '13.3.2: run, copy, run then copy, overlapped')):
        s = sub.add_parser(name, help=helptext)
        s.add_argument('--framework', default='torch', help="torch, mxnet or all (default torch)")
        s.add_argument('--size', type=str, default=None, help='matrix size N (default: from the hardware)')
        s.add_argument('--iters', type=str, default=None, help='products per lane K (default: from the hardware)')
        s.add_argument('--repeats', type=str, default='3', help='timed repeats after one warm-up (default 3)')
        if name == 'parallel':
            s.add_argument('--lanes', default=None, help="comma-separated lane names from 'devices'")
        s.add_argument('--json', action='store_true', help='print one JSON object (fields: README)')
    r = sub.add_parser('record', help='run parallel and comm and save them with provenance')
    r.add_argument('--out', default=None, help='file to write (default: d2l_ext/recorded/<gpu>-<date>.json)')
    r.add_argument('--repeats', type=str, default='5')
    return p


def _int_or_none(v, what):
    from .machine import positive_int
    return None if v is None else positive_int(v, what, f'pass a positive --{what.split()[-1]}')


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _run(args)
    except (UsageError, ResultMismatch) as e:
        print(f'python -m d2l_ext: error: {e}', file=sys.stderr)
        return 2 if isinstance(e, UsageError) else 1
    except KeyboardInterrupt:
        print('python -m d2l_ext: interrupted', file=sys.stderr)
        return 130
    finally:
        from .isolation import shutdown
        shutdown()


def _run(args) -> int:
    from . import experiments
    if args.command == 'devices':
        from .machine import available_frameworks
        report = {fw: experiments.lanes(fw) for fw in available_frameworks()}
        if 'mxnet' not in report:
            report['mxnet'] = "not installed: pip install 'd2l_ext[mxnet]' (Python 3.11, numpy<1.24)"
        if args.json:
            print(json.dumps({'command': 'devices', 'lanes': report}, indent=1))
        else:
            for fw, lanes in report.items():
                print(f'{fw}:')
                if isinstance(lanes, str):
                    print(f'  {lanes}')
                    continue
                for lane in lanes:
                    print(f"  {lane['name']:8s} {lane['label']}: {lane['explanation']}")
        return 0
    if args.command == 'record':
        from .recorded import record
        path = record(out=args.out, repeats=_int_or_none(args.repeats, 'repeats'))
        print(f'recorded to {path}')
        return 0
    fws = experiments.frameworks_for(args.framework)
    size = _int_or_none(args.size, 'matrix size')
    iters = _int_or_none(args.iters, 'iteration count (--iters)')
    repeats = _int_or_none(args.repeats, 'repeats')
    results = []
    for fw in fws:
        if args.command == 'parallel':
            r = experiments.parallel(fw, size, iters, repeats, lanes=args.lanes)
        else:
            r = experiments.comm(fw, size, iters, repeats)
        results.append(r)
        if not args.json:
            print((parallel_text if args.command == 'parallel' else comm_text)(r), flush=True)
    if args.json:
        print(json.dumps({'command': args.command, 'results': results}, indent=1))
    return 0
