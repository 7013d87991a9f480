"""13.3.4's checks besides overlap, from both processes' reports: 'correct', 'safe', 'calls' / 'buckets'.

'correct' compares the parameters after every step with one float64 process; 'safe' reads, per step,
the calls and waits recorded and what was still running when the optimizer step began; 'calls' counts
the all-reduces per step. Each returns one criterion whose key names the reason.
"""
from __future__ import annotations

import math

from . import allreduce_ranks as ranks
from .core import criterion


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
    """Every all-reduce started with async_op=True waited for before the optimizer step, and all completed by then.

    The waits are counted from what was recorded (each wait() on a handle, each call), not timed: an
    all-reduce nobody waited for can still have completed when the step began (gloo's thread runs
    while the learner's is descheduled on a loaded machine), so is_completed() at that moment
    (`unfinished`) alone passes such a version now and then. Fewer wait() calls than async calls
    started before the step means at least one was never waited for, whatever the timing.
    """
    for case in cases:
        for rep in case:
            for s, step in enumerate(rep['steps']):
                before = math.inf if step['step_start'] is None else step['step_start']
                started = [c for c in step['calls'] if c.get('async') and c['start'] < before]
                waits = [w for w in step['waits'] if w[0] < before]
                # a handle whose future was taken (and not wait()ed) counts as waited through that future
                futures = [c for c in started if c.get('waited') is None and (c.get('future') or math.inf) < before]
                if rep.get('sizes') and len(step['calls']) > len(rep['sizes']):  # hooks of an earlier step left
                    return criterion('safe', False, 'task.allreduce.leftover_hooks', calls=len(step['calls']),
                                     params=len(rep['sizes']), step=s + 1)
                if len(waits) + len(futures) < len(started):
                    return criterion('safe', False, 'task.allreduce.unwaited', waits=len(waits) + len(futures),
                                     calls=len(started),
                                     step=s + 1)
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

