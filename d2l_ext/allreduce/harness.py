"""13.3.4's one process harness, for measuring (`run_allreduce`) and grading (grading/allreduce.py) alike: n ranks
each call `target(rank, world, send, *args)`; `send` reports as JSON (never pickled: a learner's code runs there)."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass, field

from ..processes import end_with_parent

U32 = 2.0 ** -24  # float32 unit roundoff
GRACE_S = 1.0  # after a first failure, the others' reports may still arrive: then the first cause is chosen
MAX_REPORT = 64 << 20  # bytes of one report
ECHO = ('connection closed', 'connection reset', 'remote worker', 'broken pipe', 'socket closed')


def tolerance(n: int, terms: int, scale: float = 0.0, steps: int = 1) -> float:
    """The float64 check's one rule: the relative error float32 rounding alone gives a step's change. A sum of m
    terms rounds by (m - 1) u at most: `terms` products, n - 1 shares, `scale` u to store; 16 for cancellation."""
    return steps * 16 * U32 * (terms + n - 1 + scale)


def movement_errors(params, start, expected) -> list[tuple[float, float]]:
    """Per parameter: (error of its change, relative to the change; its size over the change: tolerance's `scale`)."""
    out = []
    for p, p0, e in zip(params, start, expected):
        p0 = p0.detach().double()
        moved = (e - p0).norm().item()
        base = moved if moved > 0 else max(p0.norm().item(), 1e-30)
        out.append(((p.detach().double() - e).norm().item() / base, p0.norm().item() / base))
    return out


class RankFailed(Exception):
    """Raised in a rank with a grader's criterion as payload: reported as that rank's failure."""

    def __init__(self, payload: dict):
        super().__init__(payload.get('key', ''))
        self.payload = payload


@dataclass
class Stopped:
    """Why a run ended before every rank returned: 'died', 'stopped', 'error', 'waited' or 'hung'."""
    why: str
    rank: int
    code: int | None = None  # exit code; minus the signal that ended it
    seconds: float = 0.0
    kind: str = ''  # the exception's type ('error', 'waited')
    message: str = ''
    payload: dict = field(default_factory=dict)  # a RankFailed's payload

    @property
    def cause(self) -> str:  # 'exit code 3' or 'SIGKILL'
        if self.code is not None and self.code < 0:
            with contextlib.suppress(ValueError):
                return signal.Signals(-self.code).name
        return f'exit code {self.code}'

    def reason(self, waited_s: float) -> tuple[str, dict]:
        """Its sentence's key and fields, one for measuring and grading (grading/integrity.py reads the keys)."""
        key, fields = {'died': ('task.allreduce.died', {'code': self.cause}), 'stopped': ('task.allreduce.stopped', {}),
                       'hung': ('task.allreduce.hung', {'seconds': self.seconds}),
                       'waited': ('task.allreduce.waited', {'seconds': waited_s})}.get(
            self.why, ('task.allreduce.failed', {'error': f'{self.kind}: {self.message}'}))
        return key, {'rank': self.rank, **fields}


def _rank_main(rank, world, target, args, conn, parent) -> None:
    end_with_parent(parent)
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)  # its own group: killed with everything the learner's code started in it
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the starting process, which ends us all

    def send(kind, **payload):
        conn.send_bytes(json.dumps({'kind': kind, **payload}).encode())

    code = 1
    try:
        send('result', result=target(rank, world, send, *args))
        code = 0
    except RankFailed as e:
        send('error', type='RankFailed', message=str(e.payload.get('fields', {}).get('error', '')), payload=e.payload)
    except BaseException as e:  # noqa: BLE001 (one line to the starting process; it decides what came first)
        send('error', type=type(e).__name__, message=(str(e).splitlines() or [''])[0][:300])
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    # not SystemExit: gloo's and the profiler's threads at interpreter shutdown can abort ('terminate called ...')
    os._exit(code)


def _state(pid: int) -> str:  # the state letter in /proc ('T': stopped)
    try:
        with open(f'/proc/{pid}/stat', 'rb') as f:
            return f.read().rsplit(b')', 1)[1].split()[0].decode()
    except (OSError, IndexError):
        return ''


def fork_safe() -> bool:
    """Whether a forked child can run backward (after a backward on a GPU machine, PyTorch refuses it there)."""
    pid = os.fork()
    if pid == 0:  # the child: exit 0 if backward runs
        code = 1
        try:
            import torch
            torch.ones(1, requires_grad=True).sum().backward()
            code = 0
        finally:
            os._exit(code)
    return os.waitpid(pid, 0)[1] == 0


