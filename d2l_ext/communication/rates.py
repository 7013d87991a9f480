"""13.3.2's prediction from this machine's own numbers, measured in the notebook's process: FLOP/s, copy GB/s."""
from __future__ import annotations

from dataclasses import dataclass

from ..i18n import t
from ..machine import positive_int
from ..timing import measure


@dataclass
class Rates:
    """Measured here (13.3.2): products' FLOP/s, the copy's GB/s (pinned on a GPU), pageable GB/s on a GPU."""
    lane: str  # the lane's name: display translates it
    gpu: bool
    size: int
    flops: float
    copy_gbps: float
    pageable_gbps: float | None = None
    inner: int | None = None  # products of size x inner by inner x size (None: square, as the book's)

    def seconds(self, iters: int) -> dict[str, float]:
        """Time of `iters` products and of copying their results, from the rates."""
        n = self.size
        return {'run': iters * 2 * n * n * (self.inner or n) / self.flops,
                'copy': iters * 4 * n * n / (self.copy_gbps * 1e9)}


def measure_rates(lane, n: int, repeats: int = 5, inner: int | None = None, iters: int = 1) -> Rates:
    """FLOP/s of n x inner by inner x n products (square by default) on `lane` and GB/s of copying results to host
    memory: a GPU's link (pinned and pageable); on a CPU, main memory, from `iters` products kept in a list and
    copied into separate buffers, as a run does (one product repeated reuses a warm block, and is faster)."""
    import torch

    from ..backends.torch_backend import intra_op_threads, random_matrix
    n = positive_int(n, t('core.what_size'), option='n', example=800)
    k = positive_int(inner, t('communication.what_inner'), option='inner', example=16) if inner else n
    iters = positive_int(iters, t('core.what_iters'), option='iters', example=10)
    x = random_matrix(lane, n)
    a, b = (x, x) if k == n else (x[:, :k].contiguous(), x[:k].contiguous())
    square = None if k == n else k
    if lane.kind == 'gpu':
        from .copying import link_bandwidth
        product = measure(lambda: a.mm(b), lanes=[lane], repeats=repeats)
        link = link_bandwidth(lane.device(), n)
        return Rates(lane.name, True, n, 2 * n * n * k / product.median, link['pinned'], link['pageable'], square)
    dst = [torch.empty(n, n) for _ in range(iters)]
    with intra_op_threads(lane.threads):  # the lane's share of the cores, as in the lesson's analogue
        product = measure(lambda: [a.mm(b) for _ in range(iters)], lanes=[lane], repeats=repeats)
        ys = [a.mm(b) for _ in range(iters)]
        copy = measure(lambda: [d.copy_(y) for d, y in zip(dst, ys)], repeats=repeats)
    return Rates(lane.name, False, n, iters * 2 * n * n * k / product.median, iters * 4 * n * n / copy.median / 1e9,
                 inner=square)
