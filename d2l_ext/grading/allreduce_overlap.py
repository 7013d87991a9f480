"""13.3.4's overlap verdict from the recorded intervals: of the all-reduces' time, the share backward computed in."""
from __future__ import annotations

import math

from ..overlap import busy, intersection, subtract
from . import allreduce_ranks as ranks
from .core import criterion

# (c) and (d) pass when, of the time their all-reduces were in flight, at least this fraction had backward
# computing beside it. Measured (benchmarks/class_bench.py --overlap-basis, 5 runs each, H100 host 2026-12-06):
# 16 idle cores: (c) 0.68-0.71, (d) 0.47-0.60, the serial control (all-reduces after backward) 0.00; the same
# host held to 2 cores: (c) 0.26-0.51, (d) 0.42-0.68, serial 0.00. Waiting for every handle halfway through
# backward measured 0.10 (tester, issue 33): 0.20 lies above that and below every reference run. A machine whose
# other programs keep over half the cores busy is 'cannot measure here' (grading/measurable.py), not graded.
THRESHOLD = 0.2


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


def ideal_schedule(rep, baseline) -> tuple[list, list]:
    """(all-reduce intervals, backward windows) had each started the moment its gradients were ready, one at a time."""
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
    """A call without async_op, or a wait, during backward: blocking the learner wrote (not a busy machine's)."""
    return any(any(not c.get('async') and c['start'] < step['backward_end'] for c in step['calls'])
               or any(w[0] < step['backward_end'] for w in step['waits']) for rep in case for step in rep['steps'])


def overlap(case, baselines, required: bool) -> object:
    """Of the learner's all-reduce time, the share backward was computing beside it, both processes pooled."""
    shared = total = early_time = early_blocked = ideal_inside = ideal_total = 0.0
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
    # predicted: each all-reduce given its time alone here, started once its gradients were ready (ideal_schedule)
    fields = dict(measured=min(1.0, shared / total) if total > 0 else 0.0, threshold=THRESHOLD,
                  predicted=min(1.0, ideal_inside / ideal_total) if ideal_total > 0 else 0.0)
    if not required:
        return criterion('overlap', True, 'task.allreduce.overlap_info', info=True, **fields)
    if fields['measured'] >= THRESHOLD:
        return criterion('overlap', True, 'task.allreduce.overlap', **fields)
    if early_time == 0:
        return criterion('overlap', False, 'task.allreduce.overlap_after', **fields)
    if early_blocked >= 0.5 * early_time and _blocked_by_the_learner(case):
        return criterion('overlap', False, 'task.allreduce.overlap_blocking', **fields)
    return criterion('overlap', False, 'task.allreduce.overlap_low', **fields)
