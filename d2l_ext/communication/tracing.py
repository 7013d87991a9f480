"""13.3.2's "Build it" setting and stopwatches, shared by the grader and the lesson: what a lane gets, and when each
product and copy ran (torch.profiler's kernels and copies on a GPU, timestamps in the thread that ran it on a CPU)."""
from __future__ import annotations

import ctypes
import json
import math
import os
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass

import torch

from ..results import Result

# The book's 4000 x 4000 products on a GPU. On a CPU a square product's copy is ~2% of its run: thin 700 x 4 by
# 4 x 700 products make copies 40-50% of run then copy (tools/measure_copy_setting.py).
SIZE = {'cpu': 700, 'gpu': 4000}
INNER = {'cpu': 4, 'gpu': 4000}
ITERS = {'cpu': 20, 'gpu': 10}


@dataclass
class Setting:
    """What one lane gets (13.3.2's task and lesson): n x n products with inner size `inner`, `iters` of them."""
    kind: str
    n: int
    inner: int
    iters: int


def setting(lane) -> Setting:
    """The book's products on a GPU; thin n x 4 by 4 x n ones on a CPU (the copies about a third of run then copy)."""
    return Setting(lane.kind, SIZE[lane.kind], INNER[lane.kind], ITERS[lane.kind])


# glibc's mallopt parameters (malloc.h): above MMAP_THRESHOLD a block gets pages of its own, and free
# memory at the heap's top beyond TRIM_THRESHOLD goes back to the system.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3


def keep_freed_memory() -> bool:
    """Keep freed host memory in this process, as PyTorch's GPU allocator keeps its blocks; whether glibc took it.

    Else a run that keeps its products takes every page afresh (19,500 faults per 20 products of 1000 x 1000 against
    4,000), and those faults, not overlap, made overlapped look 62% faster (2-9% with this setting).
    """
    global _kept
    if _kept is None:
        try:
            mallopt = ctypes.CDLL(None).mallopt
            _kept = bool(mallopt(M_MMAP_THRESHOLD, 32 << 20)) and bool(mallopt(M_TRIM_THRESHOLD, 1 << 30))
        except (AttributeError, OSError, TypeError):
            _kept = False
    return _kept


_kept: bool | None = None


def operands(lane, seed: int = 0):
    """(x, w) on the lane (w is x for the book's square products); on a CPU it also calls keep_freed_memory."""
    s = setting(lane)
    if lane.kind == 'cpu':
        keep_freed_memory()
    gen = torch.Generator().manual_seed(seed)
    x = torch.rand(s.n, s.inner, generator=gen).to(lane.device())
    w = x if s.inner == s.n else torch.rand(s.inner, s.n, generator=gen).to(lane.device())
    return x, w


def host_buffers(lane, count: int | None = None) -> list:
    """Preallocated host buffers for the products (page-locked on a GPU, once), filled with NaN."""
    s = setting(lane)
    return [torch.full((s.n, s.n), math.nan, pin_memory=s.kind == 'gpu') for _ in range(count or s.iters)]


def reference(x, w):
    """x @ w in float64, on the host: what every buffer must hold."""
    return (x.double() @ w.double()).cpu()

PRODUCT_OPS = frozenset({'mm', 'matmul', '__matmul__', '__rmatmul__', 'addmm'})
COPY_OPS = frozenset({'copy_', 'clone', 'to', 'cpu', '__setitem__', 'contiguous'})


class Timed(torch.Tensor):
    """CPU operands that note when each product and copy ran, in any thread (the CPU stopwatch): every operation on
    them passes through __torch_function__ in its thread, and runs synchronously, so the time around it is when."""
    log: list | None = None

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        start = time.perf_counter()
        out = super().__torch_function__(func, types, args, kwargs or {})
        end = time.perf_counter()
        name = getattr(func, '__name__', '')
        role = 'compute' if name in PRODUCT_OPS else 'copy' if name in COPY_OPS else None
        log = cls.log
        if role and log is not None:
            log.append((role, start, end, threading.get_ident()))
        return out


def _events(rows) -> list[dict]:
    """(role, row, start, end) tuples as timeline events in order of start, numbered per role ('mm 1', 'copy_ 1')."""
    count, out = {'compute': 0, 'copy': 0}, []
    for role, row, s, e in sorted(rows, key=lambda r: r[2]):
        count[role] += 1
        out.append({'lane': row, 'name': f"{'mm' if role == 'compute' else 'copy_'} {count[role]}", 'start': s,
                    'end': e, 'role': role})
    return out


