"""Timing that can be trusted: warm-up, wait for every device, repeat, median and spread (13.3).

Not torch.utils.benchmark: its Timer waits for the *current* CUDA device alone, not for MXNet's engine, and torch
in the MXNet worker would bring back the thread-count interference workers isolate. What it returns,
results.Measurement, mirrors torch.utils.benchmark's Measurement (median, IQR) on purpose.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from .frameworks import framework, known
from .i18n import t
from .results import Measurement, render

clock = time.perf_counter  # timestamps (timelines, start delays); durations of work go through measure()
SETTLE_S = 0.01


def settle() -> None:
    """Pause before a timed run so the previous run's idle threads stop spinning (every interleaved timer).

    After a parallel region, OpenMP's worker threads (PyTorch's intra-op pool on a CPU) spin for a moment before they
    sleep. On 2 cores a run that starts inside that moment loses a core: measured here, two one-thread lanes started
    right after a two-thread product began ~1.3 ms late and took +35%; after a 10 ms pause, as after an idle machine
    (tools/omp_spin.py is the control). Setting OMP_WAIT_POLICY=PASSIVE would do it too, but only before torch loads.
    """
    time.sleep(SETTLE_S)


def wait_for_lanes(lanes) -> None:
    """Block until every device these lanes use has finished its queued work (every section).

    Each framework waits as its registry entry says (Framework.wait_loaded: a PyTorch GPU by index, as a bare
    synchronize() waits for the current device only; MXNet's engine for all its contexts), and only if already
    loaded (nothing can be queued in one that is not): timing never imports a framework.
    """
    lanes = list(lanes)
    for name in dict.fromkeys(lane.framework for lane in lanes):
        framework(name).wait_loaded([lane for lane in lanes if lane.framework == name])


def wait_for_everything() -> None:
    """Wait for every device of every framework already loaded (each as its registry entry says)."""
    for name in known():
        framework(name).wait_all()


def _waiter(lanes):
    lanes = list(lanes)
    return (lambda: wait_for_lanes(lanes)) if lanes else wait_for_everything


def measure(work: Callable[[], object], *, lanes: Iterable = (), label: str = '',
            repeats: int = 5, warmup: int = 1, check: Callable[[object], None] | None = None) -> Measurement:
    """Time `work()` correctly: warm up, wait for all lanes' devices around each run, repeat (compare's one variant).
    `check(result)` runs after the last repeat, outside the timed region, and raises if the answer is wrong."""
    label = label or getattr(work, '__name__', 'work')
    return compare({label: work}, lanes=lanes, repeats=repeats, warmup=warmup,
                   check=None if check is None else lambda _, result: check(result))[label]


class Benchmark:
    """The book's `with d2l.Benchmark('GPU1 time'):` idiom (d2l defines it in 13.2), made correct: it waits for the
    devices of `lanes` (default: every device in use) before starting and before stopping the clock, so queued
    work is inside. One run, as the book times it; `measure` gives repeats, median and spread.
    """

    def __init__(self, description: str = 'Done', lanes: Iterable | None = None):
        self.description, self.elapsed, self._wait = description, None, _waiter(lanes or ())

    def __enter__(self):
        self._wait()
        self._start = time.perf_counter()
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self._wait()
        self.elapsed = time.perf_counter() - self._start
        if exc_type is None:
            print(t('core.benchmark', description=self.description, seconds=self.elapsed))  # the book's line
        return False


class Comparison:
    """Several variants timed interleaved: {name: Measurement}, one table (13.3.1, 13.3.2, 13.3.3)."""

    def __init__(self, measurements: dict[str, Measurement]):
        self.measurements = dict(measurements)

    def __getitem__(self, name: str) -> Measurement:
        return self.measurements[name]

    def __iter__(self):
        return iter(self.measurements)

    def medians(self) -> dict[str, float]:
        """{variant: median seconds}."""
        return {name: m.median for name, m in self.measurements.items()}

    def as_dict(self) -> dict:
        """JSON-ready: {variant: Measurement.as_dict()}."""
        return {name: m.as_dict() for name, m in self.measurements.items()}

    def to_frame(self):
        """A pandas DataFrame, one row per variant: median, IQR, min, max and every repeat's time (seconds)."""
        import pandas as pd
        rows = {name: {t('core.col_median'): m.median, t('core.col_iqr'): m.iqr, t('core.col_min'): m.min,
                       t('core.col_max'): m.max, t('core.col_times'): [round(x, 6) for x in m.times]}
                for name, m in self.measurements.items()}
        return pd.DataFrame.from_dict(rows, orient='index')

    def __repr__(self) -> str:
        return '\n'.join(str(m) for m in self.measurements.values())

    def _repr_html_(self) -> str:
        return render(self.to_frame(), index=True)


def compare(variants: dict[str, Callable[[], object]], *, lanes: Iterable = (), repeats: int = 5,
            warmup: int = 1, check: Callable[[str, object], None] | None = None) -> Comparison:
    """Time several variants of the same work, interleaved, keeping every repeat (13.3.1, 13.3.2, 13.3.3).

    In turn (v1, v2, v1, v2, ...), so a machine whose speed drifts slows all alike; each run waits for the lanes'
    devices before and after. `check(name, result)` sees each variant's last result, outside the timed region.
    """
    from .machine import positive_int
    repeats = positive_int(repeats, 'repeats', option='repeats', example=5)
    wait = _waiter(lanes)
    for _ in range(warmup):
        for work in variants.values():
            work()
            wait()
    times: dict[str, list[float]] = {name: [] for name in variants}
    last: dict = {}
    for _ in range(repeats):
        for name, work in variants.items():
            last[name] = None  # free this variant's previous results before it allocates new ones
            wait()
            settle()
            start = time.perf_counter()
            last[name] = work()
            wait()
            times[name].append(time.perf_counter() - start)
    if check is not None:
        for name in variants:
            check(name, last[name])
    return Comparison({name: Measurement(name, ts) for name, ts in times.items()})
