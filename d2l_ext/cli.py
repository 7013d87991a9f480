"""`python -m d2l_ext ...`: the section's experiments from a terminal, for instructors.

    devices                          the lanes each framework has on this machine
    parallel --framework torch|mxnet|all --size N --iters K --repeats R [--lanes L] [--json] [--yes]   (13.3.1)
    comm     --framework torch|mxnet|all --size N --iters K --repeats R [--json] [--yes]               (13.3.2)
    allreduce --world-size N --bucket-mb MB ... [--json]                                         (13.3.4)
    record   [--out FILE] [--force]  run both and save them, with provenance, for readers without this hardware
    check    TASK FILE.py | --list [--json]   grade a "Build it" task (exit 0 passed, 1 not yet, 2 bad input)

Bad values exit with code 2 and one line that says what to change; every output path is tried for writing
before anything runs; a run estimated above a few minutes is refused unless --yes; a worker that dies, falls
silent or hangs ends the run with one line; Ctrl-C (even while importing) ends with one line, exit 130.
"""
from __future__ import annotations

import argparse
import json
import sys

from .cliparse import parser_with_subcommands, run_program
from .errors import RunTooLong, UsageError, WorkerHung
from .i18n import t

PROG = 'python -m d2l_ext'
LIMIT_S = 180.0  # a run estimated above three minutes needs --yes
# A hang, not a slow machine: a worker busy after HANG_FACTOR times the estimated run (at least HANG_FLOOR_S) is
# stopped (a frozen one sooner, by its heartbeat). Passes of the workload per repeat: 13.3.1 each lane alone and
# both together (2), 13.3.2 at most 3 timed variants x 4 copy modes (12).
HANG_FACTOR, HANG_FLOOR_S, STARTUP_S = 5, 30.0, 300.0
PASSES = {'parallel': 2, 'comm': 12}


def build_parser() -> argparse.ArgumentParser:
    p, sub = parser_with_subcommands(PROG, 'd2l §13.3 Automatic Parallelism experiments')
    d = sub.add_parser('devices', help='list the lanes per framework')
    d.add_argument('--json', action='store_true')
    for name, helptext in (('parallel', '13.3.1: lanes alone, serial sum, together'),
                           ('comm', '13.3.2: run, copy, run then copy, overlapped')):
        s = sub.add_parser(name, help=helptext)
        s.add_argument('--framework', default='torch', help='torch, mxnet or all (default torch)')
        s.add_argument('--size', type=str, default=None, help='matrix size N (default: from the hardware)')
        s.add_argument('--iters', type=str, default=None, help='products per lane K (default: from the hardware)')
        s.add_argument('--repeats', type=str, default='3', help='timed repeats after one warm-up (default 3)')
        if name == 'parallel':
            s.add_argument('--lanes', default=None, help="comma-separated lane names from 'devices'")
        s.add_argument('--json', action='store_true', help='print one JSON object (fields: README)')
        s.add_argument('--yes', action='store_true', help='run even when estimated above three minutes')
    from .allreduce.cli import add_parser as add_allreduce
    add_allreduce(sub)
    r = sub.add_parser('record', help='run parallel and comm and save them with provenance')
    r.add_argument('--out', default=None, help='file to write (default: a file in the current directory)')
    r.add_argument('--force', action='store_true', help='replace --out if it exists')
    r.add_argument('--repeats', type=str, default='5')
    from .cli_check import add_parser as add_check  # the "Build it" tasks' grader
    add_check(sub)
    return p


def _count(v, what, option, example):
    from .machine import positive_int
    return None if v is None else positive_int(v, what, option=f'--{option}', example=example)


def _shutdown() -> None:
    from .workers import shutdown
    shutdown()


def main(argv=None) -> int:
    """Parse, run, and answer every failure with one line: 2 bad input, 1 failed run, 130 Ctrl-C."""
    return run_program(PROG, lambda: _run(build_parser().parse_args(argv)), cleanup=_shutdown)


