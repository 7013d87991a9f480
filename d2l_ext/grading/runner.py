"""Grade a learner's code in a separate process with a time bound, and leave nothing running (every "Build it" task).

The grading process is a fresh interpreter in its own session, so it and everything it starts (13.3.4's
gloo processes) form one process group, killed as a whole when grading ends for any reason: a
result, a hang past the bound, a crash, or Ctrl-C / a notebook interrupt in this process. If this
process is killed outright, the grading process notices it was orphaned and kills its own group.

The bound is the task's `budget_s()` on this machine, counted from the moment the grading process
has imported the task (imports of a framework can take seconds on a busy machine, and are bounded
separately by STARTUP_S). Messages go back as JSON lines on a pipe; what the learner's code prints
goes to a file whose end is kept in the verdict.
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from . import registry
from .core import (
    BadSubmission,
    Criterion,
    Verdict,
    criterion,
    is_out_of_memory,
    load_submission,
    parse_submission,
    untouched,
)

STARTUP_S = 120.0  # start the interpreter and import the task and its framework
GRACE_S = 5.0  # after the result: time the grading process gets to end by itself
OUTPUT_CHARS = 4000  # the end of what the grading process printed, kept for instructors (--json)
CHILD = 'from d2l_ext.grading.runner import child_main; child_main()'


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
    """Grade `source` for `task_id` in a separate process: a Verdict whatever happens (KeyboardInterrupt propagates).

    `budget_s` replaces the task's own bound (None: the task's `budget_s()` on this machine);
    `language` is the one messages made while grading use (default: the one in use here).
    """
    from ..i18n import language as current
    try:
        found = registry.entry(task_id)
        bound = check_budget(budget_s)
        tree = parse_submission(found.signatures, source, filename)  # a bad file costs no process
    except BadSubmission as e:
        return bad_input(task_id, e)
    todo = untouched(tree, found.functions)
    if todo:  # the skeleton as the lesson gives it: its grader could only say 'todo' (and costs seconds)
        return Verdict(found.id, 'not_yet', [criterion('runs', False, 'grading.todo', name=n) for n in todo])
    request = {'target': found.target, 'source': source, 'filename': filename, 'budget_s': bound,
               'language': language or current(), 'parent': os.getpid()}
    return _run(found.id, request)


def _environment() -> dict:
    """This process's environment, with this package importable first and plots off-screen."""
    env = dict(os.environ)
    root = Path(__file__).resolve().parents[2]
    if root.name not in ('site-packages', 'dist-packages'):  # a checkout: put it first; an install is found anyway
        env['PYTHONPATH'] = os.pathsep.join(p for p in (str(root), env.get('PYTHONPATH')) if p)
    env['MPLBACKEND'] = 'Agg'  # a notebook's inline backend means nothing in the grading process
    return env


def _run(task_id: str, request: dict) -> Verdict:
    with tempfile.TemporaryDirectory(prefix='d2l_ext-grading-') as folder:
        path = Path(folder) / 'request.json'
        path.write_text(json.dumps(request), encoding='utf-8')
        read, write = os.pipe()
        with open(Path(folder) / 'output.txt', 'w+b') as output:
            proc = None
            try:
                with _no_interrupt():  # a Ctrl-C during the start arrives once `proc` can be ended
                    proc = subprocess.Popen([sys.executable, '-c', CHILD, str(write), str(path)],
                                            stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                                            pass_fds=(write,), start_new_session=True, env=_environment())
                    os.close(write)
                    write = None
                watched = _watch(proc, read, request['budget_s'])
            finally:  # a result, a hang, a crash, Ctrl-C: the whole group goes
                if proc is not None:
                    _end(proc)
                for fd in (read, write):
                    if fd is not None:
                        os.close(fd)
            output.seek(0, os.SEEK_END)
            output.seek(max(0, output.tell() - OUTPUT_CHARS))
            printed = output.read().decode('utf-8', errors='replace')
    return _verdict(task_id, proc.returncode, printed, **watched)


def _watch(proc, read: int, budget_s: float | None) -> dict:
    """Read the grading process's messages until its result, its end, or the bound; what happened, as a dict."""
    spawned = time.monotonic()
    deadline, bound, started, result, buffer = spawned + STARTUP_S, STARTUP_S, None, None, b''
    while result is None:
        now = time.monotonic()
        exited = _exited(proc)  # checked before reading, so a result written just before the end is read
        ready, _, _ = select.select([read], [], [], 0.0 if exited else max(0.0, min(0.2, deadline - now)))
        chunk = os.read(read, 1 << 16) if ready else b''
        buffer += chunk
        *lines, buffer = buffer.split(b'\n')
        for line in lines:
            try:
                message = json.loads(line)
            except ValueError:  # not ours: only the grading process writes to this pipe
                continue
            if message.get('event') == 'started':
                started = time.monotonic()
                bound = budget_s or float(message['budget_s'])
                deadline = started + bound
            else:
                result = message
        if result is not None or (exited and not chunk):
            break
        if not chunk and time.monotonic() >= deadline:
            return {'hung': True, 'started': started is not None, 'bound': bound,
                    'seconds': time.monotonic() - (started or spawned)}
    if result is not None:  # it ends by itself right after; a leftover process is killed by _end
        with contextlib.suppress(subprocess.TimeoutExpired):
            _wait_without_reaping(proc, GRACE_S)
    return {'hung': False, 'started': started is not None, 'bound': bound, 'result': result,
            'seconds': time.monotonic() - (started or spawned)}


