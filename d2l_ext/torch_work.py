"""The book's 13.3 workloads in PyTorch: K products on a lane, and copies to host memory."""
from __future__ import annotations

import contextlib
import threading
import time

import torch

from .errors import ResultMismatch


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


# -- checking answers -----------------------------------------------------------------------

def tolerance() -> float:
    """Relative error allowed for fp32 products; TF32 (if switched on) rounds much coarser."""
    return 5e-3 if torch.backends.cuda.matmul.allow_tf32 else 1e-4


def reference_product(x):
    """x @ x in float64 on x's device: the answer every timed product must match."""
    xd = x.double()
    return xd.mm(xd)


def max_rel_error(ys, ref) -> float:
    """Largest ||y - ref|| / ||ref|| over the results, each moved to ref's device."""
    ref_norm = ref.norm().item()
    worst = 0.0
    for y in ys:
        y = y.to(ref.device, non_blocking=False).double()
        worst = max(worst, (y - ref).norm().item() / ref_norm)
    return worst


def check_products(ys, x, what: str = 'products') -> float:
    """Raise ResultMismatch if any result differs from x @ x; return the worst relative error."""
    err = max_rel_error(ys, reference_product(x))
    if not err <= tolerance():  # also catches NaN
        raise ResultMismatch(f'{what}: relative error {err:.2e} exceeds {tolerance():.0e}: '
                             'the timed computation returned a wrong answer')
    return err


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


def run_on_lanes(lanes, jobs, *, gpu_first: bool = False):
    """Start jobs[i]() on lanes[i] all at once and return their results.

    A CPU lane runs synchronously, so each gets its own Python thread (PyTorch releases the GIL
    inside mm, so two threads really use two cores). GPU lanes are queued from this thread, and
    only after the CPU threads have started: the GPU's launch queue holds about a thousand
    kernels, and once it is full, queuing more blocks this thread until the GPU catches up.
    Queuing the GPU first would hold the CPU lanes back for that long. `gpu_first=True` keeps that order so
    the benchmark can show the difference.
    """
    results = [None] * len(lanes)
    errors = []
    cpu_threads = max((lane.threads for lane in lanes if lane.kind == 'cpu'), default=0)

    def cpu_lane(i, lane):
        try:
            torch.set_num_threads(lane.threads)  # per-thread OpenMP/MKL setting for this lane
            results[i] = jobs[i]()
        except BaseException as e:  # re-raised in the caller's thread below
            errors.append(e)

    def queue_gpu_work():
        for i, lane in enumerate(lanes):
            if lane.asynchronous:
                results[i] = jobs[i]()

    with intra_op_threads(cpu_threads):
        threads = [threading.Thread(target=cpu_lane, args=(i, lane), daemon=True)
                   for i, lane in enumerate(lanes) if not lane.asynchronous]
        if gpu_first:
            queue_gpu_work()
        for t in threads:
            t.start()
        try:
            if not gpu_first:
                queue_gpu_work()
        finally:  # a failed launch must not leave CPU threads running unseen
            for t in threads:
                t.join()
    if errors:
        raise errors[0]
    return results


def lane_timeline(lanes, xs, iters):
    """When each product ran on each lane, during one run of all lanes together (13.3.1).

    GPU lanes are timed with CUDA events (the GPU's own clock, from an event recorded at the
    start), CPU lanes with timestamps taken in their own thread; both share one axis from 0.
    """
    cpu_stamps, gpu_marks, gpu_zero = [], {}, {}

    def make_job(i, lane, x, k):
        if lane.kind == 'gpu':
            def job():
                with torch.cuda.device(lane.index):
                    marks = []
                    for j in range(k):
                        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                        a.record()
                        x.mm(x)
                        b.record()
                        marks.append((j, a, b))
                    gpu_marks[i] = marks
        else:
            def job():
                for j in range(k):
                    s = time.perf_counter()
                    x.mm(x)
                    cpu_stamps.append((lane.label, j, s, time.perf_counter()))
        return job

    jobs = [make_job(i, lane, x, k) for i, (lane, x, k) in enumerate(zip(lanes, xs, iters))]
    gpus = sorted({lane.index for lane in lanes if lane.kind == 'gpu'})
    for g in gpus:
        torch.cuda.synchronize(g)
    for g in gpus:
        with torch.cuda.device(g):
            gpu_zero[g] = torch.cuda.Event(enable_timing=True)
            gpu_zero[g].record()
    t0 = time.perf_counter()
    run_on_lanes(lanes, jobs)
    for g in gpus:
        torch.cuda.synchronize(g)
    events = [{'lane': label, 'name': f'mm {j + 1}', 'start': s - t0, 'end': e - t0}
              for label, j, s, e in cpu_stamps]
    for i, marks in gpu_marks.items():
        lane = lanes[i]
        zero = gpu_zero[lane.index]
        events += [{'lane': lane.label, 'name': f'mm {j + 1}',
                    'start': zero.elapsed_time(a) / 1e3, 'end': zero.elapsed_time(b) / 1e3}
                   for j, a, b in marks]
    return sorted(events, key=lambda e: (e['lane'], e['start']))


def on_lanes(lanes, *jobs):
    """`on_lanes(lanes, job1, job2)`: the notebooks' spelling of run_on_lanes (13.3.1)."""
    return run_on_lanes(lanes, list(jobs))