class _Progress:
    """A one-line progress bar on a terminal's stderr, shown once a run has taken DELAY_S, erased before the table;
    off for --json, off a terminal and with TQDM_DISABLE set (tests, CI); a report after close() draws nothing."""
    DELAY_S = 2.0
    WIDTH = 20

    def __init__(self, enabled: bool, what: str, stream=None, clock=None):
        import os
        import time
        self.stream = stream or sys.stderr
        self.enabled = enabled and self.stream.isatty() and not os.environ.get('TQDM_DISABLE')
        self.what, self.clock = what, clock or time.monotonic
        self.started, self.drawn = self.clock(), 0

    def __call__(self, done, total):
        if not self.enabled or self.clock() - self.started < self.DELAY_S:
            return
        filled = int(self.WIDTH * min(done, total) / max(total, 1))
        line = f"{self.what}: [{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{total}"
        self.stream.write('\r' + line.ljust(self.drawn))
        self.stream.flush()
        self.drawn = max(self.drawn, len(line))

    def close(self):
        self.enabled = False
        if self.drawn:  # blank the line and return to its start: the table begins on a clean line
            self.stream.write('\r' + ' ' * self.drawn + '\r')
            self.stream.flush()
            self.drawn = 0


def _devices(args) -> int:
    from .frameworks import available_frameworks
    from .workers import lanes_for
    report = {fw: [lane.as_dict() for lane in lanes] for fw, lanes in lanes_for(available_frameworks(),
                                                                                 count='all').items()}
    report.setdefault('mxnet', t('cli.mxnet_missing'))
    if args.json:
        print(json.dumps({'command': 'devices', 'lanes': report}, indent=1))
        return 0
    for fw, lanes in report.items():
        print(f'{fw}:')
        for lane in [lanes] if isinstance(lanes, str) else lanes:
            line = lane if isinstance(lane, str) else f"{lane['name']:8s} {lane['label']}: {lane['explanation']}"
            print(f'  {line}')
    return 0


def _record(args) -> int:
    """Measure into a private temporary folder, then move the file where asked (or somewhere safe, said so)."""
    import pathlib
    import shutil
    import tempfile

    from .paths import check_output_file, save_text
    from .recorded import default_path, record
    repeats = _count(args.repeats, t('core.what_repeats'), 'repeats', 5)
    path = check_output_file(args.out or default_path(), args.force)  # before minutes of measuring
    print(t('cli.recording_to', path=path), flush=True)
    staging = pathlib.Path(tempfile.mkdtemp(prefix='d2l_ext-record-'))
    progress = _Progress(True, 'record')
    try:
        record(staging / path.name, repeats=repeats, progress=progress)
        progress.close()
        saved, reason = save_text(path, (staging / path.name).read_text())
    finally:
        progress.close()
        shutil.rmtree(staging, ignore_errors=True)
    if reason is not None:
        print(t('cli.error', prog=PROG, message=t('cli.saved_elsewhere', path=path, reason=reason, saved=saved)),
              file=sys.stderr)
        return 1
    print(t('cli.recorded', path=saved))
    return 0


def _check_lanes_everywhere(fws, lanes) -> None:
    """--framework all with a lane one framework lacks is refused before anything runs."""
    if not lanes or len(fws) < 2:
        return
    from .workers import lanes_for
    names = {fw: {lane.name for lane in found} for fw, found in lanes_for(fws, count='all').items()}
    for lane in (n.strip() for n in lanes.split(',') if n.strip()):
        has = [fw for fw in fws if lane in names[fw]]
        lacks = [fw for fw in fws if lane not in names[fw]]
        if lacks:
            raise UsageError(t('cli.lane_missing', lane=lane, has=', '.join(has) or '-', lacks=', '.join(lacks)))