def _exited(proc) -> bool:
    """Whether the grading process has ended, not reaping it: its id, so its group's, stays unused until _end."""
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


def _descendants(pid: int) -> list:
    """Every process started under `pid`, also those that left its group (psutil; none without it)."""
    try:
        import psutil
        return psutil.Process(pid).children(recursive=True)
    except Exception:  # noqa: BLE001 (no psutil, or the process is already gone: the group kill suffices)
        return []


def _kill_all(pid: int) -> None:
    """Stop the group (so nothing new starts), then kill it and every descendant, in or out of the group."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGSTOP)
    descendants = _descendants(pid)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    for p in descendants:
        with contextlib.suppress(Exception):
            p.kill()


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
    """Kill the grading process's group and every process it started, then reap it, even through more Ctrl-Cs."""
    interrupted = False
    while True:  # a Ctrl-C raised by other means than the signal (a command line's forwarding thread)
        try:
            with _no_interrupt():
                _kill_all(proc.pid)
                proc.wait()
            break
        except KeyboardInterrupt:
            interrupted = True
    if interrupted:
        raise KeyboardInterrupt


def _verdict(task_id, returncode, printed, *, hung, started, bound, seconds, result=None) -> Verdict:
    """The Verdict from what the grading process reported, or from how it ended when it reported nothing."""
    def stopped(status, key, **fields):
        return Verdict(task_id, status, [criterion('runs', False, key, **fields)], seconds, bound, printed)
    if hung:
        return stopped('hung', 'grading.hung' if started else 'grading.hung_startup', seconds=bound)
    if result is None:  # it ended without a word: a signal, or an exit from inside the learner's code
        if returncode is not None and returncode < 0:
            number = -returncode
            if number == signal.SIGKILL:  # not ours (ours comes only after a result or the bound)
                return stopped('out_of_memory', 'grading.killed')
            name = signal.Signals(number).name if number in signal.Signals._value2member_map_ else str(number)
            return stopped('crashed', 'grading.crashed_signal', signal=name)
        return stopped('crashed', 'grading.crashed_code', code=returncode)
    status = result['status']
    if status == 'graded':
        criteria = [Criterion(c['id'], bool(c['passed']), c['key'], c.get('fields') or {}) for c in result['criteria']]
        if not criteria:
            return stopped('not_yet', 'grading.no_criteria')
        status = 'passed' if all(c.passed for c in criteria) else 'not_yet'
        return Verdict(task_id, status, criteria, seconds, bound, printed)
    if status == 'bad_input':
        return Verdict(task_id, status, [Criterion('input', False, result['key'], result['fields'])], seconds,
                       bound, printed)
    return stopped(status, result['key'], **result['fields'])


# -- inside the grading process ---------------------------------------------------------------------

def _plain(value):
    """JSON for what a grader may put in a criterion's fields: numpy and torch scalars, tuples, else text."""
    for name in ('item', 'tolist'):
        with contextlib.suppress(Exception):
            return getattr(value, name)()
    return str(value)


def _orphaned(parent: int) -> None:
    """If the process that started grading dies, end this process group: nothing keeps running unseen."""
    while os.getppid() == parent:
        time.sleep(0.5)
    for p in _descendants(os.getpid()):
        with contextlib.suppress(Exception):
            p.kill()
    os.killpg(0, signal.SIGKILL)


def child_main() -> None:
    """The grading process: import the task, load the learner's source, grade it, report, exit."""
    write, path = int(sys.argv[1]), sys.argv[2]
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by the parent while starting this
    request = json.loads(Path(path).read_text(encoding='utf-8'))
    threading.Thread(target=_orphaned, args=(request['parent'],), daemon=True).start()

    def send(**message):
        data = (json.dumps(message, default=_plain) + '\n').encode()
        while data:
            data = data[os.write(write, data):]

    from ..i18n import set_language
    set_language(request['language'])
    try:
        task = registry.load(request['target'])
        budget = request['budget_s'] or float(task.budget_s())
    except Exception as e:  # noqa: BLE001 (a task module that does not import is reported, not a traceback)
        send(event='result', status='crashed', key='grading.task_broken', fields={'error': _error(e)})
        os._exit(0)
    send(event='started', budget_s=budget)
    try:
        submission = load_submission(task, request['source'], request['filename'])
        criteria = [c if isinstance(c, Criterion) else Criterion(**c) for c in task.grade(submission)]
        result = {'status': 'graded', 'criteria': [vars(c) for c in criteria]}
    except BadSubmission as e:
        result = {'status': 'bad_input', 'key': e.key, 'fields': e.fields}
    except BaseException as e:  # noqa: BLE001 (anything escaping grade, even SystemExit, is this run's verdict)
        oom = is_out_of_memory(e)
        result = {'status': 'out_of_memory' if oom else 'crashed',
                  'key': 'grading.out_of_memory' if oom else 'grading.crashed_error', 'fields': {'error': _error(e)}}
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    send(event='result', **result)
    os._exit(0)  # threads the learner's code left running must not hold the process open


def _error(e: BaseException) -> str:
    text = f'{type(e).__name__}: {e}' if str(e) else type(e).__name__
    return text.splitlines()[0][:300]
