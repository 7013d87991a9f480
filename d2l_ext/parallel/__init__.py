"""13.3.1 Parallel computation on devices: what notebooks, widgets and the CLI call, each in the framework's worker,
each returning a typed result (`to_frame()`, `details()`, `to_json()`); the measurements: `core`, `exercises`."""
from __future__ import annotations

from ..workers import dispatch
from .core import ParallelResult, TimelineResult, expectation, measure_parallel, measure_timeline
from .exercises import (
    IndependenceResult,
    SmallOpsResult,
    SyncMistakeResult,
    measure_independence,
    measure_small_ops,
    measure_sync_mistake,
)

__all__ = ['BOOK_SLIDES', 'IndependenceResult', 'ParallelResult', 'SmallOpsResult', 'SyncMistakeResult',
           'TimelineResult', 'expectation', 'independence', 'lane_rows', 'parallel', 'small_ops', 'sync_mistake',
           'timeline']
BOOK_SLIDES = {'url': 'https://d2l.smola.org/slides/pytorch/chapter_computational-performance/auto-parallelism.html',
               'GPU1': 0.1195, 'GPU2': 0.1189, 'GPU1 & GPU2': 0.1216}  # the book's cells on 2 GPUs, one timing each


def __getattr__(name: str):
    """`lane_rows` on first use: it needs PyTorch, and MXNet's worker must not load it (torch's OpenMP
    runtime beside MXNet's made its engine run one product at a time: exercise 1)."""
    if name == 'lane_rows':
        from . import together
        return getattr(together, name)
    raise AttributeError(name)


def parallel(framework: str = 'torch', size=None, iters=None, repeats: int = 5, lanes=None,
             progress=None, lesson: bool = False, baseline: bool = False) -> ParallelResult:
    """Each lane alone and all together, e.g. `parallel('torch', iters=10)`; `baseline`: one device doing every job."""
    return dispatch(measure_parallel, framework, lanes, progress=progress, size=size, iters=iters, repeats=repeats,
                    lesson=lesson, baseline=baseline)


def timeline(framework: str = 'torch', size=None, iters=None, lanes=None, lesson: bool = False) -> TimelineResult:
    """When each product ran on each lane, e.g. `timeline('mxnet', lesson=True)` (13.3.1)."""
    return dispatch(measure_timeline, framework, lanes, size=size, iters=iters, lesson=lesson)


def independence(framework: str = 'torch', size: int = 400, iters: int = 10, repeats: int = 3,
                 engine: str | None = None, threads: int | None = None) -> IndependenceResult:
    """Exercise 1, e.g. `independence('mxnet', engine='NaiveEngine')` (the engine's control run); `threads`: PyTorch's
    on a CPU lane, e.g. every core's (else the lane's share)."""
    return dispatch(measure_independence, framework, None, worker=f'{framework}:{engine}' if engine else None,
                    size=size, iters=iters, repeats=repeats, threads=threads)


def small_ops(size: int = 64, iters: int = 400, repeats: int = 3) -> SmallOpsResult:
    """Exercise 2 (PyTorch), e.g. `small_ops(size=64, iters=400)`: two lanes vs bmm vs a CUDA Graph."""
    return dispatch(measure_small_ops, 'torch', None, size=size, iters=iters, repeats=repeats)


def sync_mistake(size=None, iters=None, repeats: int = 5, lanes=None) -> SyncMistakeResult:
    """The book's synchronize() next to no wait and every device, e.g. `sync_mistake()` (13.3.1)."""
    return dispatch(measure_sync_mistake, 'torch', lanes, size=size, iters=iters, repeats=repeats)

