"""13.3.4's graders in the grading process: run the learner's step on two gloo processes, judge their reports.

`run_jobs` starts one launcher, `python -m d2l_ext.grading.allreduce_launcher`, which imports PyTorch once
and forks two fresh gloo processes per graded source (`allreduce_ranks.rank_main`), one source after
another, watching each pair against its time bound; no process outlives the call. What went wrong
first, when a pair did not finish, is the 'runs' criterion made here. The reports' criteria have their
own homes: 'correct', 'safe', 'calls' / 'buckets' in `allreduce_checks`, 'overlap' in `allreduce_overlap`;
their names are importable from here too (allreduce.py and the tests read them as `allreduce_launcher.<name>`).
"""
from __future__ import annotations

import contextlib
import gc
import json
import os
import pickle
import select
import signal
import sys
import time

import torch

from . import allreduce_ranks as ranks
from . import registry
from .allreduce_checks import calls, correct, safe
from .allreduce_overlap import (
    SLOW_RATIO,
    THRESHOLD,
    above_model,
    ideal_schedule,
    model_seconds,
    overlap,
    step_intervals,
)
from .core import criterion

__all__ = ['COLLECTIVE_TIMEOUT_S', 'READY_S', 'SLOW_RATIO', 'START_S', 'THRESHOLD', 'WORK_S', 'WORLD', 'above_model',
           'calls', 'correct', 'ideal_schedule', 'main', 'model_seconds', 'overlap', 'run_jobs', 'safe',
           'step_intervals']

WORLD = 2
START_S = 45.0  # the launcher imports PyTorch and the task (seconds, on a busy 2-core laptop)
READY_S = 15.0  # then, per source, both forked processes join the group and load the learner's code
WORK_S = 20.0  # then each graded run (3 steps; ~0.1 s here) must end within this, or it counts as hung
COLLECTIVE_TIMEOUT_S = 10.0  # an all-reduce that another process never joins fails after this


def run_jobs(jobs: list, world: int = WORLD) -> list:
    """Per job {'task', 'source', 'cases'}: (reports per process, None), or (None, the 'runs' criterion saying why not).

    Jobs share only the launcher's import: each gets two new processes, so one job's hang or crash
    cannot hide another's reason.
    """
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get('PYTHONPATH')) if p),
               OMP_NUM_THREADS='1', OPENBLAS_NUM_THREADS='1',  # one core per process; no idle thread pools to fork
               OBJC_DISABLE_INITIALIZE_FORK_SAFETY='YES')  # macOS: it forks with one thread, the check's worry
    read, write = os.pipe()
    orders = {'jobs': jobs, 'world': world, 'parent': os.getpid(), 'fd': write, 'timeout': COLLECTIVE_TIMEOUT_S,
              'ready_s': READY_S, 'work_s': WORK_S}
    proc = None
    try:
        proc = subprocess.Popen([sys.executable, '-m', 'd2l_ext.grading.allreduce_launcher'], stdin=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, pass_fds=(write,), env=env)
        os.close(write)
        write = None
        try:
            proc.stdin.write(json.dumps(orders).encode())
            proc.stdin.close()
        except OSError:  # it ended already; _collect says how
            pass
        return _collect(proc, read, jobs)
    finally:
        if proc is not None:
            if proc.poll() is None:
                proc.kill()  # its processes follow it (PR_SET_PDEATHSIG)
            proc.wait()
        for fd in (read, write):
            if fd is not None:
                os.close(fd)


