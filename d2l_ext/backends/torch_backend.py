"""The book's 13.3 workloads in PyTorch, and the one lane runner, run_together (13.3.1-13.3.3): the Build-it task's
worked solution, imported from d2l_ext.parallel.together, defined here because the backend interface runs it."""
from __future__ import annotations

import contextlib
from concurrent.futures import ThreadPoolExecutor

import torch

from ..frameworks import framework
from ..timing import clock, wait_for_lanes


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


def run_together(lanes, works):
    # works[i]() on lanes[i], all at once; the results in order  #zh: 各计算资源同时运行 works[i]()；按顺序返回结果
    def on_cpu(lane, work):
        # this thread's share of the cores (a per-thread setting)  #zh: 这个线程分到的核心（每个线程各自设置）
        torch.set_num_threads(lane.threads)
        return work()
    # a pool of one thread per CPU lane (a shared pool reuses a thread that is done)  #zh: 每个 CPU 计算资源一个单线程池
    pools = {i: ThreadPoolExecutor(1) for i, lane in enumerate(lanes) if lane.kind == 'cpu'}
    try:
        # CPU lanes start first ...  #zh: 先启动 CPU 计算资源……
        cpu = {i: pool.submit(on_cpu, lanes[i], works[i]) for i, pool in pools.items()}
        # ... then GPU work is queued  #zh: ……再把 GPU 的工作排入队列
        gpu = {i: works[i]() for i, lane in enumerate(lanes) if lane.kind == 'gpu'}
    finally:
        for pool in pools.values():
            pool.shutdown()  # waits for its thread, even after an error  #zh: 等待它的线程，出错时也一样
    for lane in lanes:
        if lane.kind == 'gpu':
            # every GPU used, not only the current one  #zh: 等待用到的每个 GPU，而不只是当前设备
            torch.cuda.synchronize(lane.index)
    return [cpu[i].result() if i in cpu else gpu[i] for i in range(len(lanes))]


def run_on_lanes(lanes, jobs, *, gpu_first: bool = False):
    """run_together; `gpu_first` queues GPU work before the CPU lanes start (the wrong order: test_launch_order)."""
    if not gpu_first:
        return run_together(lanes, jobs)
    gpu = {i: jobs[i]() for i, lane in enumerate(lanes) if lane.kind == 'gpu'}
    cpu = iter(run_together([lane for lane in lanes if lane.kind != 'gpu'],
                            [job for lane, job in zip(lanes, jobs) if lane.kind != 'gpu']))
    wait([lane for lane in lanes if lane.kind == 'gpu'])
    return [gpu[i] if i in gpu else next(cpu) for i in range(len(lanes))]


class KeptTogether:
    """`KeptTogether(lanes, xs, iters)()`: lane i computes iters[i] products xs[i] @ xs[i], all at once, returned
    unwaited; each call keeps when each product ran (GPU: CUDA events; CPU: its thread's clock): `events(k)`."""

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
