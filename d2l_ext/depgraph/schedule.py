"""A tiny scheduler for dependency graphs (13.3): serial time, critical path, list scheduling. A task has a cost in
seconds, a resource that runs one task at a time ('cpu', 'link:gpu0->cpu', ...) and the tasks it waits for; plain
Python arithmetic, so the totals are the same floats on every machine."""

from dataclasses import dataclass

from .. import i18n
from ..errors import UsageError


@dataclass(frozen=True)
class Task:
    """One unit of work for the scheduler."""
    name: str
    cost: float
    resource: str
    deps: tuple = ()


def _as_tasks(tasks):
    """Accept Task objects or dicts with the same keys; check names and dependencies."""
    out = []
    for t in tasks:
        t = Task(t['name'], float(t['cost']), t['resource'], tuple(t.get('deps', ()))) if isinstance(t, dict) else Task(
            t.name, float(t.cost), t.resource, tuple(t.deps))
        if t.cost < 0:
            raise UsageError(i18n.t('graph.err.negative_cost', task=repr(t.name), cost=t.cost))
        out.append(t)
    names = [t.name for t in out]
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise UsageError(i18n.t('graph.err.repeated', names=dup))
    known = set(names)
    for t in out:
        missing = [d for d in t.deps if d not in known]
        if missing:
            raise UsageError(i18n.t('graph.err.unknown_deps', task=repr(t.name), missing=missing))
    return out


def _topological(tasks):
    """Tasks in dependency order; among ready tasks the one listed first goes first."""
    index = {t.name: i for i, t in enumerate(tasks)}
    waiting = {t.name: len(set(t.deps)) for t in tasks}
    users = {t.name: [] for t in tasks}
    for t in tasks:
        for d in set(t.deps):
            users[d].append(t.name)
    ready = sorted((index[n] for n, k in waiting.items() if k == 0))
    order = []
    while ready:
        i = ready.pop(0)
        order.append(tasks[i])
        for u in users[tasks[i].name]:
            waiting[u] -= 1
            if waiting[u] == 0:
                ready.append(index[u])
                ready.sort()
    if len(order) != len(tasks):
        raise UsageError(i18n.t('graph.err.cycle', stuck=[t.name for t in tasks if waiting[t.name] > 0]))
    return order


def serial_total(tasks):
    """Time to run every task one after another on a single resource."""
    return sum(t.cost for t in _as_tasks(tasks))


def critical_path(tasks):
    """Longest chain of dependent tasks -> (length_s, [names]): the time with unlimited devices, which no schedule
    beats. Ties go to the task listed first."""
    tasks = _as_tasks(tasks)
    finish, via = {}, {}
    for t in _topological(tasks):
        best = max(t.deps, key=finish.__getitem__, default=None)  # the latest finish; ties: the first listed
        finish[t.name] = t.cost + (finish[best] if best is not None else 0.0)
        via[t.name] = best
    if not tasks:
        return 0.0, []
    end = max(tasks, key=lambda t: finish[t.name]).name  # max() keeps the first of equals
    path = [end]
    while via[path[-1]] is not None:
        path.append(via[path[-1]])
    return finish[end], path[::-1]


def earliest_start_schedule(tasks):
    """Each task on its resource, started once its deps are done and the resource is free: the one that can start
    earliest is placed next (ties: the first listed), so a resource never goes back to fill a gap -> events
    {'lane', 'name', 'start', 'end'} in placement order."""
    tasks = _as_tasks(tasks)
    _topological(tasks)  # reject cycles before looping
    end, free, events = {}, {}, []
    pending = list(range(len(tasks)))
    while pending:
        best = None
        for i in pending:
            t = tasks[i]
            if any(d not in end for d in t.deps):
                continue
            ready = max((end[d] for d in t.deps), default=0.0)
            start = max(ready, free.get(t.resource, 0.0))
            if best is None or start < best[0]:
                best = (start, i)
        start, i = best
        t = tasks[i]
        end[t.name] = free[t.resource] = start + t.cost
        events.append({'lane': t.resource, 'name': t.name, 'start': start, 'end': end[t.name]})
        pending.remove(i)
    return events


def schedule_total(events):
    """Finish time of the last event (the makespan)."""
    return max((e['end'] for e in events), default=0.0)


