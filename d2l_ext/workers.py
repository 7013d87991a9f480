"""One worker process per framework, so PyTorch and MXNet timings never disturb each other (every section).

Why: `import mxnet` after `import torch` drops torch's thread count to 1 on a 2-core machine, and MXNet reads its
engine settings only at import. So each framework runs in its own spawned process, its environment set before any
import, one after the other, reused between calls (imports cost seconds). A worker that dies is reported as
WorkerFailed and replaced at the next call; one whose heartbeat falls silent for SILENCE_S (stopped, frozen) or
still busy after the caller's `timeout_s` is killed and raises WorkerHung, whose message gives the bound.

A worker key is the framework ('torch', 'mxnet'), or it and a name for a separate process with the same environment
('torch:first-copy'; for MXNet an engine type, 'mxnet:NaiveEngine'). What a worker sets up comes from its
framework's description (d2l_ext.frameworks). `dispatch` is THE way in for a measurement: it checks the framework
once and hands the worker Lane objects unchanged, lane names, or None (the default two, chosen in the worker);
`lanes_for` lists or checks lanes across frameworks from the parent.
"""
from __future__ import annotations

import multiprocessing as mp
import os
import queue as queue_mod
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from .errors import ResultMismatch, UsageError, WorkerFailed, WorkerHung
from .frameworks import check_framework, register_from, source
from .frameworks import framework as _framework
from .i18n import t
from .processes import end_with_parent

_pools: dict = {}
_progress_queue = None  # set inside a worker by _init_worker
_busy = threading.Event()  # inside a worker: set while it runs a call
# A worker alive but silent this long is stopped or frozen, not slow: its heartbeat thread needs the
# GIL for a moment each second, and every long computation (BLAS, PyTorch, MXNet) releases it.
SILENCE_S = 30.0
HEARTBEAT_S = 1.0


def framework_of(key: str) -> str:
    """'torch:first-copy' -> 'torch': the framework a worker key runs."""
    return key.partition(':')[0]


def worker_environment(key: str) -> dict:
    """Environment a worker sets before importing anything, from its framework's description (and the key's name)."""
    framework, _, name = key.partition(':')
    return dict(_framework(framework).environment(name))


def _heartbeat(q) -> None:
    while True:
        _busy.wait()  # only while a call runs: an idle worker must not fill the queue for the next call
        q.put(('beat',))
        time.sleep(HEARTBEAT_S)


def _init_worker(env: dict, progress_queue, framework: str, description: str) -> None:
    global _progress_queue
    # Ctrl-C / "interrupt kernel" goes to the parent, which kills the worker itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by the parent while spawning
    end_with_parent(watch=True)  # a parent killed outright cannot kill its worker: it ends itself
    _busy.set()  # from the start: the first call's function may import PyTorch while it is unpickled
    threading.Thread(target=_heartbeat, args=(progress_queue,), daemon=True).start()
    os.environ.update(env)
    register_from(description)  # after the environment: a framework registered at run time (a test's) too
    _progress_queue = progress_queue
    if _framework(framework).cleans_up_after_kill:  # e.g. MXNet's profiler folders of killed workers
        _clean_after_kill(framework, None)


def _clean_after_kill(framework: str, pids) -> None:
    # the backend's remove_stale_traces(pids); MXNet's module does not import mxnet, so this is cheap
    from .backends import backend
    backend(framework).remove_stale_traces(pids)


def report_progress(done: int, total: int) -> None:
    """Called inside a worker: tell the parent how far a long run has got."""
    if _progress_queue is not None:
        _progress_queue.put(('progress', done, total))


def _call_in_language(lang: str, func, args, kwargs):
    from .i18n import set_language
    set_language(lang)  # messages made in the worker (lane labels, errors) speak the caller's language
    _busy.set()
    try:
        return func(*args, **kwargs)
    finally:
        _busy.clear()


def _dead_while_idle(pool) -> bool:
    """Whether a pool's worker died between calls (killed, out of memory): nothing of the caller's was running."""
    if getattr(pool, '_broken', False):
        return True
    return any(not p.is_alive() for p in (getattr(pool, '_processes', None) or {}).values())


def _drop(key: str) -> None:
    """Stop the worker of exactly this key (its pool and progress queue)."""
    pool, q = _pools.pop(key)
    _kill(pool, framework_of(key))
    q.close()


def _get_pool(key: str):
    if key in _pools and _dead_while_idle(_pools[key][0]):
        _drop(key)  # replaced before the call: the learner's next run needs no second try
    if key not in _pools:
        ctx = mp.get_context('spawn')
        q = ctx.Queue()
        pool = ProcessPoolExecutor(1, mp_context=ctx, initializer=_init_worker,
                                   initargs=(worker_environment(key), q, framework_of(key),
                                             source(framework_of(key))))
        _pools[key] = (pool, q)
    return _pools[key]


