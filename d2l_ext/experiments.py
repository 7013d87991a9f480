"""The experiments as learners and instructors call them: each framework in its own worker.

Used by the CLI, the widgets and the notebooks' comparison tables (13.3.1, 13.3.2). Pass
`isolate=False` to run in this process (tests, or a machine where spawning is not allowed).
"""
from __future__ import annotations

from .isolation import call_in_worker, report_progress
from .machine import available_frameworks, check_framework


def _in_worker_parallel(kwargs):
    from .parallel import parallel_experiment
    return parallel_experiment(progress=report_progress, **kwargs)


def _in_worker_comm(kwargs):
    from .communication import comm_experiment
    return comm_experiment(progress=report_progress, **kwargs)


def _in_worker_timeline(kwargs):
    from .parallel import parallel_timeline
    return parallel_timeline(**kwargs)


def _in_worker_scaling(kwargs):
    from .parallel import scaling_sweep
    return scaling_sweep(progress=report_progress, **kwargs)


def _in_worker_lanes(framework, fake):
    from .lanes import find_lanes
    return [lane.as_dict() for lane in find_lanes(framework, 'all', **(fake or {}))]


def _dispatch(name, framework, kwargs, progress):
    fw = check_framework(framework)
    return call_in_worker(fw, globals()[name], dict(kwargs, framework=fw), progress=progress)


def frameworks_for(choice: str) -> list[str]:
    """'all' -> the installed frameworks; otherwise the one named (checked)."""
    if choice == 'all':
        return available_frameworks()
    return [check_framework(choice)]


def lanes(framework: str = 'torch', isolate: bool = True, fake=None) -> list[dict]:
    """The lanes a framework has here, as dicts (13.3.1); MXNet is asked in its own process."""
    fw = check_framework(framework)
    if not isolate:
        return _in_worker_lanes(fw, fake)
    return call_in_worker(fw, _in_worker_lanes, fw, fake)


def parallel(framework: str = 'torch', size=None, iters=None, repeats: int = 3, lanes=None,
             progress=None, isolate: bool = True, fake=None) -> dict:
    """13.3.1: each lane alone, their serial sum, all together, speedup and ideal."""
    kw = dict(size=size, iters=iters, repeats=repeats, lanes=lanes, fake=fake)
    if not isolate:
        from .parallel import parallel_experiment
        return parallel_experiment(framework, progress=progress, **kw)
    return _dispatch('_in_worker_parallel', framework, kw, progress)


def timeline(framework: str = 'torch', size=None, iters=None, lanes=None, isolate: bool = True, fake=None) -> dict:
    """13.3.1: when each product ran on each lane, in one run of all lanes together."""
    kw = dict(size=size, iters=iters, lanes=lanes, fake=fake)
    if not isolate:
        from .parallel import parallel_timeline
        return parallel_timeline(framework, **kw)
    return _dispatch('_in_worker_timeline', framework, kw, None)


def scaling(framework: str = 'torch', sizes=(200, 400, 800), iters=None, repeats: int = 3,
            progress=None, isolate: bool = True, fake=None) -> list[dict]:
    """13.3.1: two-lane speedup as the matrices get smaller."""
    kw = dict(sizes=tuple(sizes), iters=iters, repeats=repeats, fake=fake)
    if not isolate:
        from .parallel import scaling_sweep
        return scaling_sweep(framework, progress=progress, **kw)
    return _dispatch('_in_worker_scaling', framework, kw, progress)


def comm(framework: str = 'torch', size=None, iters=None, repeats: int = 3, modes=None,
         progress=None, isolate: bool = True, fake=None) -> dict:
    """13.3.2: run, copy, run then copy, run with copy overlapped, per copy mode."""
    kw = dict(size=size, iters=iters, repeats=repeats, modes=modes, fake=fake)
    if not isolate:
        from .communication import comm_experiment
        return comm_experiment(framework, progress=progress, **kw)
    return _dispatch('_in_worker_comm', framework, kw, progress)
