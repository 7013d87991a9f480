"""Grade a learner's code in a contained process tree (sandbox.py) with a time bound; judge what it reports here.

The bound is the task's `budget_s()` here, counted once the grading process has imported the task (STARTUP_S
bounds the import). Results come back as JSON lines marked with a nonce on a pipe; printed output on another,
its end kept in the verdict. Whatever ends grading (a result, a hang, a crash, Ctrl-C), the whole tree goes.
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import secrets
import select
import signal
import subprocess
import tempfile
import threading
import time

from . import integrity, registry, sandbox
from .core import BadSubmission, Criterion, Verdict, criterion, parse_submission, untouched

STARTUP_S = 120.0  # start the interpreter and import the task and its framework
GRACE_S = 5.0  # after the result: time the grading process gets to end by itself
OUTPUT_CHARS = 4000  # the end of what the grading process printed, kept for instructors (--json)


def bad_input(task_id: str, error: BadSubmission) -> Verdict:
    """The verdict for input that cannot be graded: one criterion carrying the error's key and fields."""
    return Verdict(str(task_id), 'bad_input', [Criterion('input', False, error.key, dict(error.fields))])


def check_budget(budget_s) -> float | None:
    """None, or a positive finite number of seconds; BadSubmission 'grading.bad_budget' otherwise."""
    if budget_s is None:
        return None
    try:
        value = float(budget_s)
    except (TypeError, ValueError):
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= 24 * 3600):
        raise BadSubmission('grading.bad_budget', value=budget_s)
    return value


def grade(task_id: str, source: str, *, budget_s: float | None = None, language: str | None = None,
          filename: str = '<submission>') -> Verdict:
    """Grade `source` for `task_id` in a separate process: a Verdict whatever happens (KeyboardInterrupt propagates);
    `budget_s` replaces the task's own bound, `language` the one in use here."""
    from ..i18n import language as current
    ready = _prepare(task_id, source, budget_s, filename)
    if isinstance(ready, Verdict):
        return ready
    return _run(ready['task'], {**ready, 'language': language or current(), 'parent': os.getpid()})


def _prepare(task_id: str, source: str, budget_s, filename: str):
    """A Verdict given without a process (bad input, an imported worked solution, a skeleton), or the request."""
    try:
        found = registry.entry(task_id)
        bound = check_budget(budget_s)
        tree = parse_submission(found.signatures, source, filename)  # a bad file costs no process
    except BadSubmission as e:
        return bad_input(task_id, e)
    taken = integrity.imports_solution(tree, [f for e in registry.TASKS.values() for f in e.functions])
    if taken:  # the package's worked solution imported, not written: reported as such, no process needed
        return Verdict(found.id, 'not_yet', [criterion('runs', False, 'grading.worked_solution', name=taken)])
    todo = untouched(tree, found.functions)
    if todo:  # the skeleton as the lesson gives it: its grader could only say 'todo' (and costs seconds)
        return Verdict(found.id, 'not_yet', [criterion('runs', False, 'grading.todo', name=n) for n in todo])
    return {'task': found.id, 'target': found.target, 'source': source, 'filename': filename, 'budget_s': bound}


def grade_batch(items, *, budget_s: float | None = None, language: str | None = None) -> list[Verdict]:
    """One student's submissions [(task id, source, filename)] graded one by one in ONE process tree (a class: one
    start per student), the same verdicts as grade(). An item that hangs or crashes ends it: that item gets its status
    (out of memory: graded again alone), those after it are graded alone."""
    from ..i18n import language as current
    out = [_prepare(t, src, budget_s, name) for t, src, name in items]
    todo = [i for i, r in enumerate(out) if not isinstance(r, Verdict)]

    def alone(r):
        return grade(r['task'], r['source'], budget_s=budget_s, language=language, filename=r['filename'])
    if len(todo) < 2:
        return [r if isinstance(r, Verdict) else alone(r) for r in out]
    request = {'batch': [out[i] for i in todo], 'budget_s': check_budget(budget_s),
               'language': language or current(), 'parent': os.getpid()}
    returncode, watched = _start(request, len(todo))
    results, started = watched.pop('results'), watched.pop('started_items')
    for k, i in enumerate(todo):
        r = out[i]
        if k < len(results):
            out[i] = _verdict(r['task'], None, **{**watched, 'result': results[k], 'stop': None, 'hung': False})
        elif k == len(results) and started > k:  # the one that was running when it ended or hung
            out[i] = _verdict(r['task'], returncode, **watched)
            if out[i].status == 'out_of_memory':  # the batch's memory, not only this item's: graded alone
                out[i] = alone(r)
        else:
            out[i] = alone(r)
    return out


