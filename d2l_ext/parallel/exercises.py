"""13.3.1 exercises on chosen lanes: independence (ex. 1), small products (ex. 2), the book's synchronize() mistake."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..backends import backend
from ..checking import check_close
from ..frameworks import framework
from ..frameworks.mxnet_framework import cpu_workers  # MXNet's engine workers per CPU context (one core each)
from ..i18n import t
from ..machine import cpu_cores, positive_int
from ..results import Result, Times, timing_row
from ..timing import compare
from ..workloads import resolve_workload


def _rows_with_ratio(times: dict[str, Times], baseline: str) -> list[dict]:
    """One row per variant, with how many times faster than `baseline` it ran."""
    return [timing_row(m, variant=name, ratio=times[baseline].median / m.median) for name, m in times.items()]


VARIANTS = ('one_at_a_time', 'issued_together', 'one_lane', 'one_thread', 'two_streams', 'two_threads', 'batched',
            'cuda_graph', 'one_core')  # exercises 1 and 2's variants, each labelled by parallel.variant.<variant>


def _what(exercise: int, variant: str) -> str:
    """What a mismatch error names (exercises 1 and 2): the exercise and the variant's label."""
    return t('parallel.check.exercise', number=exercise, variant=t(f'parallel.variant.{variant}'))


@dataclass
class IndependenceResult(Result):
    """Exercise 1: K independent products issued together vs one at a time (with a wait after each)."""
    framework: str
    lane: dict  # the lane's ids (Lane.as_dict); labelled where shown
    engine: str
    threads: int  # 0 for a GPU lane, whose work no CPU thread count describes
    size: int
    iters: int
    times: dict[str, Times]
    ratio: float  # one at a time / issued together: well above 1 means the framework overlapped them
    max_rel_error: float
    kind: str = 'cpu'  # the lane's kind: on a GPU lane the two variants differ in the waits they make
    at_once: int = 1  # products the framework can run at once here (the prediction): its CPU engine's workers
    workers: int = 0  # MXNet's engine workers per CPU context (its setting), 0 where no engine pool runs them
    experiment: str = 'independence'

    def table_rows(self):
        return _rows_with_ratio(self.times, 'one_at_a_time')


def measure_independence(lanes, size: int = 400, iters: int = 10, repeats: int = 3, threads: int | None = None):
    """Exercise 1 on the first lane: does the framework overlap one `run`'s products by itself? `threads`: a PyTorch
    CPU lane's intra-op threads (else the lane's share)."""
    lane, work = lanes[0], backend(lanes[0].framework)
    wl = resolve_workload([lane], size, iters)
    k, x = wl.iters[0], work.random_matrix(lane, wl.size)
    ref, errors = work.reference_product(x), []

    def one_at_a_time():
        out = []
        for _ in range(k):
            out += work.run(x, 1)
            work.wait([lane])
        return out
    variants = {'one_at_a_time': one_at_a_time, 'issued_together': lambda: work.run(x, k)}
    with _lane_threads(lane, threads):  # the label states the threads: keep to them
        c = compare(variants, lanes=[lane], repeats=positive_int(repeats, 'repeats', option='repeats', example=3),
                    check=lambda name, ys: errors.append(check_close(ys, ref, _what(1, name))))
    threads = 0 if lane.kind == 'gpu' else threads or lane.threads  # as _lane_threads set them
    times = {name: Times.of(m, name) for name, m in c.measurements.items()}
    engine = framework(lane.framework).engine()
    workers = 0 if lane.kind != 'cpu' or engine in ('eager', 'NaiveEngine') else cpu_workers()
    return IndependenceResult(lane.framework, lane.as_dict(), engine, threads, wl.size, k, times,
                              times['one_at_a_time'].median / times['issued_together'].median, max(errors),
                              lane.kind, min(workers, cpu_cores(), k) if workers else 1, workers)


def _lane_threads(lane, threads=None):
    """A CPU lane of a framework that computes in the calling thread (PyTorch): `threads` or its own, for a while."""
    import contextlib
    if framework(lane.framework).cpu_queued or lane.kind != 'cpu':
        return contextlib.nullcontext()
    from ..backends.torch_backend import intra_op_threads
    return intra_op_threads(threads or lane.threads)


@dataclass
class SmallOpsResult(Result):
    """Exercise 2: many small products on ONE device against one thread: two threads or streams, bmm, a CUDA Graph."""
    device: str
    kind: str  # 'gpu' or 'cpu'
    size: int
    products: int
    cores: int
    times: dict[str, Times]
    max_rel_error: float
    threads: int = 0  # each of the two threads' share of the cores (CPU)
    experiment: str = 'small-ops'

    def table_rows(self):
        return _rows_with_ratio(self.times, next(iter(self.times)))  # against the control, the first