def _kill(pool, framework: str) -> None:
    # ProcessPoolExecutor has no public way to stop a busy worker before Python 3.14
    killed = []
    for p in list(getattr(pool, '_processes', {}).values()):
        if p.is_alive():
            p.kill()
            p.join(5)
            killed.append(p.pid)
    # wait=True: its manager thread is joined now, while its processes are already dead. Left running, that
    # thread could race interpreter exit (concurrent.futures' atexit hook) and print "Bad file descriptor".
    pool.shutdown(wait=True, cancel_futures=True)
    if killed and _framework(framework).cleans_up_after_kill:  # a killed worker runs no atexit
        _clean_after_kill(framework, killed)


def _matches(key: str, name: str | None) -> bool:
    return name is None or key == name or (':' not in name and framework_of(key) == name)


def shutdown(framework: str | None = None) -> None:
    """Stop workers: all, one framework's ('torch'), or one key's ('torch:first-copy'); the next call starts anew."""
    for key in [k for k in list(_pools) if _matches(k, framework)]:
        _drop(key)


def worker_pids(framework: str) -> list[int]:
    """Process ids of live workers: a framework's, or one key's (tests kill one to see the failure reported)."""
    return [p.pid for key, (pool, _) in _pools.items() if _matches(key, framework)
            for p in getattr(pool, '_processes', {}).values() if p.is_alive()]


def _drain(q, progress, timeout: float) -> bool:
    """Pass on one report from the worker; True if one came (a heartbeat or progress: the worker is alive)."""
    try:
        kind, *item = q.get(timeout=timeout) if timeout else q.get_nowait()
    except (queue_mod.Empty, EOFError, OSError, ValueError):
        return False
    if kind == 'progress' and progress:
        progress(*item)
    return True


def call_in_worker(framework: str, func, *args, progress=None, timeout_s: float | None = None, **kwargs):
    """Run func(*args, **kwargs), a module-level function, in the worker of this key and return its result.

    Exceptions come back as themselves; a dead worker raises WorkerFailed; one silent for SILENCE_S or busy
    past `timeout_s` is killed: WorkerHung. An interrupted caller's worker is killed too.
    """
    from .i18n import language
    pool, q = _get_pool(framework)
    name = _framework(framework_of(framework)).display
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    heard = time.monotonic()
    try:
        # the first submit spawns the worker with Ctrl-C blocked (a terminal sends it to the whole group) until
        # _init_worker ignores it: no half-started worker prints a traceback
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            future = pool.submit(_call_in_language, language(), func, args, kwargs)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
        while not future.done():
            now = time.monotonic()
            if _drain(q, progress, 0.05):
                heard = now
                while _drain(q, progress, 0):  # everything waiting, so progress is never behind
                    pass
            elif now - heard > SILENCE_S and not future.done():
                shutdown(framework)
                raise WorkerHung(t('core.worker_silent', framework=name, seconds=round(SILENCE_S)))
            if deadline is not None and now > deadline and not future.done():
                shutdown(framework)
                raise WorkerHung(t('core.worker_hung', framework=name, seconds=round(timeout_s)))
        while progress and not q.empty():  # progress reported just before the end
            _drain(q, progress, 0)
        return future.result()
    except BrokenProcessPool:
        shutdown(framework)
        raise WorkerFailed(t('core.worker_failed', framework=name)) from None
    except BaseException as e:
        if not isinstance(e, (UsageError, ResultMismatch)):
            shutdown(framework)  # interrupted or crashed: never leave a half-run worker
        raise


# -- THE dispatcher into a framework's worker, and the one cross-framework lane helper --------------

def dispatch(measure, framework: str, lanes=None, *, progress=None, worker: str | None = None,
             timeout_s: float | None = None, **kwargs):
    """Run `measure(lanes, **kwargs)` in the framework's worker and return its result (every section, the CLI).

    Names and None for `lanes` are resolved in the worker, where the framework is imported. With `progress`,
    `measure` gets progress= and its reports come back to it. `worker`: a separate worker's key ('torch:first-copy').
    """
    fw = check_framework(framework)
    key = worker or fw
    if framework_of(key) != fw:
        raise ValueError(t('core.worker_not_framework', worker=repr(key), framework=fw))  # a programming error
    return call_in_worker(key, _in_worker, measure, fw, lanes, kwargs, progress is not None,
                          progress=progress, timeout_s=timeout_s)


def _in_worker(measure, framework, lanes, kwargs, with_progress):
    from .lanes import choose_lanes
    if with_progress:
        kwargs = dict(kwargs, progress=report_progress)
    return measure(choose_lanes(framework, lanes), **kwargs)


def lanes_for(frameworks, names=None, count: int | str = 2) -> dict:
    """{framework: its Lane objects}, each listed in its own worker (CLI `devices`, --framework all, 13.3.0): the
    `names` (CLI --lanes) checked for every framework, or its `count` default lanes (2, or 'all' for every GPU)."""
    fws = [check_framework(fw) for fw in ([frameworks] if isinstance(frameworks, str) else frameworks)]
    return {fw: call_in_worker(fw, _lanes_in_worker, fw, names, count) for fw in fws}


def _lanes_in_worker(framework, names, count):
    from .lanes import choose_lanes, lanes_of
    return choose_lanes(framework, names) if names is not None else lanes_of(framework, count)

