"""When each half of 13.3.3's step ran: the instrumentation the recordings and the grader share.

`LaneRecorder.lane_step` stands in for model.lane_step and records each half: its rows, devices, thread and
thread count, and when it ran (host timestamps in the half's own thread, or CUDA events on its GPU, put on the
host clock with `gpu_zero`). `with_names` remakes a step function with some of its global names replaced, so a
recording never touches the step's own module.
"""
from __future__ import annotations

import threading
import time
import types

import torch

from ..overlap import busy, overlap_fraction
from . import model

PREDICTED = 1.0  # halves started together: the shorter one runs its whole busy time inside the longer one's
INSIDE = threading.local()  # .on while a half runs (a grader watching the server skips the lanes' operations)


def with_names(fn, **names):
    """A copy of `fn` whose global names are its module's, with `names` replacing some (e.g. lane_step=...)."""
    namespace = dict(fn.__globals__, **names)
    return types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__, fn.__closure__)


class LaneRecorder:
    """A `lane_step` that records each half: index, rows, devices, thread, thread count, when it ran."""

    def __init__(self):
        self.calls: list[dict] = []
        self._lock = threading.Lock()

    def lane_step(self, i, params, X, y, n_total):
        tensors = [X, y, *params.values()] if isinstance(params, dict) else [X, y]
        rec = {'i': i, 'rows': int(X.shape[0]), 'devices': sorted({str(v.device) for v in tensors}),
               'thread': threading.current_thread().name, 'threads': torch.get_num_threads()}
        gpu = X.is_cuda
        if gpu:
            rec['events'] = (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
            with torch.cuda.device(X.device):  # on the half's own GPU, whichever is current in this thread
                rec['events'][0].record()
        else:
            rec['start'] = time.perf_counter()
        INSIDE.on = True
        try:
            out = model.lane_step(i, params, X, y, n_total)
        finally:
            INSIDE.on = False
        if gpu:
            with torch.cuda.device(X.device):
                rec['events'][1].record()
        else:
            rec['end'] = time.perf_counter()
        with self._lock:
            self.calls.append(rec)
        return out

    def intervals(self, zero) -> list[tuple[float, float]]:
        """Each half's (start, end) on the host clock; GPU halves from their CUDA events (`zero` from gpu_zero)."""
        out = []
        for rec in self.calls:
            if 'events' in rec:
                ev, host = zero[torch.device(rec['devices'][0]).index or 0]
                a, b = rec['events']
                out.append((host + ev.elapsed_time(a) / 1e3, host + ev.elapsed_time(b) / 1e3))
            else:
                out.append((rec['start'], rec['end']))
        return out


def gpu_zero(lanes) -> dict:
    """{GPU index: (an event, the host clock when it completed)}: GPU event times on the host clock."""
    zero = {}
    for g in sorted({lane.index for lane in lanes if lane.kind == 'gpu'}):
        with torch.cuda.device(g):
            ev = torch.cuda.Event(enable_timing=True)
            ev.record()
            torch.cuda.synchronize(g)
            zero[g] = (ev, time.perf_counter())
    return zero


def half_overlap(intervals) -> float | None:
    """Of the shorter half's busy time, the fraction during which the other half was busy too (in [0, 1])."""
    a, b = sorted(intervals, key=lambda iv: busy([iv]))
    return overlap_fraction([a], [b])
