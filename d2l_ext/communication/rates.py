"""13.3.2's prediction from this machine's own numbers: FLOP/s of one product, GB/s of one copy.

Runs in the notebook's process on a lane already chosen; `predict` turns the two rates into the
expected time of each variant, with the rule that makes it (separate hardware or not).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..machine import positive_int
from ..timing import measure


@dataclass
class Rates:
    """Measured here (13.3.2): products' FLOP/s, the copy's GB/s (pinned on a GPU), pageable GB/s on a GPU."""
    lane: str
    gpu: bool
    size: int
    flops: float
    copy_gbps: float
    pageable_gbps: float | None = None

    def seconds(self, iters: int) -> dict[str, float]:
        """Time of `iters` products and of copying their results, from the rates."""
        n = self.size
        return {'run': iters * 2 * n ** 3 / self.flops, 'copy': iters * 4 * n * n / (self.copy_gbps * 1e9)}


def measure_rates(lane, n: int, repeats: int = 5) -> Rates:
    """FLOP/s of one n x n product on `lane` and GB/s of copying one result to host memory (13.3.2).

    GPU: the device-to-host link into pinned and into pageable memory. CPU: a copy into a
    preallocated host buffer, the CPU analogue's 'link' (main memory itself).
    """
    import torch

    from ..backends.torch_backend import intra_op_threads, random_matrix
    n = positive_int(n, 'matrix size', 'pass a positive size, e.g. 800')
    x = random_matrix(lane, n)
    if lane.kind == 'gpu':
        from .copying import link_bandwidth
        product = measure(lambda: x.mm(x), lanes=[lane], repeats=repeats)
        link = link_bandwidth(lane.device(), n)
        return Rates(lane.label, True, n, 2 * n ** 3 / product.median, link['pinned'], link['pageable'])
    dst = torch.empty(n, n)
    with intra_op_threads(lane.threads):  # the lane's share of the cores, as in the lesson's analogue
        product = measure(lambda: x.mm(x), lanes=[lane], repeats=repeats)
        copy = measure(lambda: dst.copy_(x), repeats=repeats)
    return Rates(lane.label, False, n, 2 * n ** 3 / product.median, 4 * n * n / copy.median / 1e9)