def _collect(proc, read: int, jobs: list) -> list:
    """The launcher's answer per job, in order; jobs it never answered get why (it hung, or ended)."""
    out, buffer, began = [], b'', time.monotonic()
    deadline = began + START_S  # its import; then each job's own bound (which the launcher enforces first)
    while len(out) < len(jobs):
        if not select.select([read], [], [], max(0.0, min(0.5, deadline - time.monotonic())))[0]:
            if time.monotonic() > deadline:
                why = criterion('runs', False, 'task.allreduce.hung', rank=0, seconds=time.monotonic() - began)
                return out + [(None, why)] * (len(jobs) - len(out))
            continue
        chunk = os.read(read, 1 << 16)
        if not chunk:  # it ended before answering every job
            why = criterion('runs', False, 'task.allreduce.died', rank=0, code=proc.wait())
            return out + [(None, why)] * (len(jobs) - len(out))
        *lines, buffer = (buffer + chunk).split(b'\n')
        for line in lines:
            msg = json.loads(line)
            if msg['kind'] == 'job':
                failed = msg['failure']
                out.append((msg['reports'], None) if failed is None else
                           (None, criterion('runs', False, failed['key'], **failed['fields'])))
            elif msg['kind'] == 'error':  # the launcher's own code failed
                why = criterion('runs', False, 'task.allreduce.failed', rank=0, error=msg['error'])
                return out + [(None, why)] * (len(jobs) - len(out))
            if len(out) < len(jobs):
                began = time.monotonic()
                deadline = began + _bound(jobs[len(out)]) + 5.0  # 5 s to stop and reap a hung pair
    return out


def _bound(job) -> float:
    return READY_S + WORK_S * len(job['cases'])


# -- the launcher (its own process: PyTorch imported once, two processes forked per job) ----------------

def main() -> None:
    """The launcher: import once, then for each job fork its gloo processes and report what they did."""
    orders = json.loads(sys.stdin.read())
    ranks.die_with_parent(orders['parent'])
    out = os.fdopen(orders['fd'], 'w', buffering=1)
    try:
        torch.set_num_threads(1)  # before any operation: the forked processes inherit one thread, no pool
        for job in orders['jobs']:
            registry.task(job['task'])  # imported once, here, not in every forked process
        refs = _in_child(lambda: ranks.references(orders['world']))
        gc.freeze()  # the forked processes' collector then leaves these objects' pages unwritten (fewer copies)
        out.write(json.dumps({'kind': 'started'}) + '\n')
        for i, job in enumerate(orders['jobs']):
            reports, failure = _run_job(job, orders, refs, out.fileno())
            out.write(json.dumps({'kind': 'job', 'job': i, 'reports': reports,
                                  'failure': None if failure is None else vars(failure)}) + '\n')
    except BaseException as e:  # noqa: BLE001 (one line to the grader, never a traceback)
        out.write(json.dumps({'kind': 'error', 'error': f'{type(e).__name__}: {e}'.splitlines()[0][:300]}) + '\n')
    out.flush()
    os._exit(0)


def _in_child(fn):
    """fn() computed in a forked process and sent back pickled: the launcher itself never runs backward.

    On a GPU machine autograd's first backward starts a thread per device, and a process forked after
    that may not run backward at all; the gloo processes are forked from this one, so it stays clean.
    """
    read, write = os.pipe()
    launcher = os.getpid()
    pid = os.fork()
    if pid == 0:
        try:
            ranks.die_with_parent(launcher)
            os.close(read)
            with os.fdopen(write, 'wb') as f:
                f.write(pickle.dumps(fn()))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, 'rb') as f:
        data = f.read()
    os.waitpid(pid, 0)
    return pickle.loads(data)


def _run_job(job, orders, refs, out_fd: int):
    """Fork the job's processes, watch them (`_watch`), and end every one of them whatever happened."""
    from ..allreduce.plan import free_port
    world, port, launcher = orders['world'], free_port(), os.getpid()
    pids, codes, readers = [], {}, {}
    try:
        for rank in range(world):
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:  # the gloo process: rank_main never returns
                try:
                    ranks.die_with_parent(launcher)
                    for fd in [read, out_fd, *readers]:
                        os.close(fd)
                    ranks.rank_main(job, rank, world, port, orders['timeout'], write, refs)
                finally:
                    os._exit(1)
            os.close(write)
            pids.append(pid)
            readers[read] = [rank, b'']
        return _watch(pids, codes, readers, len(job['cases']), orders)
    finally:
        for pid in pids:
            if pid not in codes:
                with contextlib.suppress(ProcessLookupError):  # it has just ended by itself
                    os.kill(pid, signal.SIGKILL)
                _exit_code(pid, codes)
        for fd in readers:
            os.close(fd)