def _run(args) -> int:
    if args.command == 'devices':
        return _devices(args)
    if args.command == 'record':
        return _record(args)
    if args.command == 'allreduce':
        from .allreduce.cli import run
        return run(args)
    if args.command == 'check':
        from .cli_check import run as check
        return check(args)
    from .display.tables import text
    from .frameworks import frameworks_for
    fws = frameworks_for(args.framework)
    size = _count(args.size, t('core.what_size'), 'size', 1000)
    iters = _count(args.iters, t('core.what_iters'), 'iters', 10)
    repeats = _count(args.repeats, t('core.what_repeats'), 'repeats', 3)
    lanes = getattr(args, 'lanes', None)
    _check_lanes_everywhere(fws, lanes)
    limit = None if args.yes else LIMIT_S
    results = []
    for fw in fws:
        progress = _Progress(not args.json, f'{args.command} {fw}')
        try:
            results.append(_one(args.command, fw, size, iters, repeats, lanes, limit, progress))
        except RunTooLong as e:
            raise RunTooLong(f"{e}{t('core.and_hint', hint=t('cli.yes_hint'))}") from None
        finally:
            progress.close()
        if not args.json:
            print(text(results[-1]), flush=True)
            for line in caveats(args.command, results[-1].to_json()):
                print(line, flush=True)
    if args.json:
        rows = [dict(r.to_json(), caveats=caveats(args.command, r.to_json())) for r in results]
        print(json.dumps({'command': args.command, 'results': rows}, indent=1))
    return 0


def _medians(data) -> list[float]:
    """Every 'median' (seconds) in a result's JSON, however deep."""
    if isinstance(data, dict):
        return [m for k, v in data.items()
                for m in ([float(v)] if k == 'median' and isinstance(v, (int, float)) else _medians(v))]
    return [m for v in data for m in _medians(v)] if isinstance(data, list) else []


def caveats(command: str, data: dict) -> list[str]:
    """What the table cannot show (issue 35): lanes that took turns on too few cores, times below the noise floor."""
    from .machine import noise_line, turns_line
    if command == 'parallel':  # every CPU lane needs a core of its own to run beside the other
        turns = turns_line(sum(lane.get('kind') == 'cpu' for lane in data.get('lanes') or []))
    else:  # 13.3.2 on a CPU: the products and the copy thread need a core each
        turns = turns_line(2, what='threads') if (data.get('lane') or {}).get('kind') == 'cpu' else ''
    return [line for line in (turns, noise_line(*_medians(data))) if line]


def hang_bound(command: str, repeats: int, estimate: float) -> tuple[float, float]:
    """(seconds after which a busy worker counts as hung, the estimated run): max(floor, factor x estimate)."""
    run = PASSES[command] * (repeats + 1) * estimate
    return max(HANG_FLOOR_S, HANG_FACTOR * run), run


def _one(command, fw, size, iters, repeats, lanes, limit, progress):
    from .workers import dispatch
    estimate = dispatch(_estimate, fw, lanes, timeout_s=STARTUP_S, command=command, size=size, iters=iters)
    bound, run = hang_bound(command, repeats, estimate)
    try:
        return dispatch(_measure, fw, lanes, progress=progress, timeout_s=bound, command=command, size=size,
                        iters=iters, repeats=repeats, max_seconds=limit)
    except WorkerHung as e:
        raise WorkerHung(t('cli.hung_after', message=e, floor=round(HANG_FLOOR_S), factor=HANG_FACTOR,
                           estimate=run)) from None


def _used(command, lanes):
    return lanes if command == 'parallel' else lanes[:1]  # 13.3.2 runs on the first lane


def _estimate(lanes, command, size, iters) -> float:
    """In the worker: seconds of one pass of the workload (the CLI's bound for a hung worker)."""
    from .workloads import resolve_workload
    return resolve_workload(_used(command, lanes), size, iters,
                            extra_matrices=2 if command == 'parallel' else 3).estimated_seconds


def _measure(lanes, command, progress=None, **kwargs):
    """In the worker: the 13.3.1 or 13.3.2 measurement, reporting progress to the CLI's line."""
    if command == 'parallel':
        from .parallel import measure_parallel as measure
    else:
        from .communication import measure_comm as measure
    return measure(_used(command, lanes), progress=progress, **kwargs)
