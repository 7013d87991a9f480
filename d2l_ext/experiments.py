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
             progress=None, isolate: bool = True, fake=None, lesson: bool = False) -> dict:
    """13.3.1: each lane alone, their serial sum, all together, speedup and ideal.

    lesson=True picks the notebooks' smaller default size when size and iters are not given.
    """
    kw = dict(size=size, iters=iters, repeats=repeats, lanes=lanes, fake=fake, lesson=lesson)
    if not isolate:
        from .parallel import parallel_experiment
        return parallel_experiment(framework, progress=progress, **kw)
    return _dispatch('_in_worker_parallel', framework, kw, progress)


def timeline(framework: str = 'torch', size=None, iters=None, lanes=None, isolate: bool = True, fake=None,
             lesson: bool = False) -> dict:
    """13.3.1: when each product ran on each lane, in one run of all lanes together."""
    kw = dict(size=size, iters=iters, lanes=lanes, fake=fake, lesson=lesson)
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
         progress=None, isolate: bool = True, fake=None, plan=None, lesson: bool = False) -> dict:
    """13.3.2: run, copy, run then copy, run with copy overlapped, per copy mode (or one `plan`)."""
    kw = dict(size=size, iters=iters, repeats=repeats, modes=modes, fake=fake, plan=plan, lesson=lesson)
    if not isolate:
        from .communication import comm_experiment
        return comm_experiment(framework, progress=progress, **kw)
    return _dispatch('_in_worker_comm', framework, kw, progress)


def _in_worker_independence(kwargs):
    from .parallel import independence_experiment
    return independence_experiment(**kwargs)


def _in_worker_small_ops(kwargs):
    from .parallel import small_ops_experiment
    kwargs.pop('framework')
    return small_ops_experiment(**kwargs)


def independence(framework: str = 'torch', size: int = 400, iters: int = 10, repeats: int = 3,
                 engine: str | None = None) -> dict:
    """Exercise 1: products issued together vs one at a time; engine='NaiveEngine' for MXNet's control."""
    fw = check_framework(framework)
    key = fw if not engine else f'{fw}:{engine}'
    return call_in_worker(key, _in_worker_independence,
                          dict(framework=fw, size=size, iters=iters, repeats=repeats))


def small_ops(size: int = 64, iters: int = 400, repeats: int = 3) -> dict:
    """Exercise 2: two lanes on one device vs one lane using the whole device, small products."""
    return call_in_worker('torch', _in_worker_small_ops,
                          dict(framework='torch', size=size, iters=iters, repeats=repeats))


def _in_worker_call(kwargs):
    import importlib
    kwargs.pop('framework', None)
    module, name = kwargs.pop('_target').rsplit('.', 1)
    return getattr(importlib.import_module(module), name)(**kwargs)


def comm_timeline(size=None, iters=None, plan: str = 'pinned, preallocated, copy stream + events') -> dict:
    """13.3.2: measured timeline of products and copies on the compute and copy streams (PyTorch)."""
    return call_in_worker('torch', _in_worker_call, dict(_target='d2l_ext.communication.comm_timeline',
                                                         size=size, iters=iters, plan=plan))


def cpu_gpu_together(size=None, iters=None, repeats: int = 3) -> dict:
    """Exercise 3: lane 1 computes and copies to the host while lane 2 computes (PyTorch)."""
    return call_in_worker('torch', _in_worker_call, dict(_target='d2l_ext.communication.cpu_gpu_together',
                                                         size=size, iters=iters, repeats=repeats))


def launch_order(size=None, iters=None, repeats: int = 5) -> dict:
    """13.3.1: GPU + CPU lanes with the CPU lane started first or after queuing the GPU (PyTorch)."""
    return call_in_worker('torch', _in_worker_call, dict(_target='d2l_ext.parallel.launch_order_experiment',
                                                         size=size, iters=iters, repeats=repeats))
