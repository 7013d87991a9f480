"""The book's 13.3 workloads in PyTorch, and THE lane runner (13.3.1, 13.3.2, 13.3.3)."""
from __future__ import annotations

import contextlib
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


# One long-lived thread per lane, made on first use: starting threads at every call costs about
# a millisecond (measured on a 2-core CPU), as long as a whole lane's share of a small training step.
_WORKERS: dict = {}


def lane_worker(lane) -> ThreadPoolExecutor:
    """The lane's own thread (13.3.1, 13.3.3): CPU lanes keep their thread count, GPU lanes their device."""
    key = (lane.kind, lane.index, lane.threads)
    if key not in _WORKERS:
        def setup():
            if lane.kind == 'gpu':
                torch.cuda.set_device(lane.index)  # a new thread has no current CUDA device
        _WORKERS[key] = ThreadPoolExecutor(1, thread_name_prefix=f'd2l-lane-{lane.name}', initializer=setup)
    return _WORKERS[key]


def _on_lane_thread(lane, job):
    def call():
        if torch.get_num_threads() != lane.threads:  # per thread: this lane's share of the cores
            torch.set_num_threads(max(1, lane.threads))
        return job()
    return lane_worker(lane).submit(call)


def run_on_lanes(lanes, jobs, *, gpu_first: bool = False):
    """Start jobs[i]() on lanes[i] all at once and return their results (13.3.1, 13.3.2, 13.3.3).

    A CPU lane runs synchronously, so each runs on its own Python thread (PyTorch releases the GIL
    inside mm, so two threads really use two cores). GPU lanes are queued from this thread, and
    only after the CPU lanes have started: the GPU's launch queue holds about a thousand kernels,
    and once it is full, queuing more blocks this thread until the GPU catches up. Queuing the GPU
    first would hold the CPU lanes back for that long; `gpu_first=True` keeps that order so the
    benchmark can show the difference. Wait for the lanes' devices before reading GPU results.
    """
    results = [None] * len(lanes)

    def queue_gpu_work():
        for i, lane in enumerate(lanes):
            if lane.asynchronous:
                results[i] = jobs[i]()

    if gpu_first:
        queue_gpu_work()
    futures = {i: _on_lane_thread(lane, jobs[i]) for i, lane in enumerate(lanes) if not lane.asynchronous}
    error = None
    try:
        if not gpu_first:
            queue_gpu_work()
    except Exception as e:  # raised below, once no CPU lane is left running unseen
        error = e
    for i, f in futures.items():
        try:
            results[i] = f.result()
        except Exception as e:
            error = error or e
    if error is not None:
        raise error
    return results


def on_lanes(lanes, *jobs):
    """`on_lanes(lanes, job1, job2)`: the notebooks' spelling of run_on_lanes (13.3.1)."""
    return run_on_lanes(lanes, list(jobs))


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