def _run(task_id: str, request: dict) -> Verdict:
    """Start the keeper (sandbox.py) in a folder of its own, send the request, watch, and leave nothing running."""
    returncode, watched = _start(request, 1)
    results = watched.pop('results')
    watched.pop('started_items')
    return _verdict(task_id, returncode, **watched, result=results[0] if results else None)


def _start(request: dict, expect: int) -> tuple:
    """The keeper run for `request`, watched until `expect` results: (its exit code, what _watch saw)."""
    lim = sandbox.limits()
    nonce = secrets.token_hex(16)  # a result line without it was not written by the grader's code
    with tempfile.TemporaryDirectory(prefix='d2l_ext-grading-') as folder:
        read, write = os.pipe()
        out_read, out_write = os.pipe()
        message = {**request, 'nonce': nonce, 'result_fd': write, 'limits': lim, 'folder': folder,
                   'bound_s': STARTUP_S + (request['budget_s'] or 600.0) * len(request.get('batch') or [0])}
        proc = None
        try:
            with _no_interrupt():  # a Ctrl-C during the start arrives once `proc` can be ended
                proc = subprocess.Popen(sandbox.command(folder), stdin=subprocess.PIPE, stdout=out_write,
                                        stderr=out_write, pass_fds=(write,), start_new_session=True,
                                        env=sandbox.environment(folder), cwd=folder)
                for fd in (write, out_write):
                    os.close(fd)
                write = out_write = None
            proc.stdin.write((json.dumps(message) + '\n').encode())
            proc.stdin.flush()
            watched = _watch(proc, read, out_read, request['budget_s'], nonce, lim, expect)
        except BrokenPipeError:  # the keeper ended before reading: its exit code says why
            watched = {'hung': False, 'started': False, 'bound': STARTUP_S, 'seconds': 0.0, 'printed': '',
                       'results': [], 'started_items': 0}
        finally:  # a result, a hang, a crash, Ctrl-C: the whole tree goes
            if proc is not None:
                _end(proc)
            for fd in (read, write, out_read, out_write):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
    return proc.returncode, watched


def _watch(proc, read: int, out: int, budget_s: float | None, nonce: str, lim: dict, expect: int = 1) -> dict:
    """Read the grading process's messages and output until its `expect` results, its end, a limit, or the bound."""
    spawned = time.monotonic()
    deadline, bound, started, results, buffer = spawned + STARTUP_S, STARTUP_S, None, [], b''
    printed, total, forged, stop, next_memory, items = b'', 0, False, None, 0.0, 0
    while len(results) < expect and stop is None:
        now = time.monotonic()
        exited = _exited(proc)  # checked before reading, so a result written just before the end is read
        ready, _, _ = select.select([read, out], [], [], 0.0 if exited else max(0.0, min(0.2, deadline - now)))
        chunk = os.read(read, 1 << 16) if read in ready else b''
        data = os.read(out, 1 << 16) if out in ready else b''
        if data:
            total += len(data)
            printed = (printed + data)[-OUTPUT_CHARS * 4:]
            if total > lim['output_kb'] * 1024:
                stop = ('crashed', 'grading.output_limit', {'limit': int(lim['output_kb'])})
        buffer += chunk
        *lines, buffer = buffer.split(b'\n')
        for line in lines:
            try:
                message = json.loads(line)
            except ValueError:
                forged = True
                continue
            if not isinstance(message, dict) or message.pop('nonce', None) != nonce:
                forged = True  # only the grader's own code knows the nonce
            elif message.get('event') == 'started':  # one item of the batch: its own bound from now
                started, items = time.monotonic(), items + 1
                bound = budget_s or float(message['budget_s'])
                deadline = started + bound
            else:
                results.append(message)
        if now >= next_memory:  # the resident memory of the whole tree, every half second
            next_memory = now + 0.5
            used = sandbox.resident_mb(sandbox.descendants(proc.pid))
            if used > lim['memory_mb']:
                stop = ('out_of_memory', 'grading.memory_limit', {'limit': int(lim['memory_mb']), 'used': int(used)})
        if len(results) >= expect or (exited and not chunk and not data):
            break
        if stop is None and not chunk and time.monotonic() >= deadline:
            stop = ('hung', 'grading.hung' if started else 'grading.hung_startup', {'seconds': bound})
    if len(results) >= expect:  # it ends by itself right after; a leftover process is killed by _end
        with contextlib.suppress(subprocess.TimeoutExpired):
            _wait_without_reaping(proc, GRACE_S)
    text = printed.decode('utf-8', errors='replace')[-OUTPUT_CHARS:]
    return {'hung': stop is not None and stop[0] == 'hung', 'stop': stop, 'started': started is not None,
            'bound': bound, 'results': results, 'started_items': items, 'forged': forged, 'printed': text,
            'seconds': time.monotonic() - (started or spawned)}


