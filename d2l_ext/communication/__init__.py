"""13.3.2 Parallel computation and communication: what notebooks, widgets and the CLI call, each in the framework's
worker process on the lanes given (None: the machine's default), each returning a typed result (`to_frame()`,
`details()`, `to_json()`); the copies themselves (pinned buffers, a copy stream, events) are in `copying`."""
from __future__ import annotations

from ..profiling import no_profiler_chatter
from ..workers import dispatch, shutdown
from .core import CommResult, CommRow, copy_overlap, copy_thread_rule, expected_overlap, measure_comm
from .evidence import (
    TIMELINE_PLANS,
    CommTimeline,
    ExerciseThreeResult,
    FirstCopyResult,
    measure_comm_timelines,
    measure_exercise_three,
    measure_first_copy,
)

__all__ = ['CommResult', 'CommRow', 'CommTimeline', 'ExerciseThreeResult', 'FirstCopyResult', 'TIMELINE_PLANS', 'comm',
           'comm_timelines', 'copy_overlap', 'copy_thread_rule', 'exercise_three', 'expected_overlap', 'first_copy',
           'no_profiler_chatter']


def comm(framework: str = 'torch', size=None, iters=None, repeats: int = 5, progress=None, plan: dict | None = None,
         lesson: bool = False, lanes=None) -> CommResult:
    """Run, copy, run then copy, overlapped, per copy mode, e.g. `comm('torch', lesson=True)` (13.3.2).

    `plan` picks one GPU copy mode, e.g. dict(dest='pinned', alloc='prealloc', stream='side', non_blocking=True).
    """
    return dispatch(measure_comm, framework, lanes, progress=progress, size=size, iters=iters, repeats=repeats,
                    plan=plan, lesson=lesson)


def comm_timelines(size=None, iters=None, plans=TIMELINE_PLANS, lesson: bool = True, lanes=None) -> list[CommTimeline]:
    """Measured compute/copy stream timelines, one per copy plan, e.g. `comm_timelines()` (13.3.2)."""
    return dispatch(measure_comm_timelines, 'torch', lanes, size=size, iters=iters, plans=tuple(plans), lesson=lesson)


def first_copy(size=None, iters=None, repeats: int = 5, lanes=None) -> FirstCopyResult:
    """The book's first non_blocking copy (cold) vs later ones, e.g. `first_copy()`, in a fresh
    PyTorch worker each time, so the first call is the process's first (the next PyTorch run restarts one)."""
    shutdown('torch')
    try:
        return dispatch(measure_first_copy, 'torch', lanes, worker='torch:first-copy', size=size, iters=iters,
                         repeats=repeats)
    finally:
        shutdown('torch')


def exercise_three(size=None, iters=None, repeats: int = 3, lanes=None) -> ExerciseThreeResult:
    """Exercise 3: lane 1 computes and copies while lane 2 computes, e.g. `exercise_three()` (PyTorch)."""
    return dispatch(measure_exercise_three, 'torch', lanes, size=size, iters=iters, repeats=repeats)
