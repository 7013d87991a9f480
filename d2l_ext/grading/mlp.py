"""13.3.3's "Build it" task '13.3.3-mlp': the learner's mlp_step, graded for correctness, placement and overlap.

Four SGD steps, each on a new minibatch from the weights the last one returned, each update checked against one
float64 device on the whole minibatch. The grader's `lane_step` records where and when each half ran, so placement
and overlap are judged from the learner's own run, never from a wall-clock threshold.
"""
from __future__ import annotations

import contextlib
import statistics
import threading
import time

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from ..backends.torch_backend import run_on_lanes
from ..depgraph import model
from ..depgraph.halves import INSIDE, PREDICTED, LaneRecorder, gpu_zero, half_overlap
from ..depgraph.model import PARAM_NAMES, SERVER, lane_step
from ..depgraph.tracer import stage
from ..timing import wait_for_lanes
from .core import Task, call_learner, criterion

STEPS = 4  # the first also warms up threads and libraries: placement and overlap from the other three
# where none of the three overlapped (CI's busy 2-core machine, stop 46), up to this many more, each checked, until
EXTRA_STEPS = 4  # one does: halves run in turn overlap in none, so no extra step passes them
BATCH = 1024  # rows per graded step: a half of ~30 ms on one busy core still overlaps a thread woken a few ms late
UPDATE_TOLERANCE = 1e-3  # relative error allowed in each step's update (see grade)
LR = 0.5  # the grader's learning rate: large enough that a step on stale weights is far outside the tolerance
GPU_WAIT_S = 0.02  # each GPU half begins with this wait, so that its overlap can be seen (halves.gpu_wait)
THRESHOLD = 0.5  # the shorter half must have run at least half of its busy time beside the other
SLOW_FLOPS = 3e9  # a pessimistic rate per CPU thread (the budget must hold on a busy old laptop)


# -- what the grader records while the learner's step runs ------------------------------------------

class ServerOps(TorchDispatchMode):
    """The devices of the arithmetic this thread ran outside the halves (the sum and the update)."""

    def __init__(self):
        super().__init__()
        self.devices: set[str] = set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        name = func.overloadpacket.__name__
        if not getattr(INSIDE, 'on', False) and name in ('add', 'sub', 'mul', 'div', 'add_', 'sub_', 'mul_'):
            if isinstance(out, torch.Tensor):
                self.devices.add(str(out.device))
        return out


def recorded_step(fn, lanes, params, X, y, lr, watch_server=False, gpu_wait_s=0.0) -> dict:
    """Call a step whose `lane_step` is a LaneRecorder's (`fn.__globals__`: its own) -> {'ok', 'out' (the weights or
    the 'runs' criterion), 'calls', 'intervals', 'wall', 'server'}; a GPU half first waits gpu_wait_s."""
    rec = LaneRecorder(gpu_wait_s)
    fn.__globals__['lane_step'] = rec.lane_step
    zero = gpu_zero(lanes)
    ops = ServerOps() if watch_server else None
    t0 = time.perf_counter()
    with ops if ops is not None else contextlib.nullcontext():
        ok, out = call_learner(fn, lanes, params, X, y, lr)
    wait_for_lanes(lanes)
    wall = time.perf_counter() - t0
    intervals = rec.intervals(zero) if ok else []
    return {'ok': ok, 'out': out, 'calls': rec.calls, 'intervals': intervals, 'wall': wall,
            'server': sorted(ops.devices) if ops is not None else []}


# -- the grader ------------------------------------------------------------------------------------

def graded_lanes():
    """This machine's two lanes (find_lanes): two GPUs, a GPU and the CPU, or two shares of the CPU's cores."""
    from ..lanes import find_lanes
    return find_lanes('torch')


def minibatches(steps=STEPS, batch=BATCH):
    """The starting weights and one (X, y) per step, the same numbers on every machine."""
    params, X, y = model.make_problem(**dict(model.DEFAULT_SIZES, batch=batch))
    batches = [(X, y)] + [model.make_problem(X.shape[0], seed=s)[1:] for s in range(1, steps)]
    return params, batches


