"""Sizes and iteration counts for the book's workloads (13.3.1, 13.3.2): defaults from the hardware, validated by cost.

On GPUs the book's 4000 x 4000 and 50 products; on CPU lanes a size for about a second per `run`; GPU + CPU lanes
get products balanced so both matter. Input whose results (and their bookkeeping, which dominates for tiny
matrices) do not fit in memory is refused before anything runs; every workload carries a run-time estimate
calibrated here through the lanes' backend.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .backends import backend
from .errors import RunTooLong, UsageError
from .frameworks import framework
from .i18n import t
from .lanes import faked_gpus
from .machine import free_host_bytes, positive_int

BOOK_SIZE, BOOK_ITERS = 4000, 50
CPU_ITERS = 10
LESSON_CPU_SIZE = 800  # notebooks on a 2-core CPU: about 0.1 s per lane for 10 products
MIXED_SIZE = 2000  # GPU + CPU lanes: big enough to keep the GPU busy, small enough for the CPU
# fp32 matrix-product rate of one core, used only to pick a default size: 10 products of
# 1200 x 1200 took 0.36 s on one thread of the 2-core AMD EPYC CI machine (about 95 GFLOP/s, MKL,
# AVX-512); older cores are slower, and the default then takes longer than a second.
CPU_FLOPS_PER_CORE = 90e9
# Memory per result beyond its numbers: about 550 bytes per PyTorch tensor measured here (tensor,
# storage and Python object), allocations rounded up to 512 bytes (CUDA's caching allocator).
RESULT_OVERHEAD_BYTES, ALLOCATION_BYTES = 1024, 512
HEADROOM = 0.8  # keep a fifth of free memory for the framework's own buffers


@dataclass
class Workload:
    """A validated workload (13.3.1, 13.3.2): matrix size, products per lane, estimated seconds of one pass."""
    size: int
    iters: list[int]
    estimated_seconds: float  # every lane's products once, one lane after the other (calibrated here)
    calibration: list[tuple[float, float]] = field(default_factory=list)  # per lane: (FLOP/s, seconds per call)


def is_mixed(lanes) -> bool:
    """True when GPU and CPU lanes are used together (their speeds differ a hundredfold)."""
    return len({lane.kind for lane in lanes}) > 1


def _default_cpu_size(lanes, seconds: float = 1.0) -> int:
    threads = min(max(1, lane.threads) for lane in lanes if lane.kind == 'cpu')
    if any(framework(lane.framework).one_core_per_product for lane in lanes):
        threads = 1  # e.g. OMP_NUM_THREADS=1 in the MXNet worker: each product runs on one core
    n = (seconds * CPU_FLOPS_PER_CORE * threads / (2 * CPU_ITERS)) ** (1 / 3)
    return int(max(100, round(n / 100) * 100))


def _free_bytes(lane) -> int:
    if lane.kind == 'gpu' and faked_gpus():
        return 80 << 30  # a stand-in GPU (tests): an 80 GiB card
    gpu_free = framework(lane.framework).gpu_free_bytes
    if lane.kind == 'gpu' and gpu_free is not None:
        return gpu_free(lane.index)
    return free_host_bytes()


def _result_bytes(n: int) -> int:
    return math.ceil(n * n * 4 / ALLOCATION_BYTES) * ALLOCATION_BYTES


def _held(lanes, counts) -> dict:
    """(framework, kind, gpu index) -> [a lane there, results held there, results kept track of there]."""
    places: dict = {}
    host = ('host', 'cpu', 0)
    for lane, count in zip(lanes, counts):
        place = (lane.framework, 'gpu', lane.index) if lane.kind == 'gpu' else host
        places.setdefault(place, [lane, 0, 0])[1] += count
        places.setdefault(host, [lane, 0, 0])[2] += count  # bookkeeping lives on the host
    return places


def _fits(n: int, places: dict) -> bool:
    return all(results * _result_bytes(n) + bookkept * RESULT_OVERHEAD_BYTES <= HEADROOM * _free_bytes(lane)
               for lane, results, bookkept in places.values())


def _largest_size(n: int, places: dict) -> int:
    """The largest size below n whose results fit everywhere, or 0 when no size helps (bookkeeping alone fills it)."""
    fit = min(int(math.sqrt(max(0.0, HEADROOM * _free_bytes(lane) - bookkept * RESULT_OVERHEAD_BYTES) / (4 * results)))
              if results else n for lane, results, bookkept in places.values())
    fit = min(fit, n - 1)
    while fit >= 1 and not _fits(fit, places):  # each result takes at least one allocation
        fit = min(fit - 1, int(fit * 0.95))
    return max(fit, 0)


def _most_iters(n: int, lanes, extra: int) -> int:
    """The most products per lane (the same on every lane) whose results and bookkeeping fit everywhere."""
    per_lane = _held(lanes, [1] * len(lanes))  # bytes per product per lane at each place
    return max(1, min(int(HEADROOM * _free_bytes(lane) / (r * _result_bytes(n) + b * RESULT_OVERHEAD_BYTES))
                      for lane, r, b in per_lane.values()) - extra)


def _check_memory(n: int, ks: list[int], lanes, extra: int) -> None:
    places = _held(lanes, [k + extra for k in ks])
    for (_, kind, index), (lane, results, bookkept) in places.items():
        free = HEADROOM * _free_bytes(lane)
        need = results * _result_bytes(n) + bookkept * RESULT_OVERHEAD_BYTES
        if need <= free:
            continue
        where = t('core.where_gpu', index=index) if kind == 'gpu' else t('core.where_host')
        fields = dict(size=n, iters=max(ks), need=need / 2**30, where=where, free=free / HEADROOM / 2**30)
        # a smaller size helps only if it is below the one asked for and then fits everywhere;
        # otherwise fewer products is what the learner can change (tiny matrices: bookkeeping)
        fit = _largest_size(n, places)
        if fit:
            raise UsageError(t('core.memory_size', fit=fit, **fields))
        raise UsageError(t('core.memory_iters', option='--iters', fit=_most_iters(n, lanes, extra), **fields))


_RATES: dict = {}  # (framework, kind, index, threads) -> (FLOP/s of one product, seconds per call)


def lane_speed(lane, work=None) -> tuple[float, float]:
    """(FLOP/s, fixed seconds per product) of one lane, measured once per process; `work`: its Backend (default its
    framework's)."""
    key = (lane.framework, lane.kind, lane.index, lane.threads)
    if lane.kind == 'gpu' and faked_gpus():
        return 20e12, 10e-6  # a stand-in GPU (tests): nothing to measure
    if key not in _RATES:
        from .timing import measure
        work = work or backend(lane.framework)
        n, k = (2048, 8) if lane.kind == 'gpu' else (256, 4)
        x, tiny = work.random_matrix(lane, n), work.random_matrix(lane, 8)
        big = measure(lambda: work.run_on_lanes([lane], [lambda: work.run(x, k)]), lanes=[lane], repeats=3)
        calls = measure(lambda: work.run_on_lanes([lane], [lambda: work.run(tiny, 100)]), lanes=[lane], repeats=3)
        per_call = min(calls.times) / 100
        _RATES[key] = (2 * n ** 3 / max(min(big.times) / k - per_call, 1e-9), per_call)
    return _RATES[key]


def _seconds(n: int, speed: tuple[float, float]) -> float:
    return 2 * n ** 3 / speed[0] + speed[1]


def balanced_iters(lanes, n: int, seconds: float = 0.5, work=None) -> list[int]:
    """Products per lane so that each lane alone takes about `seconds` (GPU + CPU lanes, 13.3.1): each lane is timed
    with products doubled until the timing covers a fifth of `seconds` (two sub-millisecond GPU products would
    time mostly the wait), then scaled. `work`: as lane_speed."""
    from .timing import measure
    work = work or backend(lanes[0].framework)
    out = []
    for lane in lanes:
        x = work.random_matrix(lane, n)
        k = 2
        while True:
            dt = measure(lambda lane=lane, x=x, k=k: work.run_on_lanes([lane], [lambda: work.run(x, k)]),
                         lanes=[lane], repeats=1, warmup=1 if k == 2 else 0).times[0]
            if dt >= seconds / 5 or k >= 4096:
                break
            k *= 2
        out.append(max(1, round(seconds * k / dt)))
    return out


def resolve_workload(lanes, size=None, iters=None, *, lesson: bool = False, extra_matrices: int = 2,
                     work=None) -> Workload:
    """Size and products per lane from the hardware (or the learner), validated and costed (13.3.1, 13.3.2).

    `iters`: one count or one per lane; `lesson=True`: the notebooks' smaller CPU default; `extra_matrices`: the other
    n x n arrays alive during the run (inputs, copy buffers); `work`: the lanes' Backend (default their framework's).
    """
    lanes = list(lanes)
    gpus_only = all(lane.kind == 'gpu' for lane in lanes)
    if size is None:
        size = BOOK_SIZE if gpus_only else MIXED_SIZE if is_mixed(lanes) else \
            LESSON_CPU_SIZE if lesson else _default_cpu_size(lanes)
    n = positive_int(size, t('core.what_size'), option='--size', example=1000)
    if iters is None and is_mixed(lanes):  # GPU + CPU: balance the work so both lanes matter
        _check_memory(n, [1] * len(lanes), lanes, extra_matrices)
        iters = balanced_iters(lanes, n, 0.25 if lesson else 0.5, work)
        # a fast GPU's share can outgrow its free memory (an 80 GB H100 with a lesson's tensors alive): fewer
        # products on every lane, in the same ratio, so the lanes stay balanced and the results fit
        balanced, scale = iters, 1.0
        while max(iters) > 1 and not _fits(n, _held(lanes, [k + extra_matrices for k in iters])):
            scale *= 0.8
            iters = [max(1, round(k * scale)) for k in balanced]
    elif iters is None:
        iters = BOOK_ITERS if gpus_only else CPU_ITERS
    ks = list(iters) if isinstance(iters, (list, tuple)) else [iters] * len(lanes)
    if len(ks) != len(lanes):
        raise UsageError(t('core.iters_per_lane', lanes=len(lanes)))
    ks = [positive_int(k, t('core.what_iters'), option='--iters', example=10) for k in ks]
    _check_memory(n, ks, lanes, extra_matrices)
    speeds = [lane_speed(lane, work) for lane in lanes]
    return Workload(n, ks, sum(k * _seconds(n, s) for k, s in zip(ks, speeds)), speeds)


def _duration(seconds: float) -> str:
    if seconds < 120:
        return t('core.duration_s', value=seconds if seconds < 10 else round(seconds))
    return t('core.duration_min', value=seconds / 60) if seconds < 7200 else t('core.duration_h', value=seconds / 3600)


def check_budget(workload: Workload, limit_s: float, what: str, *, passes: int = 1,
                 size_option: str = '--size', iters_option: str = '--iters', hint: str | None = None) -> None:
    """Refuse a run estimated above `limit_s` with RunTooLong: the estimate and a smaller valid choice (CLI, widgets).

    `what` names the run ('this run'); `passes` is how often the experiment runs the whole workload
    (warm-up, repeats, each lane alone and together); `hint` is one more way out, added at the end
    (the CLI's 'or pass --yes').
    """
    total = passes * workload.estimated_seconds
    if total <= limit_s:
        return
    per_product = passes * sum(_seconds(workload.size, s) for s in workload.calibration)
    k = int(limit_s / per_product)
    if k >= 1:
        suggestion = t('core.suggest_iters', option=iters_option, iters=k, estimate=_duration(k * per_product))
    else:
        n = workload.size
        while n > 1 and passes * sum(_seconds(n, s) for s in workload.calibration) > limit_s:
            n = max(1, int(n * 0.8))
        suggestion = t('core.suggest_size', option=size_option, size=n, iters_option=iters_option)
    message = t('core.too_long', what=what, estimate=_duration(total), limit=_duration(limit_s), suggestion=suggestion)
    raise RunTooLong(message + (t('core.and_hint', hint=hint) if hint else ''))