def _exit_code(pid: int, codes: dict) -> int:
    """Reap `pid` (once): its exit code, or minus the signal that ended it, as Popen.returncode says it."""
    if pid not in codes:
        codes[pid] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    return codes[pid]


def _watch(pids, codes, readers, n_cases, orders):
    """Read JSON lines until every rank's result, a failure, or a deadline; then say what went wrong first."""
    world = len(pids)
    ready, results, failures = set(), {}, {}  # failures: rank -> what it reported (or that it died)
    began = time.monotonic()
    deadline = began + orders['ready_s']
    while len(results) < world:
        now = time.monotonic()
        if failures and (len(results) + len(failures) == world or now - min(f['at'] for f in failures.values()) > 1):
            return None, _first_cause(failures, orders['timeout'])  # the others had a second to say what they saw
        if now > deadline:
            silent = [r for r in range(world) if r not in results]
            return None, criterion('runs', False, 'task.allreduce.hung', rank=silent[0], seconds=now - began)
        fds = [r for r, (rank, _) in readers.items() if rank not in results and rank not in failures]
        for fd in select.select(fds, [], [], 0.1)[0]:
            chunk = os.read(fd, 1 << 16)
            rank = readers[fd][0]
            if not chunk:  # that process has gone; its exit code says how
                failures.setdefault(rank, {'at': time.monotonic(), 'died': _exit_code(pids[rank], codes)})
                continue
            readers[fd][1] += chunk
            *lines, readers[fd][1] = readers[fd][1].split(b'\n')
            for line in lines:
                msg = json.loads(line)
                failed = next((c['failed'] for c in msg.get('cases', ()) if 'failed' in c), None)
                if msg['kind'] == 'ready':
                    ready.add(rank)
                    if len(ready) == world:
                        deadline = time.monotonic() + orders['work_s'] * n_cases
                elif msg['kind'] == 'result' and failed is None:
                    results[rank] = msg
                elif failed is not None:  # the learner's function raised: a criterion, already made
                    failures[rank] = {'at': time.monotonic(), 'criterion': failed,
                                      'text': str(failed['fields'].get('error', ''))}
                else:  # the grader's own code failed around the learner's (a barrier, say)
                    failures[rank] = {'at': time.monotonic(), 'text': f"{msg['type']}: {msg['message']}"}
    return [results[r] for r in range(world)], None


def _first_cause(failures, timeout: float) -> object:
    """A process that died without a word; else an all-reduce nobody joined; else the learner's error, not its echo.

    When one process fails, the other's pending all-reduce fails too ('connection closed by peer'): that
    echo is reported only if nothing else was.
    """
    order = sorted(failures, key=lambda r: failures[r]['at'])
    for rank in order:
        if 'died' in failures[rank]:
            return criterion('runs', False, 'task.allreduce.died', rank=rank, code=failures[rank]['died'])
    for rank in order:
        if any(word in failures[rank]['text'].lower() for word in ('timed out', 'timeout')):
            return criterion('runs', False, 'task.allreduce.waited', rank=rank, seconds=timeout)
    echo = ('connection closed', 'remote worker', 'connection reset', 'broken pipe')
    causes = [r for r in order if not any(word in failures[r]['text'].lower() for word in echo)] or order
    f = failures[causes[0]]
    if 'criterion' in f:
        return criterion('runs', False, f['criterion']['key'], **f['criterion']['fields'])
    return criterion('runs', False, 'task.allreduce.failed', rank=causes[0], error=f['text'])


if __name__ == '__main__':
    main()
