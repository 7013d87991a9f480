"""The framework backends behind one written interface (13.3.1, 13.3.2): PyTorch and MXNet.

`backend('torch')` returns a framework's module, named by its description in the registry (d2l_ext.frameworks).
MXNet's module imports mxnet only inside its worker process (importing it next to torch drops torch's threads).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol


class Backend(Protocol):
    """What every section needs from a framework: the book's workloads, the lane runner, waiting."""

    def run(self, x, iters: int = 50) -> list: ...  # the book's run: `iters` products x @ x in a list
    def copy_to_cpu(self, ys: Sequence) -> list: ...  # the book's copy_to_cpu: a new host array per result
    def random_matrix(self, lane, n: int, seed: int = 0): ...  # n x n uniform, the same numbers in both frameworks
    def reference_product(self, x): ...  # x @ x in float64: what every timed product must match
    def run_on_lanes(self, lanes: Sequence, jobs: Sequence[Callable[[], object]], *,
                     gpu_first: bool = False) -> list: ...  # jobs[i]() on lanes[i], all at once
    def lane_timeline(self, lanes: Sequence, xs: Sequence, iters: Sequence[int]) -> list[dict]: ...  # when each ran
    def tolerance(self) -> float: ...  # relative error allowed for fp32 products
    def wait(self, lanes: Sequence) -> None: ...  # until these lanes' devices finished their queued work
    def timeline_clock(self, lanes: Sequence) -> str: ...  # the clock lane_timeline reads (TimelineResult.clock)


def backend(framework: str) -> Backend:
    """The backend module of one registered framework ('torch', 'pytorch', 'mxnet'), used by every section."""
    from ..frameworks import backend_module
    return backend_module(framework)


# A timeline row is a lane's id, or a lane's id and an engine worker: 'cpu(0)/w1' (MXNet's rows, 13.3.1).
# Ids only: a display labels the row when it draws it (core.lane_worker_row).
WORKER_SEP = '/w'


def worker_row(lane_name: str, worker: int) -> str:
    """The row id of one engine worker thread of a lane ('cpu(0)/w1'), made by MXNet's lane_timeline."""
    return f'{lane_name}{WORKER_SEP}{worker}'


def split_row(row: str) -> tuple[str, int | None]:
    """A timeline row id as (lane id, worker number or None): 'cpu(0)/w1' -> ('cpu(0)', 1), 'cpu0' -> ('cpu0', None)."""
    name, sep, worker = row.rpartition(WORKER_SEP)
    return (name, int(worker)) if sep and worker.isdigit() else (row, None)
