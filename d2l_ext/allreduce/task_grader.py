"""13.3.4's graders in the grading process: run the learner's step on two gloo processes, judge their reports.

`run_jobs` starts one launcher, `python -m d2l_ext.allreduce.task_grader`, which imports PyTorch once
and forks two fresh gloo processes per graded source (`grading_ranks.rank_main`), one source after
another, watching each pair against its time bound; no process outlives the call. The rest turns the
processes' numbers into criteria: 'correct', 'safe', 'calls' / 'buckets', 'overlap'.
"""
from __future__ import annotations

import contextlib
import gc
import json
import math
import os
import pickle
import select
import signal
import sys
import time

import torch

from ..grading import registry
from ..grading.core import criterion
from ..overlap import busy, intersection, subtract
from . import grading_ranks as ranks
from .results import Prediction

WORLD = 2
START_S = 45.0  # the launcher imports PyTorch and the task (seconds, on a busy 2-core laptop)
READY_S = 15.0  # then, per source, both forked processes join the group and load the learner's code
WORK_S = 20.0  # then each graded run (3 steps; ~0.1 s here) must end within this, or it counts as hung
COLLECTIVE_TIMEOUT_S = 10.0  # an all-reduce that another process never joins fails after this
# (c) and (d) pass when, of the time their all-reduces were in flight, at least this fraction had backward
# computing beside it: blocking calls and calls started after backward measure ~0 (only the microseconds between
# a call's return and its wait: 0.000-0.002 here), the worked solutions 0.14-0.39 on two cores under a load of 6-10.
THRESHOLD = 0.05
# Timed alone, calls that took more than this many times the per-call overhead + bandwidth model (the lesson's,
# fitted here) get a sentence saying so, with both numbers; the run does not test why.
SLOW_RATIO = 2.0


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
        proc = subprocess.Popen([sys.executable, '-m', 'd2l_ext.allreduce.task_grader'], stdin=subprocess.PIPE,
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
    from .plan import free_port
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


def correct(cases, world) -> object:
    """Worst movement error over processes, steps and parameters; a wrong one names its step and parameter."""
    tol = ranks.tolerance(world, max(rep['scale'] for case in cases for rep in case))
    worst = max((e, c, r, s, i) for c, case in enumerate(cases) for r, rep in enumerate(case)
                for s, step in enumerate(rep['errors']) for i, e in enumerate(step['whole']))
    error, c, r, s, i = worst
    if error <= tol:  # (d) runs its STEPS steps at each of several bucket sizes: said so
        key = 'task.allreduce.correct_sizes' if len(cases) > 1 else 'task.allreduce.correct'
        return criterion('correct', True, key, error=error, tolerance=tol, steps=ranks.STEPS, sizes=len(cases))
    case = cases[c]
    first = next(s for s, step in enumerate(case[r]['errors']) if max(step['whole']) > tol)
    for kind in ('sum', 'local'):  # a known mistake when every parameter, on every process, matches it
        if all(kind in step and max(step[kind]) <= tol for rep in case for step in rep['errors']):
            return criterion('correct', False, f'task.allreduce.wrong_{kind}', error=error, tolerance=tol, n=world)
    rep, step = case[r], case[r]['errors'][first]
    i = max(range(len(step['whole'])), key=step['whole'].__getitem__)
    off = [rep['names'][j] for j, e in enumerate(step['whole']) if e > tol]
    fields = dict(error=step['whole'][i], tolerance=tol, step=first + 1, parameter=rep['names'][i])
    if off == [rep['tied']]:
        return criterion('correct', False, 'task.allreduce.wrong_tied', **fields)
    if off and all(n in rep['frozen'] for n in off):
        return criterion('correct', False, 'task.allreduce.wrong_frozen', **fields)
    if case[r]['bucket_mb'] is not None:
        return criterion('correct', False, 'task.allreduce.wrong_buckets', bucket_mb=case[r]['bucket_mb'], **fields)
    return criterion('correct', False, 'task.allreduce.wrong', **fields)


def safe(cases) -> object:
    """Every all-reduce had completed when the optimizer step began (checked with is_completed() right then)."""
    for case in cases:
        for rep in case:
            for s, step in enumerate(rep['steps']):
                if step['unfinished']:
                    return criterion('safe', False, 'task.allreduce.unsafe', unfinished=step['unfinished'],
                                     calls=len(step['calls']), step=s + 1)
    return criterion('safe', True, 'task.allreduce.safe')


def calls(cases, expected, kind) -> object:
    """(b): one all-reduce per step; (d): one per bucket of the documented rule, at every bucket size."""
    for case in cases:
        for rep in case:
            want = expected(rep)
            for step in rep['steps']:
                if len(step['calls']) != want:
                    return criterion(kind, False, f'task.allreduce.{kind}_wrong', calls=len(step['calls']),
                                     expected=want, bucket_mb=rep['bucket_mb'] or 0)
    return criterion(kind, True, f'task.allreduce.{kind}', expected=want, bucket_mb=rep['bucket_mb'] or 0)


def step_intervals(step) -> tuple[list, list, list]:
    """(communication, compute, blocked): calls start..done; forward end..last gradient minus time blocked in calls."""
    comm = [(c['start'], c['done']) for c in step['calls']]
    blocked = [(c['start'], c['returned']) for c in step['calls']] + [tuple(w) for w in step['waits']]
    compute = subtract([(step['forward_end'], step['backward_end'])], blocked)
    return comm, compute, blocked


def _units(rep) -> list[list[int]]:
    """The calls of one step, as gradient indices: each gradient ((c)) or each bucket of the documented rule ((d))."""
    sizes, mb = rep['sizes'], rep['bucket_mb']
    return ranks.buckets_of(sizes, mb) if mb is not None else [[k] for k in range(len(sizes))]


def model_seconds(rep, baseline, processes: int) -> float | None:
    """The lesson's per-call overhead + bandwidth model for every call ideal_schedule times (seconds in all).

    Fitted as the lesson fits it (results.Prediction): α from the one-float all-reduce timed alone, the bus
    bandwidth from the largest call timed alone; None when the baseline lacks either.
    """
    timed = {int(k): v for k, v in baseline.items()}
    large = max(timed, default=1)
    if 1 not in timed or large == 1 or processes < 2:  # one process sends nothing: no bandwidth to fit
        return None
    p = Prediction.from_measurements(processes, 4 * large, 4 * large, [timed[large]], 0.0, 4, [timed[1]])
    return len(rep['steps']) * sum(p.call(sum(rep['sizes'][k] for k in unit)) for unit in _units(rep))


def ideal_schedule(rep, baseline) -> tuple[list, list]:
    """(all-reduce intervals, backward windows) had each started the moment its gradients were ready, one at a time.

    Each takes as long as one blocking all-reduce of its size alone (`baseline`). The units are the
    gradients ((c)) or the documented rule's buckets ((d)); the windows are the learner's own
    backward passes (forward end .. last gradient), so the prediction uses this run's timing.
    """
    sizes, units = rep['sizes'], _units(rep)
    schedule, windows = [], []
    for step in rep['steps']:
        ready = {k: t for t, k in step['grads']}
        end = -math.inf
        for unit in sorted(units, key=lambda u: max(ready.get(k, math.inf) for k in u)):
            start = max(max(ready.get(k, math.inf) for k in unit), end)
            end = start + baseline.get(str(sum(sizes[k] for k in unit) // 4), 0.0)
            schedule.append((start, end))
        windows.append((step['forward_end'], step['backward_end']))
    return schedule, windows


def _blocked_by_the_learner(case) -> bool:
    """A call without async_op, or a wait, during backward: blocking the learner wrote (not a busy machine's).

    On a loaded machine gloo's thread can finish an async all-reduce before the call returns; that
    is not the learner's blocking, so it is reported as too little overlap, not as a blocking call.
    """
    for rep in case:
        for step in rep['steps']:
            end = step['backward_end']
            if any(not c.get('async') for c in step['calls'] if c['start'] < end):
                return True
            if any(w[0] < end for w in step['waits']):
                return True
    return False


def above_model(measured: float, predicted: float) -> bool:
    """Above the model's share as the sentence prints both (whole percent): never '55% above the model's 55%'."""
    return round(measured * 100) > round(predicted * 100)


def overlap(case, baselines, required: bool) -> object:
    """Of the learner's all-reduce time, the share backward was computing beside it, both processes pooled.

    Per process as Holistic Trace Analysis defines it (busy time shared with compute / busy time), summed
    over the processes: with one core each, a process's all-reduce also waits for the slower one. The
    prediction pools `ideal_schedule` the same way; (a) and (b) start after backward, so theirs is 0.
    """
    shared = total = early_time = early_blocked = ideal_inside = ideal_total = 0.0
    ideal_calls, model, fitted = 0, 0.0, True
    for rep, baseline in zip(case, baselines):
        comm, compute, inside, early = [], [], [], []
        for step in rep['steps']:
            c, k, b = step_intervals(step)
            comm, compute = comm + c, compute + k
            # blocked during backward: a call that returned at once and was waited for after backward is not
            inside += intersection(b, [(step['forward_end'], step['backward_end'])])
            early += [iv for iv in c if iv[0] < step['backward_end']]
        total += busy(comm)
        shared += busy(intersection(comm, compute))
        early_time += busy(early)
        early_blocked += busy(intersection(early, inside))
        if required:
            schedule, windows = ideal_schedule(rep, baseline)
            ideal_total += busy(schedule)
            ideal_inside += busy(intersection(schedule, windows))
            ideal_calls += len(schedule)
            mine = model_seconds(rep, baseline, len(case))
            fitted, model = fitted and mine is not None, model + (mine or 0.0)
    measured = min(1.0, shared / total) if total > 0 else 0.0
    predicted = min(1.0, ideal_inside / ideal_total) if ideal_total > 0 else 0.0
    # the model gives each all-reduce its time alone: beside the measured time in flight, what it leaves out.
    # 'alone' is calls x each call's time alone, so (c) and (d) differ by their number of calls and by the time
    # a call of their sizes took when timed alone here: both are printed beside it
    steps = sum(len(rep['steps']) for rep in case)
    fields = dict(measured=measured, predicted=predicted, threshold=THRESHOLD, busy=total * 1e3,
                  alone=ideal_total * 1e3, calls=ideal_calls, per_step=ideal_calls / steps if steps else 0,
                  steps=steps // max(len(case), 1), processes=len(case),
                  each=ideal_total / ideal_calls * 1e3 if ideal_calls else 0.0,
                  model_each=model / ideal_calls * 1e3 if ideal_calls else 0.0,
                  ratio=ideal_total / model if model > 0 else 0.0)
    slow = fitted and model > 0 and ideal_total > SLOW_RATIO * model  # numbers only: why is not tested here
    if not required:
        return criterion('overlap', True, 'task.allreduce.overlap_info', **fields)
    if measured >= THRESHOLD:
        if above_model(measured, predicted):  # the time in flight beside the model's, longer or shorter: no cause
            if total > ideal_total:
                key = 'task.allreduce.overlap_above_slow' if slow else 'task.allreduce.overlap_above'
            else:
                key = 'task.allreduce.overlap_above_shorter_slow' if slow else 'task.allreduce.overlap_above_shorter'
            return criterion('overlap', True, key, **fields)
        return criterion('overlap', True, 'task.allreduce.overlap_slow' if slow else 'task.allreduce.overlap',
                         **fields)
    if early_time == 0:
        return criterion('overlap', False, 'task.allreduce.overlap_after', **fields)
    if early_blocked >= 0.5 * early_time and _blocked_by_the_learner(case):
        return criterion('overlap', False, 'task.allreduce.overlap_blocking', **fields)
    return criterion('overlap', False, 'task.allreduce.overlap_low', **fields)


if __name__ == '__main__':
    main()
