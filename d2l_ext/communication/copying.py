"""Device-to-host copies in PyTorch, from the book's version to real overlap (13.3.2).

The lessons show these lines themselves; the package uses them to time, check and draw.

A copy is described by four choices, the ones that change its time:
  dest         'pageable' (ordinary host memory) or 'pinned' (page-locked, DMA-able)
  alloc        'fresh' (a new host tensor per result, as the book) or 'prealloc' (reused buffers)
  stream       'same' (copies queue behind the products) or 'side' (a copy stream, ordered by events)
  non_blocking whether the host waits for each copy
"""
from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass

import torch

from ..backends.torch_backend import run


@dataclass(frozen=True)
class CopyPlan:
    """How results travel to host memory (13.3.2); see the module docstring."""
    dest: str = 'pageable'
    alloc: str = 'fresh'
    stream: str = 'same'
    non_blocking: bool = False

    def describe(self) -> str:
        nb = 'non_blocking' if self.non_blocking else 'blocking'
        return f'{self.dest}, {self.alloc}, {self.stream} stream, {nb}'


BOOK_BLOCKING = CopyPlan('pageable', 'fresh', 'same', False)      # copy_to_cpu(y)
BOOK_NON_BLOCKING = CopyPlan('pinned', 'fresh', 'same', True)     # copy_to_cpu(y, True)
PAGEABLE_REUSED = CopyPlan('pageable', 'prealloc', 'same', False)  # pageable, but no new memory per call
PINNED_SAME_STREAM = CopyPlan('pinned', 'prealloc', 'same', True)
PINNED_SIDE_STREAM = CopyPlan('pinned', 'prealloc', 'side', True)
GPU_PLANS = {
    'book: copy_to_cpu(y)': BOOK_BLOCKING,
    'pageable, preallocated, same stream': PAGEABLE_REUSED,  # separates 'pageable' from 'new memory per call'
    'book: copy_to_cpu(y, non_blocking=True)': BOOK_NON_BLOCKING,
    'pinned, preallocated, same stream': PINNED_SAME_STREAM,
    'pinned, preallocated, copy stream + events': PINNED_SIDE_STREAM,
}


class Copier:
    """Copies a list of GPU results to host memory according to a CopyPlan (13.3.2)."""

    def __init__(self, plan: CopyPlan, n: int, iters: int, device):
        self.plan = plan
        self.device = device
        self.buffers = None
        if plan.alloc == 'prealloc':
            self.buffers = [torch.empty(n, n, pin_memory=plan.dest == 'pinned') for _ in range(iters)]
        self.stream = torch.cuda.Stream(device) if plan.stream == 'side' else None

    def _copy_one(self, i, y):
        nb = self.plan.non_blocking
        if self.buffers is not None:
            return self.buffers[i].copy_(y, non_blocking=nb)
        if self.plan.dest == 'pinned':
            return torch.empty(y.shape, dtype=y.dtype, pin_memory=True).copy_(y, non_blocking=nb)
        return torch.empty(y.shape, dtype=y.dtype).copy_(y, non_blocking=nb)

    def copy(self, ys):
        """Copy finished results (the book's 'Copy to CPU')."""
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
        """Products and copies issued together (the book's 'Run on GPU1 and copy to CPU')."""
        if self.stream is None:  # the book's order: all products, then all copies, one stream
            return self.copy(run(x, iters))
        main = torch.cuda.current_stream(self.device)
        out = []
        for i in range(iters):
            y = x.mm(x)
            done = torch.cuda.Event()
            done.record(main)
            with torch.cuda.stream(self.stream):
                self.stream.wait_event(done)  # copy i waits for product i only
                out.append(self._copy_one(i, y))
                y.record_stream(self.stream)
        main.wait_stream(self.stream)
        return out


def link_bandwidth(device, n: int = 4000, repeats: int = 10) -> dict:
    """Device-to-host GB/s of a plain copy into pageable and into pinned memory (13.3.2)."""
    src = torch.rand(n, n, device=device)
    out = {}
    for dest in ('pageable', 'pinned'):
        dst = torch.empty(n, n, pin_memory=dest == 'pinned')
        for _ in range(3):
            dst.copy_(src)
        torch.cuda.synchronize(device)
        t = time.perf_counter()
        for _ in range(repeats):
            dst.copy_(src, non_blocking=True)
        torch.cuda.synchronize(device)
        out[dest] = repeats * src.numel() * 4 / (time.perf_counter() - t) / 1e9
    return out


