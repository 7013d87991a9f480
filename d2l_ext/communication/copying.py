"""Device-to-host copies in PyTorch (13.3.2): the one home of run_and_copy (the lesson's worked solution, a branch per
device kind; the grader, the measurements, the recordings and exercise 3 run it), and the book's ways to copy."""
from __future__ import annotations

import os
import queue
import sys
import threading
import time
from dataclasses import dataclass
from types import SimpleNamespace

import torch

from ..backends.torch_backend import run


@dataclass(frozen=True)
class CopyPlan:
    """How results travel to host memory: `dest` 'pageable' or 'pinned'; `alloc` 'fresh' (a new tensor per result, as
    the book) or 'prealloc'; `stream` 'same' or 'side' (a copy stream ordered by events); `non_blocking`."""
    dest: str = 'pageable'
    alloc: str = 'fresh'
    stream: str = 'same'
    non_blocking: bool = False

    def describe(self) -> str:
        return f"{self.dest}, {self.alloc}, {self.stream} stream, {'non_' if self.non_blocking else ''}blocking"


BOOK_BLOCKING = CopyPlan('pageable', 'fresh', 'same', False)      # copy_to_cpu(y)
BOOK_NON_BLOCKING = CopyPlan('pinned', 'fresh', 'same', True)     # copy_to_cpu(y, True)
PAGEABLE_REUSED = CopyPlan('pageable', 'prealloc', 'same', False)  # pageable, but no new memory per call
PINNED_SAME_STREAM = CopyPlan('pinned', 'prealloc', 'same', True)
PINNED_SIDE_STREAM = CopyPlan('pinned', 'prealloc', 'side', True)
GPU_PLANS = {'book: copy_to_cpu(y)': BOOK_BLOCKING,
             'pageable, preallocated, same stream': PAGEABLE_REUSED,  # separates 'pageable' from 'new memory per call'
             'book: copy_to_cpu(y, non_blocking=True)': BOOK_NON_BLOCKING,
             'pinned, preallocated, same stream': PINNED_SAME_STREAM,
             'pinned, preallocated, copy stream + events': PINNED_SIDE_STREAM}


def run_and_copy(x, w, buffers, lane):
    # x @ w per buffer, each copied while the next computes  #zh: 每个缓冲区算一次 x @ w，算下一个时复制这一个
    if lane.kind == 'gpu':
        compute = torch.cuda.current_stream(x.device)
        copy_stream = torch.cuda.Stream(x.device)
        # pinned by the caller: the copy engine writes them directly  #zh: 调用者已分配锁页内存：复制引擎直接写入
        for buf in buffers:
            y = x.mm(w)
            done = torch.cuda.Event()
            # a marker after this product  #zh: 在这个乘积之后做一个标记
            done.record(compute)
            with torch.cuda.stream(copy_stream):
                # the copy waits for this product only  #zh: 复制只等待这个乘积
                copy_stream.wait_event(done)
                buf.copy_(y, non_blocking=True)
                # y's memory is not reused before its copy ran  #zh: 复制完成之前不重用 y 的内存
                y.record_stream(copy_stream)
        # the host waits for the last copy: safe to read now  #zh: 主机等待最后一次复制：现在可以安全读取
        copy_stream.synchronize()
        return buffers
    todo = queue.Queue()

    def copier():
        # the copy thread's own share: one core  #zh: 复制线程自己的份额：一个核心
        torch.set_num_threads(1)
        while (item := todo.get()) is not None:
            buf, y = item
            buf.copy_(y)

    helper = threading.Thread(target=copier)
    helper.start()
    # the computing thread's share of the cores  #zh: 计算线程分到的核心
    torch.set_num_threads(lane.threads)
    for buf in buffers:
        # hand product i over, compute product i + 1  #zh: 交出乘积 i，计算乘积 i + 1
        todo.put((buf, x.mm(w)))
    todo.put(None)
    # the CPU's synchronize: every copy has landed  #zh: CPU 上的同步：每次复制都已完成
    helper.join()
    return buffers