def run_ranks(target, args=(), world: int = 2, *, start: str = 'spawn', silence_s: float = 60.0,
              on_report=None) -> tuple[list | None, Stopped | None]:
    """([each rank's return value], None), or (None, the first cause); no rank outlives the call. A rank silent
    for `silence_s` has hung; `on_report(rank, pid, message)` sees progress; 'fork' falls back to 'spawn'."""
    import multiprocessing as mp
    ctx = mp.get_context('spawn' if start == 'fork' and not fork_safe() else start)
    pipes = [ctx.Pipe(duplex=False) for _ in range(world)]
    procs, main = [], threading.current_thread() is threading.main_thread()
    # ranks start with SIGINT ignored (one still importing PyTorch would print a traceback)
    before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        try:
            for rank, (_, writer) in enumerate(pipes):
                procs.append(ctx.Process(target=_rank_main, args=(rank, world, target, args, writer, os.getpid())))
                procs[-1].start()
        finally:
            if main:
                signal.signal(signal.SIGINT, before if before is not None else signal.default_int_handler)
        for _, writer in pipes:
            writer.close()
        return _watch(procs, [reader for reader, _ in pipes], silence_s, on_report)
    finally:  # normal end, failure, KeyboardInterrupt: every rank's group killed, every rank reaped
        procs = [p for p in procs if p.pid is not None]  # one that could not start (spawn's error is raised)
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:  # not yet in its own group, or gone
                with contextlib.suppress(OSError):
                    os.kill(p.pid, signal.SIGKILL)
        for p in procs:
            p.join(5.0)
        for reader, _ in pipes:
            reader.close()


def _watch(procs, readers, silence_s, on_report):
    from multiprocessing.connection import wait
    world, now = len(procs), time.monotonic()
    heard, results, errors, first = [now] * world, {}, {}, None
    while len(results) < world:
        for conn in wait([r for r in readers if not r.closed], 0.2):
            rank = readers.index(conn)
            try:
                msg = json.loads(conn.recv_bytes(MAX_REPORT))
            except (EOFError, OSError, ValueError):  # gone (its exit code tells why), or not a report of ours
                conn.close()
                continue
            heard[rank] = time.monotonic()
            if msg.get('kind') == 'result':
                results[rank] = msg.get('result')
            elif msg.get('kind') == 'error':
                errors.setdefault(rank, msg | {'at': heard[rank]})
            elif on_report is not None:
                on_report(rank, procs[rank].pid, msg)
        now = time.monotonic()
        pending = [r for r in range(world) if r not in results]
        dead = [r for r in pending if r not in errors and procs[r].exitcode is not None]
        stopped = [r for r in pending if _state(procs[r].pid) in ('T', 't')]
        first = (first or now) if errors or dead or stopped else None
        if first is not None and now - first > GRACE_S:
            return None, _cause(procs, errors, dead, stopped, heard, now)
        silent = [r for r in pending if r not in errors and now - heard[r] > silence_s]
        if first is None and silent:
            rank = min(silent, key=heard.__getitem__)
            return None, Stopped('hung', rank, seconds=now - heard[rank])
    return [results[r] for r in range(world)], None


def _cause(procs, errors, dead, stopped, heard, now) -> Stopped:
    """A rank that died without a word; one stopped; the first error that is not a peer's echo; an all-reduce
    nobody joined (timed out); a rank silent beside it; else the first echo."""
    if dead:
        return Stopped('died', dead[0], code=procs[dead[0]].exitcode)
    if stopped:
        return Stopped('stopped', stopped[0], seconds=now - heard[stopped[0]])
    order = sorted(errors, key=lambda r: (errors[r]['at'], r))
    text = {r: f"{errors[r]['type']}: {errors[r]['message']}".lower() for r in order}
    timed_out = [r for r in order if 'timed out' in text[r] or 'timeout' in text[r]]
    real = sorted(r for r in order if r not in timed_out and not any(w in text[r] for w in ECHO))  # lowest rank
    if real or not timed_out:
        r = (real or order)[0]
        return Stopped('error', r, kind=errors[r]['type'], message=errors[r]['message'],
                       payload=errors[r].get('payload') or {})
    r = timed_out[0]
    return Stopped('waited', r, kind=errors[r]['type'], message=errors[r]['message'])
