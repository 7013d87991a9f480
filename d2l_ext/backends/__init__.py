"""The framework backends behind one written interface (13.3.1, 13.3.2): PyTorch and MXNet.

`backend('torch')` imports a framework's module by the name its description gives (d2l_ext.frameworks): the one
import by name of a backend (tests/test_structure.py BY_NAME checks it).
MXNet's module imports mxnet only inside its worker process (importing it next to torch drops torch's threads).
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Protocol

from ..frameworks import framework, split_row  # noqa: F401  (split_row: the sections read timeline rows here)


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


def backend(name: str) -> Backend:
    """The backend module of one registered framework ('torch', 'pytorch', 'mxnet'), used by every section."""
    return importlib.import_module(framework(name).backend)