def pipeline_model(compute_s, copy_s, iters, overlap):
    """13.3.2's model: K products, each followed by a copy of its result to the host -> {'events', 'total',
    'serial_total', 'ideal'}. overlap=False: one stream, product 1, copy 1, product 2, ...; overlap=True: a compute
    and a copy stream, copy i waiting for product i. ideal = max(K*compute, K*copy) + min(compute, copy), the lower
    bound (the last copy follows every product; no copy precedes the first product), which two streams reach.
    """
    if int(iters) != iters or iters < 1:
        raise UsageError(i18n.t('graph.err.iters', iters=repr(iters)))
    if compute_s < 0 or copy_s < 0:
        raise UsageError(i18n.t('graph.err.durations'))
    iters = int(iters)
    tasks, compute_lane, copy_lane = [], *(('compute stream', 'copy stream') if overlap else ('one stream',) * 2)
    for i in range(1, iters + 1):
        # A stream runs its work in order: each task waits for the previous one on it.
        prev_run = [f"{'product' if overlap else 'copy'} {i - 1}"] if i > 1 else []
        tasks.append(Task(f'product {i}', compute_s, compute_lane, tuple(prev_run)))
        prev_copy = [f'copy {i - 1}'] if overlap and i > 1 else []
        tasks.append(Task(f'copy {i}', copy_s, copy_lane, tuple([f'product {i}'] + prev_copy)))
    events = earliest_start_schedule(tasks)
    return {'events': events, 'total': schedule_total(events), 'serial_total': iters * (compute_s + copy_s),
            'ideal': max(iters * compute_s, iters * copy_s) + min(compute_s, copy_s)}


def bottom_levels(tasks, scale=1.0):
    """Longest chain from each task to the end, its own cost (times `scale`) included -> {name: seconds}: list
    scheduling's priority (a task with a long chain behind it should start early)."""
    tasks = _as_tasks(tasks)
    users = {t.name: [] for t in tasks}
    for t in tasks:
        for d in dict.fromkeys(t.deps):
            users[d].append(t.name)
    level = {}
    for t in reversed(_topological(tasks)):
        level[t.name] = t.cost * scale + max((level[u] for u in users[t.name]), default=0.0)
    return level


def list_schedule(tasks, resources, speed=None, copy_s=0.0, pinned=None):
    """Place tasks on the resources as a planner would (13.3.3 exercise 5) -> events in placement order.

    A task's own `resource` is ignored. Among the tasks whose deps are placed, the one with the longest chain behind
    it (ties: the first listed) goes where it would FINISH earliest (ties: the first resource): HEFT without its
    gap-filling. speed: {resource: factor} (a task takes cost / factor there); copy_s: seconds added to an edge whose
    ends are on different resources; pinned: {task name: resource} fixed in advance.
    """
    tasks = _as_tasks(tasks)
    resources = list(resources)
    if not resources:
        raise UsageError(i18n.t('graph.err.no_resource'))
    speed = {r: 1.0 for r in resources} if speed is None else dict(speed)
    missing = [r for r in resources if r not in speed]
    if missing or any(speed[r] <= 0 for r in resources):
        raise UsageError(i18n.t('graph.err.speed', check=missing or speed))
    pinned = dict(pinned or {})
    stray = {n: r for n, r in pinned.items() if r not in resources}
    if stray:
        raise UsageError(i18n.t('graph.err.pinned', stray=stray))
    mean_slowness = sum(1.0 / speed[r] for r in resources) / len(resources)
    level = bottom_levels(tasks, mean_slowness)
    placed, free, events = {}, {r: 0.0 for r in resources}, []
    pending = list(range(len(tasks)))
    while pending:
        # bottom_levels rejected cycles, so some task is always ready here.
        ready = [i for i in pending if all(d in placed for d in tasks[i].deps)]
        i = max(ready, key=lambda k: (level[tasks[k].name], -k))
        t = tasks[i]
        best = None
        for r in [pinned[t.name]] if t.name in pinned else resources:
            arrive = max((placed[d][2] + (copy_s if placed[d][0] != r else 0.0) for d in t.deps), default=0.0)
            start = max(arrive, free[r])
            end = start + t.cost / speed[r]
            if best is None or end < best[2]:
                best = (r, start, end)
        placed[t.name], free[best[0]] = best, best[2]
        events.append({'lane': best[0], 'name': t.name, 'start': best[1], 'end': best[2]})
        pending.remove(i)
    return events