def events_from_log(log) -> list[dict]:
    """The CPU stopwatch's notes as timeline events: a row per thread role, times from the first note."""
    t0 = min((s for _, s, _, _ in log), default=0.0)
    return _events([(role, f'{role} thread', s - t0, e - t0) for role, s, e, _ in log])


def events_from_trace(trace_events) -> list[dict]:
    """torch.profiler's Chrome-trace events as timeline events (seconds from the first, the GPU's clock): kernels are
    compute, device-to-host copies copies (on the compute stream's row when on the kernels' stream)."""
    kept = [e for e in trace_events if e.get('ph') == 'X' and 'dur' in e and 'ts' in e
            and (e.get('cat') == 'kernel' or (e.get('cat') == 'gpu_memcpy' and 'DtoH' in e.get('name', '')))]
    t0 = min((float(e['ts']) for e in kept), default=0.0)
    streams = {e.get('args', {}).get('stream') for e in kept if e.get('cat') == 'kernel'}
    rows = []
    for e in kept:
        role, start = 'compute' if e['cat'] == 'kernel' else 'copy', (float(e['ts']) - t0) / 1e6
        own_stream = role == 'copy' and e.get('args', {}).get('stream') not in streams
        rows.append((role, 'copy stream' if own_stream else 'compute stream', start, start + float(e['dur']) / 1e6))
    return _events(rows)


def _profiled(call, device):
    """Run call() under torch.profiler, wait for `device`: (its value, the trace's events, the wall time of the call
    and its GPU work only, without the profiler's start or the trace's export)."""
    from torch.profiler import ProfilerActivity, profile

    from ..profiling import no_profiler_chatter
    with tempfile.TemporaryDirectory() as folder, warnings.catch_warnings():
        # Noise: torch.profiler warns once per process that it "clears events at the end of each cycle";
        # this profile has one cycle, and the trace below holds every event of it.
        warnings.filterwarnings('ignore', message='Warning: Profiler clears events', category=UserWarning)
        path = os.path.join(folder, 'trace.json')
        with no_profiler_chatter(), profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            torch.cuda.synchronize(device)
            start = time.perf_counter()
            value = call()
            torch.cuda.synchronize(device)  # the lane's GPU: a bare synchronize() waits for the current one only
            wall = time.perf_counter() - start
        prof.export_chrome_trace(path)
        with open(path, encoding='utf-8') as f:
            return value, json.load(f).get('traceEvents', []), wall


def traced_run(fn, lane, seed: int = 1) -> dict:
    """Call fn(x, w, buffers, lane) once with the stopwatch on: {'value', 'buffers', 'events', 'wall' (the call
    alone), 'cores'} (on a CPU the process's CPU time over the wall clock: near 1 when other programs left the copy
    thread no core; None on a GPU)."""
    (x, w), buffers = operands(lane, seed), host_buffers(lane)
    if lane.kind == 'gpu':
        torch.cuda.synchronize(lane.device())
        value, trace, wall = _profiled(lambda: fn(x, w, buffers, lane), lane.device())
        return dict(value=value, buffers=buffers, events=events_from_trace(trace), wall=wall, cores=None)
    Timed.log = log = []
    try:
        before = set(threading.enumerate())
        cpu, start = time.process_time(), time.perf_counter()
        value = fn(x.as_subclass(Timed), w.as_subclass(Timed), buffers, lane)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        finish(before, lane=lane)
    finally:
        Timed.log = None
    return dict(value=value, buffers=buffers, events=events_from_log(list(log)), wall=wall,
                cores=cpu / wall if wall > 0 else None)


@dataclass
class CommTimeline(Result):
    """When each product and each copy ran, one row per stream (GPU) or thread (CPU analogue)."""
    area = 'communication'
    plan: str
    lane: str  # the lane's name ('cuda:0', 'cpu0'): display translates it
    size: int
    iters: int
    events: list[dict]
    clock: str  # 'cuda events' or 'thread clock'
    inner: int | None = None  # the products' inner size (size x inner times inner x size); None: square
    experiment: str = 'comm-timeline'

    def table_rows(self):
        return [dict(lane=e['lane'], variant=e['name'], start=e['start'], end=e['end']) for e in self.events]


def finish(before, timeout: float = 30.0, lane=None) -> None:
    """Wait for everything a call left running, threads up to `timeout` each: the lane's own GPU (whichever is
    current), or without a lane every GPU PyTorch started."""
    if lane is not None and lane.kind == 'gpu':
        torch.cuda.synchronize(lane.device())
    elif lane is None and torch.cuda.is_available() and torch.cuda.is_initialized():
        for i in range(torch.cuda.device_count()):
            torch.cuda.synchronize(i)
    for t in set(threading.enumerate()) - before:
        t.join(timeout)
