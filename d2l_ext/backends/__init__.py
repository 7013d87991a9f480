"""The framework backends behind one written interface (13.3.1, 13.3.2): PyTorch and MXNet.

Each backend is a module with the functions below; `backend('torch')` returns it. MXNet's is
only imported inside its worker process (importing mxnet next to torch drops torch's threads).
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


def backend(framework: str) -> Backend:
    """The backend module of one framework ('torch' or 'mxnet'), used by every section."""
    from ..machine import check_framework
    if check_framework(framework) == 'torch':
        from . import torch_backend
        return torch_backend
    from . import mxnet_backend
    return mxnet_backend
