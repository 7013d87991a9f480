"""When each half of 13.3.3's step ran: one clock for the recordings and the grader (mark, on_host, gpu_zero), and
`LaneRecorder.lane_step`, which records each half's rows, devices, thread, thread count and interval."""
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


def mark(device: torch.device):
    """Now, on the device's clock: a CUDA event recorded on its current stream, or the host's perf_counter."""
    if device.type == 'cuda':
        ev = torch.cuda.Event(enable_timing=True)
        with torch.cuda.device(device):  # on that GPU, whichever is current in this thread
            ev.record()
        return device.index or 0, ev
    return time.perf_counter()


def on_host(when, zero) -> float:
    """A mark on the host clock; zero is gpu_zero's {GPU: (event, host time when it completed)}."""
    if isinstance(when, float):
        return when
    g, ev = when
    ev0, host = zero[g]
    return host + ev0.elapsed_time(ev) / 1e3


class LaneRecorder:
    """A `lane_step` that records each half: index, rows, devices, thread, thread count, when it ran."""

    def __init__(self, gpu_wait_s: float = 0.0):
        self.calls: list[dict] = []
        self._lock = threading.Lock()
        self.gpu_wait_s = gpu_wait_s  # each GPU half first keeps its GPU waiting this long (gpu_wait)

    def lane_step(self, i, params, X, y, n_total):
        tensors = [X, y, *params.values()] if isinstance(params, dict) else [X, y]
        rec = {'i': i, 'rows': int(X.shape[0]), 'devices': sorted({str(v.device) for v in tensors}),
               'thread': threading.current_thread().name, 'threads': torch.get_num_threads()}
        start = mark(X.device)
        if self.gpu_wait_s and X.device.type == 'cuda':
            gpu_wait(X.device, self.gpu_wait_s)
        INSIDE.on = True
        try:
            out = model.lane_step(i, params, X, y, n_total)
        finally:
            INSIDE.on = False
        rec['marks'] = (start, mark(X.device))
        with self._lock:
            self.calls.append(rec)
        return out

    def intervals(self, zero) -> list[tuple[float, float]]:
        """Each half's (start, end) on the host clock (`zero` from gpu_zero)."""
        return [(on_host(a, zero), on_host(b, zero)) for a, b in (rec['marks'] for rec in self.calls)]


_CYCLES: dict[int, float] = {}  # a GPU's torch.cuda._sleep cycles per second, measured once


def gpu_wait(device: torch.device, seconds: float):
    """Queue `seconds` of waiting on the device's stream: a GPU half then outlasts a CPU half's thread start."""
    g = device.index or 0
    with torch.cuda.device(g):
        if g not in _CYCLES:  # measured after a first sleep: that one also waits for the kernel's lazy loading
            torch.cuda._sleep(1000)
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            torch.cuda._sleep(10 ** 7)
            b.record()
            b.synchronize()
            _CYCLES[g] = 1e7 / (a.elapsed_time(b) / 1e3)
        torch.cuda._sleep(int(seconds * _CYCLES[g]))


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