def read_before_sync(x, iters: int = 20):
    """The hazard: read a non_blocking copy before synchronizing, then after (13.3.2).

    Returns (relative error read at once, relative error after synchronize).
    """
    from ..backends.torch_backend import reference_product
    from ..checking import relative_error
    ref = reference_product(x).cpu()
    buf = torch.zeros(x.shape, pin_memory=True)
    torch.cuda.synchronize(x.device)
    y = None
    for _ in range(iters):  # queue enough work that the copy cannot have happened yet
        y = x.mm(x)
    buf.copy_(y, non_blocking=True)
    early = relative_error(buf.clone(), ref)  # what the host sees right now
    torch.cuda.synchronize(x.device)
    late = relative_error(buf, ref)
    return early, late


# -- a CPU-only analogue (no device-to-host link exists without a GPU) ------------------------

class ThreadCopier:
    """CPU analogue of a copy engine: a second thread copies each product into a preallocated
    buffer while the first thread computes the next one (13.3.2 on a machine without a GPU)."""

    def __init__(self, n: int, iters: int):
        self.buffers = [torch.empty(n, n) for _ in range(iters)]

    def copy(self, ys):
        """Copy finished results, on the copy thread (the caller waits)."""
        t = threading.Thread(target=lambda: [b.copy_(y) for b, y in zip(self.buffers, ys)])
        t.start()
        t.join()
        return self.buffers

    def run_and_copy(self, x, iters):
        """Compute in this thread, copy in the other as soon as each product is ready."""
        q: queue.Queue = queue.Queue()

        def copier():
            while (item := q.get()) is not None:
                i, y = item
                self.buffers[i].copy_(y)

        t = threading.Thread(target=copier)
        t.start()
        try:
            for i in range(iters):
                q.put((i, x.mm(x)))
        finally:
            q.put(None)
            t.join()
        return self.buffers


def overlap_timeline(x, iters: int, plan: CopyPlan | None = PINNED_SIDE_STREAM) -> list[dict]:
    """When each product and each copy ran, rows 'compute stream' and 'copy stream' (13.3.2).

    GPU: CUDA events on both streams (the GPU's clock). Without a GPU (plan ignored): timestamps
    in the computing thread and in the copying thread of the CPU analogue.
    """
    n = x.shape[0]
    if x.device.type != 'cuda':
        stamps = []
        bufs = [torch.empty(n, n) for _ in range(iters)]
        q: queue.Queue = queue.Queue()
        t0 = time.perf_counter()

        def copier():
            while (item := q.get()) is not None:
                i, y = item
                s = time.perf_counter()
                bufs[i].copy_(y)
                stamps.append(('copy thread', f'copy {i + 1}', s, time.perf_counter(), 'copy'))
        t = threading.Thread(target=copier)
        t.start()
        for i in range(iters):
            s = time.perf_counter()
            y = x.mm(x)
            stamps.append(('compute thread', f'mm {i + 1}', s, time.perf_counter(), 'compute'))
            q.put((i, y))
        q.put(None)
        t.join()
        return [{'lane': lane, 'name': name, 'start': s - t0, 'end': e - t0, 'role': role}
                for lane, name, s, e, role in stamps]
    dev = x.device
    copier = Copier(plan, n, iters, dev)
    main = torch.cuda.current_stream(dev)
    side = copier.stream or main
    marks = []
    torch.cuda.synchronize(dev)
    zero = torch.cuda.Event(enable_timing=True)
    zero.record(main)
    ys = []
    for i in range(iters):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(main)
        y = x.mm(x)
        b.record(main)
        marks.append(('compute stream', f'mm {i + 1}', a, b, 'compute'))
        ys.append(y)
        if copier.stream is not None:  # interleaved, as Copier.run_and_copy does
            c, d = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            with torch.cuda.stream(side):
                side.wait_event(b)
                c.record(side)
                copier._copy_one(i, y)
                d.record(side)
                y.record_stream(side)
            marks.append(('copy stream', f'copy {i + 1}', c, d, 'copy'))
    if copier.stream is None:  # one stream: the book's order, all products then all copies
        for i, y in enumerate(ys):
            c, d = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            c.record(main)
            copier._copy_one(i, y)
            d.record(main)
            marks.append(('compute stream', f'copy {i + 1}', c, d, 'copy'))
    torch.cuda.synchronize(dev)
    return [{'lane': lane, 'name': name, 'start': zero.elapsed_time(a) / 1e3, 'end': zero.elapsed_time(b) / 1e3,
             'role': role} for lane, name, a, b, role in marks]
