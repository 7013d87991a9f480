"""Sizes and iteration counts for the book's workloads: defaults from the hardware, validated input.

Used by 13.3.1 and 13.3.2. On a GPU the book's 4000 x 4000 and 50 products; on CPU lanes a size
chosen so that one `run` on one lane takes about a second.
"""
from __future__ import annotations

from .errors import UsageError
from .machine import free_host_bytes, positive_int

BOOK_SIZE, BOOK_ITERS = 4000, 50
CPU_ITERS = 10
# fp32 matrix-product rate of one core, used only to pick a default size: 10 products of
# 1200 x 1200 took 0.36 s on one thread of the 2-core AMD EPYC CI machine (about 95 GFLOP/s, MKL,
# AVX-512); older cores are slower, and the default then takes longer than a second.
CPU_FLOPS_PER_CORE = 90e9


def backend(framework: str):
    """The module holding one framework's workloads (torch_work or mxnet_work)."""
    if framework == 'torch':
        from . import torch_work
        return torch_work
    from . import mxnet_work
    return mxnet_work


def default_size(lanes, seconds: float = 1.0) -> tuple[int, int]:
    """(size, iters) so that one `run` takes about `seconds` on the slowest lane."""
    if all(lane.kind == 'gpu' for lane in lanes):
        return BOOK_SIZE, BOOK_ITERS
    threads = min(max(1, lane.threads) for lane in lanes if lane.kind == 'cpu')
    if any(lane.framework == 'mxnet' for lane in lanes):
        threads = 1  # OMP_NUM_THREADS=1 in the MXNet worker: each product runs on one core
    n = (seconds * CPU_FLOPS_PER_CORE * threads / (2 * CPU_ITERS)) ** (1 / 3)
    return int(max(100, round(n / 100) * 100)), CPU_ITERS


def free_bytes(lane) -> int:
    """Free memory where this lane's results live."""
    if lane.kind == 'gpu' and lane.framework == 'torch':
        import torch
        return torch.cuda.mem_get_info(lane.index)[0]
    return free_host_bytes()


def check_workload(size, iters, lanes, *, extra_matrices: int = 2, what: str = '--size') -> tuple[int, list[int]]:
    """Validate size and iterations (one per lane, or one for all) and that results fit in memory."""
    n = positive_int(size, 'matrix size', f'pass a positive {what}, e.g. 1000')
    ks = iters if isinstance(iters, (list, tuple)) else [iters] * len(lanes)
    if len(ks) != len(lanes):
        raise UsageError(f'give one iteration count, or one per lane ({len(lanes)} lanes)')
    ks = [positive_int(k, 'iteration count', 'pass a positive --iters, e.g. 10') for k in ks]
    need_by_place: dict = {}
    for lane, k in zip(lanes, ks):
        place = (lane.framework, lane.kind, lane.index if lane.kind == 'gpu' else 0)
        need_by_place.setdefault(place, [lane, 0])[1] += (k + extra_matrices) * n * n * 4
    for (fw, kind, idx), (lane, need) in need_by_place.items():
        free = free_bytes(lane)
        if need > 0.8 * free:  # keep headroom for the framework's own buffers
            fit = int(((0.8 * free) / (4 * (max(ks) + extra_matrices) * len(lanes))) ** 0.5)
            where = f'GPU {idx}' if kind == 'gpu' else 'host memory'
            raise UsageError(
                f'size {n} with {max(ks)} products per lane needs {need / 2**30:.1f} GiB on {where}, '
                f'which has {free / 2**30:.1f} GiB free: choose a size of at most {max(fit, 1)} '
                f'or fewer iterations')
    return n, ks


def is_mixed(lanes) -> bool:
    """True when GPU and CPU lanes are used together (their speeds differ a hundredfold)."""
    return len({lane.kind for lane in lanes}) > 1


MIXED_SIZE = 2000  # GPU + CPU lanes: big enough to keep the GPU busy, small enough for the CPU


def balanced_iters(lanes, n: int, seconds: float = 0.5) -> list[int]:
    """Products per lane so that each lane alone takes about `seconds` (GPU + CPU lanes, 13.3.1).

    Times each lane after a warm-up, doubling the number of products until the timing covers at
    least a fifth of `seconds` (a GPU product takes well under a millisecond, so timing two of
    them would mostly measure the wait), then scales: the GPU gets many more.
    """
    import time
    from .timing import wait_for_lanes
    work = backend(lanes[0].framework)
    out = []
    for lane in lanes:
        x = work.random_matrix(lane, n)
        k = 2
        work.run_on_lanes([lane], [lambda: work.run(x, k)])  # warm-up
        wait_for_lanes([lane])
        while True:
            t = time.perf_counter()
            work.run_on_lanes([lane], [lambda: work.run(x, k)])
            wait_for_lanes([lane])
            dt = time.perf_counter() - t
            if dt >= seconds / 5 or k >= 4096:
                break
            k *= 2
        out.append(max(1, round(seconds * k / dt)))
    return out


def lesson_workload(lanes) -> tuple[int, list[int]]:
    """Size and products per lane for the notebooks: the book's on GPUs, about 0.1 s per lane on CPUs.

    A notebook must run top to bottom in about a minute on a 2-core CPU, so CPU lanes get
    800 x 800 (10 products: about 0.1 s per lane there); GPU + CPU lanes are balanced.
    """
    if all(lane.kind == 'gpu' for lane in lanes):
        return BOOK_SIZE, [BOOK_ITERS] * len(lanes)
    if is_mixed(lanes):
        return MIXED_SIZE, balanced_iters(lanes, MIXED_SIZE, 0.25)
    return 800, [CPU_ITERS] * len(lanes)