def measure_small_ops(lanes, size: int = 64, iters: int = 400, repeats: int = 3) -> SmallOpsResult:
    """Exercise 2 (PyTorch), tiny products on one device: one lane (the control), two streams, bmm, a CUDA Graph
    (GPU); one thread on every core (the baseline), two threads on half of the cores each, bmm, one core (CPU)."""
    import torch

    from ..backends.torch_backend import intra_op_threads, run, run_on_lanes
    from ..lanes import make_lane
    lane = lanes[0]
    n = positive_int(size, t('core.what_size'), option='size', example=64)
    k = positive_int(iters, t('core.what_iters'), option='iters', example=400)
    x = torch.rand(n, n, generator=torch.Generator().manual_seed(0)).to(lane.device())
    ref = backend('torch').reference_product(x)
    batch = x.expand(2 * k, n, n)
    c = cpu_cores()
    variants = {'one_lane' if lane.kind == 'gpu' else 'one_thread': lambda: run(x, 2 * k)}
    if lane.kind == 'gpu':
        dev = lane.device()
        streams = [torch.cuda.Stream(dev), torch.cuda.Stream(dev)]

        def two_streams():
            out, main = [], torch.cuda.current_stream(dev)
            for s in streams:
                s.wait_stream(main)
                with torch.cuda.stream(s):
                    out += run(x, k)
            for s in streams:
                main.wait_stream(s)
            return out
        variants['two_streams'] = two_streams
        variants['batched'] = lambda: list(torch.bmm(batch, batch).unbind(0))
        variants['cuda_graph'] = _graph_replay(x, 2 * k, dev)
    else:
        halves = [make_lane('torch', 'cpu', i, threads=max(1, c // 2)) for i in range(2)]
        variants['two_threads'] = lambda: sum(run_on_lanes(halves, [lambda: run(x, k)] * 2), [])
        variants['batched'] = lambda: list(torch.bmm(batch, batch).unbind(0))
        one = [make_lane('torch', 'cpu', 0, threads=1)]  # the control: the baseline's job on one core
        variants['one_core'] = lambda: run_on_lanes(one, [lambda: run(x, 2 * k)])[0]
    errors = []
    with intra_op_threads(c if lane.kind == 'cpu' else 0):  # CPU: every row on the same cores, all of them
        cmp = compare(variants, lanes=[lane], repeats=positive_int(repeats, 'repeats', option='repeats', example=3),
                      check=lambda name, ys: errors.append(check_close(ys, ref, _what(2, name))))
    times = {name: Times.of(m, name) for name, m in cmp.measurements.items()}
    return SmallOpsResult(str(lane.device()), lane.kind, n, 2 * k, c, times, max(errors),
                          halves[0].threads if lane.kind == 'cpu' else 0)  # labelled as the lanes table labels them


def _graph_replay(x, products: int, dev):
    """A CUDA Graph of `products` products, captured once; each call replays it with one launch."""
    import torch
    side = torch.cuda.Stream(dev)
    side.wait_stream(torch.cuda.current_stream(dev))
    with torch.cuda.stream(side):  # warm up outside the capture, as torch.cuda.graphs asks
        [x.mm(x) for _ in range(3)]
    torch.cuda.current_stream(dev).wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = [x.mm(x) for _ in range(products)]
    return lambda: (graph.replay(), out)[1]  # one launch replays every product into `out`


@dataclass
class SyncMistakeResult(Result):
    """The book's torch.cuda.synchronize() (current device only) next to no wait and waiting for every device."""
    lanes: list[dict]  # the GPU lanes' ids (Lane.as_dict); labelled where shown
    size: int = 0
    iters: list[int] = field(default_factory=list)
    times: dict[str, Times] | None = None
    reason: str | None = None  # a catalogue key when there is nothing to show here
    experiment: str = 'sync-mistake'

    def table_rows(self):
        return [timing_row(m, variant=name) for name, m in (self.times or {}).items()]


def measure_sync_mistake(lanes, size=None, iters=None, repeats: int = 5) -> SyncMistakeResult:
    """Time `run` on the GPU lanes, then no wait / the book's synchronize() / every device (13.3.1)."""
    lanes = [lane for lane in lanes if lane.kind == 'gpu']
    if not lanes:  # PyTorch runs CPU work before returning: every way of waiting measures the same
        return SyncMistakeResult([], reason='parallel.sync.no_gpu')
    import torch
    work, wl = backend('torch'), resolve_workload(lanes, size, iters)
    xs = [work.random_matrix(lane, wl.size, seed=i) for i, lane in enumerate(lanes)]
    jobs = [(lambda x=x, k=k: work.run(x, k)) for x, k in zip(xs, wl.iters)]
    waits = sync_waits(lanes, torch)
    raw = {name: [] for name in waits}
    work.run_on_lanes(lanes, jobs)  # warm-up
    for _ in range(positive_int(repeats, 'repeats', option='repeats', example=5)):
        for name, wait in waits.items():  # interleaved, so drift hits every variant alike
            work.wait(lanes)
            start = time.perf_counter()  # until the wait returns: the mistake is what it waits for
            [job() for job in jobs]  # GPU lanes only: queued from this thread, as the book's cell does
            wait()
            raw[name].append(time.perf_counter() - start)
            work.wait(lanes)
    return SyncMistakeResult([ln.as_dict() for ln in lanes], wl.size, list(wl.iters),
                             {name: Times.from_times(ts, name) for name, ts in raw.items()})


def sync_waits(lanes, torch) -> dict:
    """The three ways to end the clock (13.3.1): none, the book's synchronize() (the current device only: the mistake
    shown on purpose), and every lane's GPU by index."""
    gpus = sorted({lane.index for lane in lanes if lane.kind == 'gpu'})
    return {'no_wait': lambda: None,
            'book_synchronize': lambda: torch.cuda.synchronize(torch.cuda.current_device()),  # the book's: current only
            'every_device': lambda: [torch.cuda.synchronize(g) for g in gpus]}
