"""13.3.2's "Build it" task '13.3.2-copy': products on a lane, each copied to host memory while the next one computes.

Correct: every buffer (host memory, pinned on a GPU, NaN-filled) holds x @ w (float64). Safe: read the moment the
function returns. Overlap: from the intervals of the learner's own calls (the profiler's kernels and copies on a
GPU, each product's and copy's timestamps on a CPU), beside the closed-form model.
"""
from __future__ import annotations

import contextlib
import ctypes
import math
import queue
import sys
import threading
import time

import torch

from ..communication.copying import Kind, run_and_copy  # the worked solution: the technique's one home
from ..communication.core import copy_overlap
from ..communication.tracing import finish, host_buffers, operands, reference, setting, traced_run
from .core import Task, call_learner, criterion

__all__ = ['TASK', 'grade', 'host_buffers', 'operands', 'reference', 'run_and_copy']  # tools/measure_copy_setting
SPAN = 4096  # bytes read from each of a few places in every buffer at return
TIMED_RUNS = 3  # traced calls: the median's overlap is judged, their wall clocks' spread checked (measurable.SPREAD)
THRESHOLD = 0.5  # the copies must overlap products for at least half the predicted fraction
SIM_SIZE, SIM_ITEMS = 64, 6  # the simulated GPU's x, w (SIM_SIZE square) and buffers: its order matters, not its size
SLOW_FLOPS = 3e9  # a pessimistic rate per CPU thread (the time bound must hold on a busy old laptop)

def _poison(lane) -> None:
    """On a GPU, leave NaN in the free blocks the products will reuse: a copy that runs before its product reads NaN."""
    if lane.kind == 'gpu':
        s = setting(lane)
        [torch.full((s.n, s.n), math.nan, device=lane.device()) for _ in range(s.iters)]  # made, then freed
        torch.cuda.synchronize(lane.device())  # the lane's GPU, not whichever is current