def _overlapped(run) -> bool:
    return len(run['intervals']) == 2 and (half_overlap(run['intervals']) or 0.0) >= THRESHOLD


def _weights(out, params) -> tuple[str, dict] | None:
    """None when out is a dict of the four weights with their shapes, else (key, fields) saying what is wrong."""
    if not isinstance(out, dict) or set(out) != set(PARAM_NAMES):
        got = sorted(out) if isinstance(out, dict) else type(out).__name__
        return 'task.mlp.not_weights', {'got': got}
    for k in PARAM_NAMES:
        if not isinstance(out[k], torch.Tensor) or tuple(out[k].shape) != tuple(params[k].shape):
            got = tuple(out[k].shape) if isinstance(out[k], torch.Tensor) else type(out[k]).__name__
            return 'task.mlp.shape', {'name': k, 'got': got, 'want': tuple(params[k].shape)}
    return None


def update_error(new, old, X, y, lr) -> tuple[float, float]:
    """(relative error, scale) of the update new - old against one float64 device's step on the whole minibatch; scale
    is the least-squares factor between the two (1.00 right; 0.50 or 2.00: halves averaged or counted twice)."""
    reference, _ = model.reference_step(old, X, y, lr)
    got, want = (torch.cat([(d[k].detach().cpu().double() - old[k].double()).flatten() for k in PARAM_NAMES])
                 for d in (new, reference))
    err = ((got - want).norm() / want.norm()).item()
    return err, (got @ want / (want @ want)).item()


def _placement(calls, lanes, batch) -> tuple[str, dict] | None:
    """None when half i ran on lane i (its device; a CPU lane's own thread with its share of the cores)."""
    if len(calls) != 2:
        return 'task.mlp.calls', {'calls': len(calls)}
    if sum(c['rows'] for c in calls) != batch:
        return 'task.mlp.rows', {'rows': ' + '.join(str(c['rows']) for c in calls), 'batch': batch}
    problems = []
    for order in (calls, calls[::-1]):  # the halves may be recorded in either order
        found = None
        for i, (lane, c) in enumerate(zip(lanes, order)):
            want = str(lane.device())
            if c['devices'] != [want]:
                found = found or ('task.mlp.device', {'lane': i, 'got': ', '.join(c['devices']), 'want': want})
            elif lane.kind == 'cpu' and c['threads'] != lane.threads:
                found = found or ('task.mlp.threads', {'lane': i, 'got': c['threads'], 'want': lane.threads})
        cpu = [c for lane, c in zip(lanes, order) if lane.kind == 'cpu']
        if found is None and len(cpu) == 2 and cpu[0]['thread'] == cpu[1]['thread']:
            found = ('task.mlp.same_thread', {'thread': cpu[0]['thread']})
        if found is None:
            return None
        problems.append(found)
    return problems[0]


def grade(submission) -> list:
    """'runs', 'correct', 'placement', 'overlap' for the learner's mlp_step, on this machine's two lanes."""
    fn = submission.functions['mlp_step']
    lanes = graded_lanes()
    params, batches = minibatches(STEPS + EXTRA_STEPS)  # the extra ones used only where needed (EXTRA_STEPS)
    start, batch = params, batches[0][0].shape[0]
    runs, errors = [], []
    for k, (X, y) in enumerate(batches):
        if k >= STEPS and any(_overlapped(r) for r in runs[1:]):
            break
        if k >= STEPS:  # an extra step starts again from the first weights (at LR, more steps would diverge)
            params = start
        r = recorded_step(fn, lanes, {n: v.clone() for n, v in params.items()}, X, y, LR, watch_server=k == 0,
                          gpu_wait_s=GPU_WAIT_S)
        if not r['ok']:
            return [r['out']]
        problem = _weights(r['out'], params)
        if problem:
            return [criterion('runs', True, 'task.mlp.ran', steps=k + 1),
                    criterion('correct', False, problem[0], **problem[1])]
        errors.append(update_error(r['out'], params, X, y, LR))
        runs.append(r)
        params = {n: r['out'][n].detach().cpu().clone() for n in PARAM_NAMES}  # the next step starts from these
    out = [criterion('runs', True, 'task.mlp.ran', steps=len(runs))]
    from ..backends.torch_backend import tolerance
    # the update (new - old) is a difference, chained over the steps, and a GPU sums in another order than
    # the float64 reference: on an H200 the worked solution's error reached 1.7e-4 at step 4; every wrong
    # version the tests keep is above 1e-1
    tol = max(tolerance(), UPDATE_TOLERANCE)
    bad = next((k for k, (err, _) in enumerate(errors) if not err <= tol), None)
    if bad is None:
        out.append(criterion('correct', True, 'task.mlp.correct', error=max(e for e, _ in errors), tolerance=tol,
                             steps=len(errors)))
    else:
        out.append(criterion('correct', False, 'task.mlp.wrong', step=bad + 1, error=errors[bad][0], tolerance=tol,
                             scale=errors[bad][1]))
    out.append(_placement_criterion(runs, lanes, batch))
    waited = GPU_WAIT_S * 1e3 if any(lane.kind == 'gpu' for lane in lanes) else 0.0
    out.append(_overlap(runs[1:], batch, waited))  # the first step warms up: not counted
    return out


