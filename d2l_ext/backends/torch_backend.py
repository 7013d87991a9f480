"""The book's 13.3 workloads in PyTorch, and the one lane runner, run_together (13.3.1-13.3.3).

run_together(lanes, works) = start_together (a kept thread per CPU lane, GPU work queued after the CPU lanes
start) + a wait for every GPU by index; run_on_lanes is start_together, the callers wait. Their home for readers
and the grader is d2l_ext.parallel.together (13.3.1's technique); they are defined here, a layer below the
sections, because every section's measurements and the backend interface run them.
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import functools
from concurrent.futures import ThreadPoolExecutor

import torch

from ..frameworks import framework
from ..timing import clock, wait_for_lanes

# -- the book's `run` and `copy_to_cpu` (13.3.1, 13.3.2) -------------------------------------

def run(x, iters: int = 50):
    """K independent products x @ x, kept in a list, as the book's `run` (13.3.1)."""
    return [x.mm(x) for _ in range(iters)]


def copy_to_cpu(ys, non_blocking: bool = False):
    """The book's copy: a new host tensor per result (13.3.2)."""
    return [y.to('cpu', non_blocking=non_blocking) for y in ys]


def random_matrix(lane, n: int, seed: int = 0):
    """An n x n uniform matrix on a lane, the same numbers on every device (13.3.1)."""
    gen = torch.Generator().manual_seed(seed)
    return torch.rand(n, n, generator=gen).to(lane.device())


def tolerance() -> float:
    """Relative error allowed for fp32 products; TF32 (if switched on) rounds much coarser (its description)."""
    return framework('torch').tolerance()


def reference_product(x):
    """x @ x in float64 on x's device: the answer every timed product must match."""
    xd = x.double()
    return xd.mm(xd)


def wait(lanes) -> None:
    """Synchronize every GPU these lanes use, each by index (timing.wait_for_lanes is the one copy)."""
    wait_for_lanes(lanes)


def timeline_clock(lanes) -> str:
    """CUDA events on GPU lanes, thread timestamps on CPU lanes (lane_timeline, 13.3.1)."""
    return 'cuda events + thread clock' if any(lane.kind == 'gpu' for lane in lanes) else 'thread clock'


# -- lanes running at the same time (13.3.1) -----------------------------------------------

@contextlib.contextmanager
def intra_op_threads(n: int):
    """Set PyTorch's intra-op threads for a while and restore them (CPU lanes share the cores)."""
    old = torch.get_num_threads()
    if n and n != old:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        if torch.get_num_threads() != old:
            torch.set_num_threads(old)


@functools.cache
def lane_thread(name: str, threads: int) -> ThreadPoolExecutor:
    """A CPU lane's own thread, kept between calls: starting one costs about a millisecond (13.3.3's steps)."""
    return ThreadPoolExecutor(1, thread_name_prefix=f'd2l-lane-{name}')


def start_together(lanes, works, *, gpu_first=False):
    """Start works[i] on lanes[i], all at the same time; return their results (GPU work may still be queued)."""
    def on_cpu(lane, work):
        if torch.get_num_threads() != lane.threads:  # this thread's share of the cores (a per-thread setting)
            torch.set_num_threads(max(1, lane.threads))
        return work()

    def queue_gpu_work():  # a GPU only queues work, so this one thread feeds every GPU lane
        return {i: works[i]() for i, lane in enumerate(lanes) if lane.kind == 'gpu'}
    gpu = queue_gpu_work() if gpu_first else {}  # the wrong order, kept to show that a full GPU queue blocks
    cpu = {i: lane_thread(lane.name, lane.threads).submit(on_cpu, lane, works[i])
           for i, lane in enumerate(lanes) if lane.kind != 'gpu'}  # CPU lanes start first, each on its own thread ...
    try:
        if not gpu_first:
            gpu = queue_gpu_work()  # ... then GPU work is queued
    finally:
        concurrent.futures.wait(cpu.values())  # no CPU lane is left running unseen, even if queuing failed
    return [cpu[i].result() if i in cpu else gpu[i] for i in range(len(lanes))]


def run_together(lanes, works):
    """Run works[i] on lanes[i], all at the same time; return their results in order."""
    results = start_together(lanes, works)
    for lane in lanes:
        if lane.kind == 'gpu':
            torch.cuda.synchronize(lane.index)  # every GPU used, not only the current one
    return results


run_on_lanes = start_together  # the backend interface's name: the callers (measure, compare) wait for the lanes


class KeptTogether:
    """`KeptTogether(lanes, xs, iters)()`: lane i computes iters[i] products xs[i] @ xs[i], all lanes at once,
    and every call keeps when each product ran (13.3.0, 13.3.1).

    GPU lanes are timed with CUDA events (the GPU's own clock, from an event recorded at the start),
    CPU lanes with timestamps taken in their own thread; `events(k)` puts call k's on one axis from 0.
    Returns each lane's products, as run_on_lanes does; the caller waits for the lanes.
    """

    def __init__(self, lanes, xs, iters):
        self.lanes, self.xs, self.iters = list(lanes), list(xs), list(iters)
        self.calls: list[tuple] = []  # per call: (host start, GPU start events, CPU stamps, GPU events)

    def __call__(self):
        stamps, marks, zero = [], {}, {}
        for g in sorted({lane.index for lane in self.lanes if lane.kind == 'gpu'}):
            with torch.cuda.device(g):  # the GPU is idle here (the caller waited), so this marks the host start
                zero[g] = torch.cuda.Event(enable_timing=True)
                zero[g].record()
        t0 = clock()
        out = run_on_lanes(self.lanes, [self._job(i, stamps, marks) for i in range(len(self.lanes))])
        self.calls.append((t0, zero, stamps, marks))
        return out

    def _job(self, i: int, stamps: list, marks: dict):
        lane, x, k = self.lanes[i], self.xs[i], self.iters[i]
        if lane.kind == 'gpu':
            def job():
                ys, mine = [], []
                with torch.cuda.device(lane.index):
                    for j in range(k):
                        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                        a.record()
                        ys.append(x.mm(x))
                        b.record()
                        mine.append((j, a, b))
                marks[i] = mine
                return ys
        else:
            def job():  # in the lane's own thread: its timestamps are when this lane computed
                ys = []
                for j in range(k):
                    s = clock()
                    ys.append(x.mm(x))
                    stamps.append((lane.name, j, s, clock()))
                return ys
        return job

    def events(self, k: int = -1) -> list[dict]:
        """Call k's products as {'lane': lane id, 'name', 'start', 'end'} (seconds from its start); lanes waited for."""
        t0, zero, stamps, marks = self.calls[k]
        wait(self.lanes)
        events = [{'lane': name, 'name': f'mm {j + 1}', 'start': s - t0, 'end': e - t0} for name, j, s, e in stamps]
        for i, mine in marks.items():
            z = zero[self.lanes[i].index]
            events += [{'lane': self.lanes[i].name, 'name': f'mm {j + 1}', 'start': z.elapsed_time(a) / 1e3,
                        'end': z.elapsed_time(b) / 1e3} for j, a, b in mine]
        return sorted(events, key=lambda e: (e['lane'], e['start']))


def lane_timeline(lanes, xs, iters):
    """When each product ran on each lane, during one run of all lanes together (13.3.1, MXNet's twin)."""
    kept = KeptTogether(lanes, xs, iters)
    wait(lanes)
    kept()
    return kept.events()