def _exited(proc) -> bool:
    """Whether the keeper has ended, not reaping it: its id, so its group's, stays unused until _end."""
    try:
        return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True
    except AttributeError:  # no waitid (macOS): reap it; the group id could then be reused, but not this soon
        return proc.poll() is not None


def _wait_without_reaping(proc, timeout: float) -> None:
    end = time.monotonic() + timeout
    while not _exited(proc):
        if time.monotonic() > end:
            raise subprocess.TimeoutExpired(proc.args, timeout)
        time.sleep(0.02)


def _kill_all(proc) -> None:
    """Ask the keeper to clean up (its stdin closed); then kill whatever is left of the tree and the group."""
    with contextlib.suppress(OSError):
        proc.stdin.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        _wait_without_reaping(proc, GRACE_S)
    sandbox.kill_tree(proc.pid, itself=False)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


@contextlib.contextmanager
def _no_interrupt():
    """Hold Ctrl-C back (main thread only) until the block ends; it is raised right after."""
    main = threading.current_thread() is threading.main_thread()
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if main else None
    try:
        yield
    finally:
        if main:  # as it was: a command line that keeps Ctrl-C blocked in its main thread keeps it so
            signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _end(proc) -> None:
    """End the keeper and every process it started, then reap it, even through more Ctrl-Cs."""
    interrupted = False
    while True:  # a Ctrl-C raised by other means than the signal (a command line's forwarding thread)
        try:
            with _no_interrupt():
                _kill_all(proc)
                proc.wait()
            break
        except KeyboardInterrupt:
            interrupted = True
    if interrupted:
        raise KeyboardInterrupt


SIGNALS = {signal.SIGXCPU: ('hung', 'grading.cpu_limit'), signal.SIGXFSZ: ('crashed', 'grading.file_limit'),
           signal.SIGKILL: ('out_of_memory', 'grading.killed')}  # SIGKILL: not ours (ours comes after a result)


def _verdict(task_id, returncode, *, hung, started, bound, seconds, printed='', stop=None, forged=False,
             result=None) -> Verdict:
    """The Verdict from what the grading process reported (judged here), or from how it ended."""
    def stopped(status, key, **fields):  # the task's other criteria are listed, not judged
        criteria = integrity.complete(task_id, [criterion('runs', False, key, **fields)])
        return Verdict(task_id, status, criteria, seconds, bound, printed)
    if stop is not None:
        status, key, fields = stop
        return stopped(status, key, **fields)
    if result is None:  # it ended without a word: a signal, or an exit from inside the learner's code
        if forged:
            return stopped('not_yet', 'grading.forged')
        number = -returncode if returncode is not None and returncode < 0 else (
            returncode - 128 if returncode is not None and 128 < returncode < 160 else None)
        if number in SIGNALS:
            status, key = SIGNALS[number]
            return stopped(status, key, **sandbox.limits())
        if number is not None:
            name = signal.Signals(number).name if number in signal.Signals._value2member_map_ else str(number)
            return stopped('crashed', 'grading.crashed_signal', signal=name)
        return stopped('crashed', 'grading.crashed_code', code=returncode)
    status = result['status']
    if status == 'graded':
        criteria = [Criterion(c['id'], bool(c['passed']), c['key'], c.get('fields') or {}) for c in result['criteria']]
        if not criteria:
            return stopped('not_yet', 'grading.no_criteria')
        if forged:  # something else wrote to the result channel: the learner's code
            criteria.append(criterion('integrity', False, 'grading.forged'))
        status, criteria = integrity.judge(task_id, criteria)
        return Verdict(task_id, status, criteria, seconds, bound, printed)
    if status == 'bad_input':
        return Verdict(task_id, status, [Criterion('input', False, result['key'], result['fields'])], seconds,
                       bound, printed)
    return stopped(status, result['key'], **result['fields'])