def in_order(x, w, buffers):
    """The baseline, one stream (one thread): each product, then its copy, freed once copied as in run_and_copy (kept
    all, 20 thin products are 39 MB of fresh memory: products alone took 5.1 ms kept, 2.9 ms freed, on 2 cores)."""
    for buf in buffers:
        buf.copy_(x.mm(w))
    return buffers


def products(x, w, k):
    """k products, each freed once made, as run_and_copy frees each once copied; the last, for the check."""
    for _ in range(k):
        y = x.mm(w)
    return [y]


def ways(lane, mine) -> SimpleNamespace:
    """13.3.2's timed ways by row name (`mine`: the run_and_copy timed), with x, w, buffers and check (vs float64)."""
    from ..checking import check_close
    from .tracing import host_buffers, operands, reference
    (x, w), buffers, base = operands(lane), host_buffers(lane), host_buffers(lane)  # pinned on a GPU, once
    ref, k = reference(x, w), len(buffers)
    variants = {'in_order': lambda: in_order(x, w, base), 'run': lambda: products(x, w, k),
                'handoffs': lambda: handoffs(x, w, base, lane),  # the control
                'overlapped': lambda: mine(x, w, buffers, lane)}
    variants = {name: own_cores(work, lane) for name, work in variants.items()}
    check = lambda n, out: None if n == 'handoffs' else check_close(out, ref, n)  # noqa: E731 (the control copies none)
    return SimpleNamespace(variants=variants, x=x, w=w, buffers=buffers, check=check)


def own_cores(work, lane):
    """`work` on the lane's cores, each thread it starts on the next core (Linux; else as is): a copy thread gets a core
    of its own, as a copy engine is hardware of its own. Unpinned, the scheduler often woke the copy thread on the
    computing thread's core (sched_getcpu: those run_and_copy repeats took 7-11 ms, the others mostly 4-6)."""
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, 'sched_setaffinity') else []
    if lane.kind != 'cpu' or len(cores) < 2:
        return work
    k = min(max(1, lane.threads), len(cores) - 1)
    pin = lambda *_: (sys.setprofile(None), os.sched_setaffinity(0, cores[k:k + 1]))  # noqa: E731 (once, at its start)

    def pinned():
        os.sched_setaffinity(0, cores[:k])
        threading.setprofile(pin)
        try:
            return work()
        finally:
            threading.setprofile(None)
            os.sched_setaffinity(0, cores)
    return pinned


class _NoCopy:
    """A buffer whose copy_ does nothing: run_and_copy on these is its own control."""
    def copy_(self, y, non_blocking=False):
        return self


def handoffs(x, w, buffers, lane):
    """The control for the stand-in's own cost: run_and_copy itself (its copy thread or stream, a hand-off per product),
    on buffers that copy nothing. Returns `buffers`, unwritten."""
    run_and_copy(x, w, [_NoCopy() for _ in buffers], lane)
    return buffers


@dataclass(frozen=True)
class Kind:
    """The two fields of a Lane that run_and_copy reads, for callers that hold a device rather than a Lane."""
    kind: str
    threads: int = 1


