"""One worker process per framework, so PyTorch and MXNet timings never disturb each other.

Why: `import mxnet` after `import torch` drops torch's thread count to 1 on a 2-core machine, and
MXNet reads its engine settings only once, at import. Each framework therefore runs in its own
spawned process whose environment is set before anything is imported; the processes run one
after the other, never at the same time, and are reused between calls (imports cost seconds).
"""
from __future__ import annotations

import multiprocessing as mp
import os
import queue as queue_mod

_pools: dict = {}
_progress_queue = None  # set inside a worker by _init_worker


def worker_environment(key: str) -> dict:
    """Environment a worker sets before importing anything; 'mxnet:NaiveEngine' picks an engine."""
    framework, _, engine = key.partition(':')
    if framework == 'mxnet':
        from .mxnet_work import engine_environment
        env = engine_environment()
        if engine:
            env['MXNET_ENGINE_TYPE'] = engine
        return env
    return {}


def _init_worker(env: dict, progress_queue) -> None:
    global _progress_queue
    import signal
    # Ctrl-C / "interrupt kernel" goes to the parent, which terminates the worker itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.update(env)
    _progress_queue = progress_queue


def report_progress(done: int, total: int) -> None:
    """Called inside a worker: tell the parent how far a long run has got."""
    if _progress_queue is not None:
        _progress_queue.put((done, total))


def _get_pool(framework: str):
    if framework not in _pools:
        ctx = mp.get_context('spawn')
        q = ctx.Queue()
        pool = ctx.Pool(1, initializer=_init_worker, initargs=(worker_environment(framework), q))
        _pools[framework] = (pool, q)
    return _pools[framework]


def shutdown(framework: str | None = None) -> None:
    """Stop the worker of one framework (or all); the next call starts a fresh one."""
    for fw in [framework] if framework else list(_pools):
        pool, _ = _pools.pop(fw, (None, None))
        if pool is not None:
            pool.terminate()
            pool.join()


def call_in_worker(framework: str, func, *args, progress=None, **kwargs):
    """Run func(*args, **kwargs) in the framework's worker process and return its result.

    func must be importable (a module-level function). Exceptions come back as themselves.
    If the caller is interrupted, the worker is killed so the next call starts clean.
    """
    pool, q = _get_pool(framework)
    result = pool.apply_async(func, args, kwargs)
    try:
        while not result.ready():
            try:
                done, total = q.get(timeout=0.05)
                if progress:
                    progress(done, total)
            except queue_mod.Empty:
                pass
        while progress:  # progress reported just before the end
            try:
                progress(*q.get_nowait())
            except queue_mod.Empty:
                break
        return result.get()
    except BaseException as e:
        from .errors import UsageError, ResultMismatch
        if not isinstance(e, (UsageError, ResultMismatch)):
            shutdown(framework)  # interrupted or crashed: never leave a half-run worker behind
        raise


def _torch_thread_report() -> dict:
    """What a PyTorch worker sees: thread count, and whether MXNet got into this process."""
    import sys
    import torch
    return {'torch_threads': torch.get_num_threads(), 'mxnet_loaded': 'mxnet' in sys.modules,
            'pid': os.getpid()}


def _mxnet_worker_report() -> dict:
    """What an MXNet worker sees: engine settings read at import, and whether torch is loaded."""
    import sys
    from .mxnet_work import setup_mxnet
    setup_mxnet()
    return {'MXNET_CPU_WORKER_NTHREADS': os.environ.get('MXNET_CPU_WORKER_NTHREADS'),
            'OMP_NUM_THREADS': os.environ.get('OMP_NUM_THREADS'),
            'torch_loaded': 'torch' in sys.modules, 'pid': os.getpid()}
