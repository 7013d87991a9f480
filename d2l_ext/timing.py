"""Timing that can be trusted: warm-up, wait for every device, repeat, median and spread (13.3).

Why not only torch.utils.benchmark: its Timer waits for the *current* CUDA device alone and cannot
wait for MXNet's engine, and importing torch into the MXNet worker would bring back the very
thread-count interference we isolate frameworks against. So the small Measurement below is
framework-neutral; it mirrors torch.utils.benchmark's Measurement (median, IQR) on purpose.
"""
from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable


@dataclass
class Measurement:
    """Repeated wall-clock times of one piece of work, with median and interquartile range."""
    label: str
    times: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def iqr(self) -> float:
        if len(self.times) < 2:
            return 0.0
        q = statistics.quantiles(self.times, n=4, method='inclusive')
        return q[2] - q[0]

    def as_dict(self) -> dict:
        """JSON-ready: label, median, iqr, min, max, every time."""
        return {'label': self.label, 'median': self.median, 'iqr': self.iqr,
                'min': min(self.times), 'max': max(self.times), 'repeats': len(self.times),
                'times': list(self.times)}

    def __str__(self) -> str:
        return (f'{self.label}: median {self.median:.4f} s '
                f'(IQR {self.iqr:.4f} s, {len(self.times)} runs)')


def wait_for_lanes(lanes) -> None:
    """Block until every device used by these lanes has finished its queued work."""
    torch_gpus = sorted({lane.index for lane in lanes if lane.framework == 'torch' and lane.kind == 'gpu'})
    if torch_gpus:
        import torch
        for i in torch_gpus:  # one call per device: synchronize() alone waits for the current one
            torch.cuda.synchronize(i)
    if any(lane.framework == 'mxnet' for lane in lanes):
        import mxnet as mx
        mx.nd.waitall()  # MXNet's engine: waits for every context


def wait_for_everything() -> None:
    """Wait for every GPU PyTorch can see and for MXNet's engine if MXNet is loaded."""
    torch = sys.modules.get('torch')
    if torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized():
        for i in range(torch.cuda.device_count()):
            torch.cuda.synchronize(i)
    mx = sys.modules.get('mxnet')
    if mx is not None:
        mx.nd.waitall()


def measure(work: Callable[[], object], *, lanes: Iterable = (), label: str = '',
            repeats: int = 5, warmup: int = 1, check: Callable[[object], None] | None = None,
            on_repeat: Callable[[int, int], None] | None = None) -> Measurement:
    """Time `work()` correctly: warm up, wait for all lanes' devices around each run, repeat.

    `check(result)` runs after the last repeat (outside the timed region) and raises if the
    answer is wrong, so a fast wrong result never reaches a table.
    """
    lanes = list(lanes)
    wait = (lambda: wait_for_lanes(lanes)) if lanes else wait_for_everything
    result = None
    for _ in range(warmup):
        result = work()
        wait()
    m = Measurement(label or getattr(work, '__name__', 'work'))
    for r in range(repeats):
        result = None  # free the previous repeat's results before this one allocates its own
        wait()
        start = time.perf_counter()
        result = work()
        wait()
        m.times.append(time.perf_counter() - start)
        if on_repeat:
            on_repeat(r + 1, repeats)
    if check is not None:
        check(result)  # outside the timed region: the last repeat's answer
    return m


class Benchmark:
    """The book's `with d2l.Benchmark('GPU1 time'):` idiom, made correct (d2l defines it in 13.2).

    Before starting the clock it waits for work already queued, and before stopping it waits for
    every device of `lanes` (or every device in use when no lanes are given), so queued GPU or
    engine work is inside the measurement. It times one run, as the book does; use `measure`
    for repeats, median and spread.
    """

    def __init__(self, description: str = 'Done', lanes: Iterable | None = None, quiet: bool = False):
        self.description = description
        self.lanes = list(lanes) if lanes is not None else None
        self.quiet = quiet
        self.elapsed = None

    def _wait(self):
        if self.lanes:
            wait_for_lanes(self.lanes)
        else:
            wait_for_everything()

    def __enter__(self):
        self._wait()
        self._start = time.perf_counter()
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self._wait()
        self.elapsed = time.perf_counter() - self._start
        if exc_type is None and not self.quiet:
            print(f'{self.description}: {self.elapsed:.4f} sec')
        return False