class Copier:
    """Copies a list of results to host memory: by a CopyPlan on a GPU, by a copy thread on a CPU (plan None)."""

    def __init__(self, plan: CopyPlan | None, n: int, iters: int, device, threads: int = 1):
        self.plan = plan
        self.device = device
        self.kind = Kind('cpu' if plan is None else 'gpu', threads)
        self.buffers = None
        if plan is None or plan.alloc == 'prealloc':
            pinned = plan is not None and plan.dest == 'pinned'
            self.buffers = [torch.empty(n, n, pin_memory=pinned) for _ in range(iters)]
        self.stream = torch.cuda.Stream(device) if plan is not None and plan.stream == 'side' else None

    def _copy_one(self, i, y):
        nb = self.plan.non_blocking
        if self.buffers is not None:
            return self.buffers[i].copy_(y, non_blocking=nb)
        return torch.empty(y.shape, dtype=y.dtype, pin_memory=self.plan.dest == 'pinned').copy_(y, non_blocking=nb)

    def copy(self, ys):
        """Copy finished results (the book's 'Copy to CPU'); on a CPU, on a copy thread the caller waits for."""
        if self.plan is None:
            t = threading.Thread(target=lambda: [b.copy_(y) for b, y in zip(self.buffers, ys)])
            t.start()
            t.join()
            return self.buffers
        if self.stream is None:
            return [self._copy_one(i, y) for i, y in enumerate(ys)]
        main = torch.cuda.current_stream(self.device)
        self.stream.wait_stream(main)
        with torch.cuda.stream(self.stream):
            out = []
            for i, y in enumerate(ys):
                out.append(self._copy_one(i, y))
                y.record_stream(self.stream)  # y may be freed by the caller before the copy runs
        main.wait_stream(self.stream)
        return out

    def run_and_copy(self, x, iters):
        """Products and copies issued together: run_and_copy itself (a copy stream or thread), else the book's order."""
        if self.plan is None or self.stream is not None:
            return run_and_copy(x, x, self.buffers[:iters], self.kind)
        return self.copy(run(x, iters))


def link_bandwidth(device, n: int = 4000, repeats: int = 10) -> dict:
    """Device-to-host GB/s of a plain copy into pageable and into pinned memory (13.3.2)."""
    src = torch.rand(n, n, device=device)
    out = {}
    for dest in ('pageable', 'pinned'):
        dst = torch.empty(n, n, pin_memory=dest == 'pinned')
        [dst.copy_(src) for _ in range(3)]  # warm-up
        torch.cuda.synchronize(device)
        t = time.perf_counter()
        [dst.copy_(src, non_blocking=True) for _ in range(repeats)]
        torch.cuda.synchronize(device)
        out[dest] = repeats * src.numel() * 4 / (time.perf_counter() - t) / 1e9
    return out


def overlap_timeline(x, iters: int, plan: CopyPlan | None = PINNED_SIDE_STREAM) -> list[dict]:
    """When each product and copy ran on a GPU, rows 'compute stream' and 'copy stream' (CUDA events); a CPU's
    timeline is run_and_copy itself, traced (tracing.traced_run)."""
    n, dev = x.shape[0], x.device
    copier = Copier(plan, n, iters, dev)
    main = torch.cuda.current_stream(dev)
    side = copier.stream or main
    marks, ys = [], []
    torch.cuda.synchronize(dev)
    zero = torch.cuda.Event(enable_timing=True)
    zero.record(main)
    pair = lambda: (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))  # noqa: E731
    for i in range(iters):
        a, b = pair()
        a.record(main)
        y = x.mm(x)
        b.record(main)
        marks.append(('compute stream', f'mm {i + 1}', a, b, 'compute'))
        ys.append(y)
        if copier.stream is not None:  # interleaved, as Copier.run_and_copy does
            c, d = pair()
            with torch.cuda.stream(side):
                side.wait_event(b)
                c.record(side)
                copier._copy_one(i, y)
                d.record(side)
                y.record_stream(side)
            marks.append(('copy stream', f'copy {i + 1}', c, d, 'copy'))
    if copier.stream is None:  # one stream: the book's order, all products then all copies
        for i, y in enumerate(ys):
            c, d = pair()
            c.record(main)
            copier._copy_one(i, y)
            d.record(main)
            marks.append(('compute stream', f'copy {i + 1}', c, d, 'copy'))
    torch.cuda.synchronize(dev)
    return [{'lane': lane, 'name': name, 'start': zero.elapsed_time(a) / 1e3, 'end': zero.elapsed_time(b) / 1e3,
             'role': role} for lane, name, a, b, role in marks]