def _offsets(nbytes: int) -> list[int]:
    """Where to read a buffer at return: its start, quarters and end (a copy in flight misses one of them)."""
    last = max(0, nbytes - SPAN)
    return sorted({min(last, nbytes * q // 4 // 4 * 4) for q in range(4)} | {last})


def snapshot(buffers) -> list[list[tuple[int, bytes]]]:
    """A few spans of every buffer, last buffer first, read with the GIL held (ctypes.string_at):
    no thread the learner's code left running can take a turn while this reads."""
    out = [None] * len(buffers)
    for i in reversed(range(len(buffers))):
        b = buffers[i]
        nbytes = b.numel() * b.element_size()
        out[i] = [(off, ctypes.string_at(b.data_ptr() + off, min(SPAN, nbytes - off))) for off in _offsets(nbytes)]
    return out


def spans_wrong(spans, ref, tol: float) -> int | None:
    """The first buffer whose spans read at return differ from the reference (NaN: not written yet), or None."""
    flat = ref.reshape(-1).float()
    for i, pieces in enumerate(spans):
        for off, raw in pieces:
            got = torch.frombuffer(bytearray(raw), dtype=torch.float32).double()
            want = flat[off // 4: off // 4 + got.numel()].double()
            err = (got - want).norm().item() / max(want.norm().item(), 1e-30)
            if not err <= tol:
                return i
    return None


def _results_problem(value, buffers, ref, tol: float):
    """None when fn returned the buffers, each holding x @ w; else (key, fields) saying what is wrong."""
    if not isinstance(value, (list, tuple)) or len(value) != len(buffers):
        got = len(value) if isinstance(value, (list, tuple)) else type(value).__name__
        return 'task.copy.count', dict(got=got, buffers=len(buffers))
    for i, (v, b) in enumerate(zip(value, buffers)):
        if not isinstance(v, torch.Tensor) or v.device.type != 'cpu' or v.data_ptr() != b.data_ptr():
            return 'task.copy.not_buffer', dict(index=i)
    from ..checking import relative_error
    for i, b in enumerate(buffers):
        err = relative_error(b, ref)
        if not err <= tol:
            return 'task.copy.wrong', dict(index=i, error=err, tolerance=tol)
    return None


def grade(submission) -> list:
    """'runs', 'correct', 'safe', 'overlap' for the learner's run_and_copy on this machine's first lane, 'streams' for
    its GPU branch on a simulated GPU."""
    from ..backends.torch_backend import tolerance
    from ..checking import relative_error
    fn = submission.functions['run_and_copy']
    from ..lanes import find_lanes
    lane = find_lanes('torch')[0]  # the first GPU if there is one, else the first share of the CPU's cores
    if lane.kind == 'gpu':
        torch.cuda.set_device(lane.index)
    tol = tolerance()
    # 1. a first call (it also warms up threads, streams and pinned memory): runs and correct
    x, w = operands(lane, 0)
    buffers, ref = host_buffers(lane), reference(x, w)
    _poison(lane)
    before = set(threading.enumerate())
    ok, value = call_learner(fn, x, w, list(buffers), lane)  # a copy of the list: ours stays as it was
    finish(before, wait_s(), lane)
    if not ok:
        return [value]
    out = [criterion('runs', True, 'task.copy.ran')]
    problem = _results_problem(value, buffers, ref, tol)
    if problem:
        return out + [criterion('correct', False, problem[0], **problem[1])]
    out.append(criterion('correct', True, 'task.copy.correct', error=max(relative_error(b, ref) for b in buffers),
                         tolerance=tol))
    # 2. read at return: new operands (stale results cannot pass), NaN in every buffer
    x, w = operands(lane, 1)
    buffers, ref = host_buffers(lane), reference(x, w)
    _poison(lane)
    out.append(_safety(fn, lane, x, w, buffers, ref, tol))
    # 3. overlap, from the intervals of the median of three more calls
    runs = [traced_run(fn, lane, seed=1) for _ in range(TIMED_RUNS)]
    out.append(_overlap(runs))
    out.append(streams(fn, tol))  # 4. the GPU branch's order, on every machine
    return out


def streams(fn, tol: float):
    """The GPU branch replayed on a simulated GPU (simulated_gpu): every copy after its product, every buffer written
    before the host returns, copies beside products for at least THRESHOLD of the model's share."""
    from . import simulated_gpu as sim
    gen = torch.Generator().manual_seed(2)
    x, w = torch.rand(SIM_SIZE, SIM_SIZE, generator=gen), torch.rand(SIM_SIZE, SIM_SIZE, generator=gen)
    buffers, ref = [torch.full((SIM_SIZE, SIM_SIZE), math.nan) for _ in range(SIM_ITEMS)], reference(x, w)
    rep, value, failed = sim.graded(fn, x, w, list(buffers), sim.Lane())
    if failed:
        return failed
    if _results_problem(value, buffers, ref, tol):
        return criterion('streams', False, 'task.copy.sim_buffers')
    addresses = [b.untyped_storage().data_ptr() for b in buffers]
    early = [i for op in rep.early for i, a in enumerate(addresses) if a in op['writes']]
    if rep.early:
        return criterion('streams', False, 'task.copy.sim_early', index=min(early, default=0))
    late = [i for i, a in enumerate(addresses) if rep.written.get(a, 0.0) > rep.host]
    if late:
        return criterion('streams', False, 'task.copy.sim_unsafe', index=late[0])
    o = copy_overlap(rep.ops)
    if not o['copies'] or not o['products']:
        return criterion('streams', False, 'task.copy.sim_none')
    measured, needed = o['measured'] or 0.0, THRESHOLD * o['predicted']
    key = 'task.copy.sim_ok' if measured >= needed and measured > 0 else 'task.copy.sim_serial'
    return criterion('streams', key == 'task.copy.sim_ok', key, measured=measured, needed=needed)


def _safety(fn, lane, x, w, buffers, ref, tol: float):
    """Every buffer right at the moment the function returned."""
    before = set(threading.enumerate())
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1.0)  # this thread keeps the GIL from the return to the end of the snapshot
    try:
        ok, value = call_learner(fn, x, w, list(buffers), lane)
        held = snapshot(buffers) if ok else None
    finally:
        sys.setswitchinterval(switch)
    finish(before, wait_s(), lane)
    if not ok:
        return criterion('safe', False, 'task.copy.safe_raised')
    late = spans_wrong(held, ref, 10 * tol)
    if late is not None:
        return criterion('safe', False, 'task.copy.unsafe', index=late, buffers=len(buffers))
    return criterion('safe', True, 'task.copy.safe', buffers=len(buffers))


def _overlap(runs):
    """The median call's copy overlap with the products, beside the share needed and its wall clock."""
    runs = sorted(runs, key=lambda r: copy_overlap(r['events'])['measured'] or 0.0)
    o = copy_overlap(runs[len(runs) // 2]['events'])
    if not o['copies'] or not o['products']:
        return criterion('overlap', False, 'task.copy.no_intervals', copies=o['copies'], products=o['products'])
    measured, threshold = o['measured'] or 0.0, THRESHOLD * o['predicted']
    # the numbers as printed (4 places), so the sum is the reader's own arithmetic
    compute, copy, wall = (round(v, 4) for v in (o['compute_busy'], o['copy_busy'], runs[len(runs) // 2]['wall']))
    return criterion('overlap', measured >= threshold and measured > 0, 'task.copy.overlap', measured=measured,
                     model=o['predicted'], threshold=threshold, wall=wall, serial=round(compute + copy, 4),
                     compute=compute, copy=copy, repeats=[r['wall'] for r in runs])


def _slow_s() -> float:
    """One call's products at the pessimistic CPU rate (a GPU does them far faster)."""
    s = setting(Kind('cpu'))
    return s.iters * 2 * s.n * s.n * s.inner / SLOW_FLOPS


def wait_s() -> float:
    """How long threads an early return left running may take to end."""
    return 10.0 + 4 * _slow_s()


def budget_s() -> float:
    """Seconds grading may take: start-up and references, every call, threads left running, the profiler."""
    return 90.0 + (2 + TIMED_RUNS) * (2 * _slow_s() + wait_s())


def namespace() -> dict:
    """Names the learner's function may use without importing them, as in the lesson's cell."""
    return {'torch': torch, 'queue': queue, 'threading': threading, 'time': time, 'contextlib': contextlib}


TASK = Task(id='13.3.2-copy', section='13.3.2', functions=('run_and_copy',),
            signatures={'run_and_copy': 'run_and_copy(x, w, buffers, lane)'}, description_key='task.copy.description',
            grade=grade, budget_s=budget_s, namespace=namespace)