def _placement_criterion(runs, lanes, batch):
    where = {str(v.device) for v in runs[-1]['out'].values()}
    if where != {'cpu'}:
        return criterion('placement', False, 'task.mlp.result_device', got=', '.join(sorted(where)))
    elsewhere = [d for d in runs[0]['server'] if d != 'cpu']
    if elsewhere:
        return criterion('placement', False, 'task.mlp.server_device', got=', '.join(elsewhere))
    for r in runs:
        problem = _placement(r['calls'], lanes, batch)
        if problem:
            return criterion('placement', False, problem[0], **problem[1])
    names = ', '.join(f'{i}: {lane.label}' for i, lane in enumerate(lanes))
    return criterion('placement', True, 'task.mlp.placed', lanes=names)


def _overlap(runs, batch=BATCH, waited=0.0):
    """The graded steps' overlap (the best judged: a busy machine may start a thread late in any one step, while halves
    run in turn overlap in none), the median, the model, a step's wall clock in ms with the check's rows per step
    (and `waited`, the ms each GPU half began with: recorded_step)."""
    fractions = [half_overlap(r['intervals']) or 0.0 for r in runs if len(r['intervals']) == 2]
    if not fractions:
        return criterion('overlap', False, 'task.mlp.no_halves')
    measured = max(fractions)
    halves = [[b - a for a, b in r['intervals']] for r in runs if len(r['intervals']) == 2]
    key = 'task.mlp.overlap_waited' if waited else 'task.mlp.overlap'
    return criterion('overlap', measured >= THRESHOLD, key, measured=measured, predicted=PREDICTED, waited=waited,
                     median=statistics.median(fractions), steps=len(fractions),
                     threshold=THRESHOLD, wall=statistics.median(r['wall'] for r in runs) * 1e3,
                     serial=statistics.median(sum(h) for h in halves) * 1e3,
                     longest=statistics.median(max(h) for h in halves) * 1e3, batch=batch, warmup=1,
                     repeats=[r['wall'] for r in runs])


def budget_s() -> float:
    """Seconds the grading may take: start-up and imports, then STEPS + EXTRA_STEPS steps and their float64
    references, 4 steps' arithmetic each at the pessimistic rate (forward and backward: about 3 products per layer)."""
    s = model.DEFAULT_SIZES
    flops = 4 * 6 * BATCH * (s['d_in'] * s['hidden'] + s['hidden'] * s['d_out'])
    return 60.0 + (STEPS + EXTRA_STEPS) * flops / SLOW_FLOPS


def namespace() -> dict:
    """Names the learner's function may use without importing them, as in the lesson's cells."""
    return {'torch': torch, 'lane_step': lane_step, 'run_on_lanes': run_on_lanes, 'wait_for_lanes': wait_for_lanes,
            'stage': stage, 'SERVER': SERVER, 'threading': threading}


TASK = Task(id='13.3.3-mlp', section='13.3.3', functions=('mlp_step',),
            signatures={'mlp_step': 'mlp_step(lanes, params, X, y, lr)'}, description_key='task.mlp.description',
            grade=grade, budget_s=budget_s, namespace=namespace)
