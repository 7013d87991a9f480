"""The framework backends behind one written interface (13.3.1, 13.3.2): PyTorch and MXNet.

Each backend is a module with the functions below; `backend('torch')` returns it. Which module
is a framework's backend is said by its description in the registry (d2l_ext.frameworks), so a new
framework adds its module here and its description there, and nothing else branches on its name.
MXNet's module imports mxnet only inside its worker process (importing it next to torch drops
torch's threads).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol


class Backend(Protocol):
    """What every section needs from a framework: the book's workloads, the lane runner, waiting."""

    def run(self, x, iters: int = 50) -> list:
        """The book's `run`: `iters` independent products x @ x, kept in a list (13.3.1)."""

    def copy_to_cpu(self, ys: Sequence) -> list:
        """The book's `copy_to_cpu`: a new host array per result (13.3.2)."""

    def random_matrix(self, lane, n: int, seed: int = 0):
        """An n x n uniform matrix on a lane, the same numbers in both frameworks."""

    def reference_product(self, x):
        """x @ x in float64: the answer every timed product must match."""

    def run_on_lanes(self, lanes: Sequence, jobs: Sequence[Callable[[], object]], *,
                     gpu_first: bool = False) -> list:
        """Start jobs[i]() on lanes[i] all at once and return their results (13.3.1)."""

    def lane_timeline(self, lanes: Sequence, xs: Sequence, iters: Sequence[int]) -> list[dict]:
        """When each product ran on each lane, in one run of all lanes together (13.3.1)."""

    def tolerance(self) -> float:
        """Relative error allowed for this framework's fp32 products."""

    def wait(self, lanes: Sequence) -> None:
        """Block until the devices of these lanes have finished their queued work."""

    def timeline_clock(self, lanes: Sequence) -> str:
        """Which clock lane_timeline reads on these lanes (named in TimelineResult.clock)."""


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
