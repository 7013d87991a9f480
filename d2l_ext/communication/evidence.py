"""13.3.2's evidence on lanes already chosen: stream timelines, the book's cold first copy, and exercise 3 (compute,
copy and a second lane at once)."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..backends import backend
from ..checking import check_close
from ..i18n import t
from ..machine import cpu_cores, positive_int
from ..results import Result, Times, timing_row
from ..timing import compare, settle
from ..workloads import resolve_workload
from .tracing import CommTimeline  # noqa: F401 (re-exported: the package's results)

# The timelines a recording keeps: the book's non_blocking copy and the two fixes (13.3.2).
TIMELINE_PLANS = ('book: copy_to_cpu(y, non_blocking=True)', 'pinned, preallocated, same stream',
                  'pinned, preallocated, copy stream + events')


def measure_comm_timelines(lanes, size=None, iters=None, plans=TIMELINE_PLANS, *,
                           lesson: bool = True) -> list[CommTimeline]:
    """One measured timeline per copy plan after a warm-up (GPU); the copy-thread analogue on a CPU."""
    from ..backends.torch_backend import intra_op_threads
    from .copying import GPU_PLANS, overlap_timeline, run_and_copy
    lane = lanes[0]
    if lane.kind == 'cpu':  # the timed task's thin products (tracing.setting), run_and_copy itself
        from .tracing import setting, traced_run
        s = setting(lane)
        with intra_op_threads(lane.threads):
            traced_run(run_and_copy, lane)  # warm-up
            settle()  # the warm-up's idle threads stop spinning before the traced run
            events = traced_run(run_and_copy, lane)['events']
        return [CommTimeline('cpu_analogue', lane.name, s.n, s.iters, events, 'thread clock', inner=s.inner)]
    wl = resolve_workload([lane], size, iters, lesson=lesson, extra_matrices=3)
    n, k = wl.size, wl.iters[0]
    x = backend('torch').random_matrix(lane, n)
    out = []
    for name in plans:
        overlap_timeline(x, min(k, 3), GPU_PLANS[name])  # warm-up
        out.append(CommTimeline(name, lane.name, n, k, overlap_timeline(x, k, GPU_PLANS[name]), 'cuda events'))
    return out


@dataclass
class FirstCopyResult(Result):
    """The book's `copy_to_cpu(y, non_blocking=True)`: first call (new pinned memory) vs later calls (reused blocks),
    and copies into pinned buffers allocated once (`reused`, timed interleaved with the later calls)."""
    area = 'communication'
    lane: str
    size: int = 0
    iters: int = 0
    cold: float | None = None
    warm: Times | None = None
    reused: Times | None = None  # None in recordings made before it was measured
    reason: str | None = None  # a catalogue key when there is nothing to show here
    experiment: str = 'first-copy'

    def table_rows(self):
        rows = [timing_row(m, variant=v) for v, m in (('warm', self.warm), ('reused', self.reused)) if m is not None]
        return ([dict(variant='cold', median=self.cold)] if self.cold is not None else []) + rows


def measure_first_copy(lanes, size=None, iters=None, repeats: int = 5) -> FirstCopyResult:
    """The book's non_blocking copy the first time in this process (page-locking new host memory per result), then
    warm (reusing PyTorch's cached pinned blocks) beside copies into pinned buffers allocated once; GPU lanes only,
    in a fresh worker."""
    lane = lanes[0]
    if lane.kind != 'gpu':
        return FirstCopyResult(lane.name, reason='communication.first_copy.no_gpu')
    work = backend('torch')
    wl = resolve_workload([lane], size, iters, extra_matrices=3)
    n, k = wl.size, wl.iters[0]
    x = work.random_matrix(lane, n)
    ref = work.reference_product(x).cpu()
    ys = work.run(x, k)
    work.wait([lane])
    start = time.perf_counter()
    first = work.copy_to_cpu(ys, True)
    work.wait([lane])
    cold = time.perf_counter() - start
    check_close(first, ref, t('communication.check.first_copy'))
    del first
    from .copying import PINNED_SAME_STREAM, Copier
    once = Copier(PINNED_SAME_STREAM, n, k, lane.device())
    errors = []
    c = compare({'warm': lambda: work.copy_to_cpu(ys, True), 'reused': lambda: once.copy(ys)}, lanes=[lane],
                repeats=positive_int(repeats, 'repeats', option='repeats', example=5), warmup=0,
                check=lambda name, r: errors.append(check_close(r, ref, t('communication.check.warm_copy'))))
    return FirstCopyResult(lane.name, n, k, cold, Times.of(c.measurements['warm']),
                           Times.of(c.measurements['reused']))


@dataclass
class ExerciseThreeResult(Result):
    """Exercise 3: lane 1 computes and copies its results to the host while lane 2 computes."""
    area = 'communication'
    lanes: list[dict]  # the lanes' ids (Lane.as_dict): display makes their labels
    size: int
    iters: list[int]
    times: dict[str, Times]
    serial_sum: float
    expected: float
    expectation: str  # a parallel.core rule
    max_rel_error: float
    lane_threads: list[int] = field(default_factory=list)  # threads each lane computes with (a GPU lane's: 1)
    copy_threads: int = 0  # 1 when lane 0 is a CPU lane: its copy thread wants a core too
    cores: int = 0  # the CPU cores those threads share
    experiment: str = 'exercise-3'

    def table_rows(self):
        rows = [timing_row(m, variant=name) for name, m in self.times.items()]
        return rows + [dict(variant=f'expected.{self.expectation}', median=self.expected)]  # no t1 + t2: not a baseline


ALONE = ('lane1_compute_and_copy', 'lane2_compute')


def measure_exercise_three(lanes, size=None, iters=None, repeats: int = 3) -> ExerciseThreeResult:
    """Three resources at once: lane 1's compute, the link (or a copy thread), lane 2 (PyTorch)."""
    from ..parallel.core import expectation, whole_device
    from .copying import PINNED_SIDE_STREAM, Copier, in_order
    work = backend('torch')
    wl = resolve_workload(lanes, size, iters, lesson=True, extra_matrices=3)
    n, ks = wl.size, list(wl.iters)
    x1, x2 = (work.random_matrix(lane, n, seed=i) for i, lane in enumerate(lanes[:2]))
    copier = Copier(PINNED_SIDE_STREAM if lanes[0].kind == 'gpu' else None, n, ks[0], lanes[0].device(),
                    _threads(lanes[0]))
    jobs = [lambda: copier.run_and_copy(x1, ks[0]), lambda: work.run(x2, ks[1])]
    refs = [work.reference_product(x1).cpu(), work.reference_product(x2)]
    whole = whole_device(lanes[0])  # the baseline: lane 1's products, then lane 0's job, on lane 0's whole device
    own = (lambda: in_order(x1, x1, copier.buffers)) if copier.plan is None else lambda: copier.run_and_copy(x1, ks[0])
    whole_job = lambda: work.run(x1, ks[1]) + own()  # noqa: E731 (a CPU: every core computes, each copy in order)
    variants = {'lane1_compute_and_copy': lambda: work.run_on_lanes(lanes[:1], jobs[:1]),
                'lane2_compute': lambda: work.run_on_lanes(lanes[1:2], jobs[1:]),
                'together': lambda: work.run_on_lanes(lanes[:2], jobs),
                'baseline': lambda: work.run_on_lanes([whole], [whole_job])}
    errors = []

    def check(name, results):
        which = {'lane1_compute_and_copy': [0], 'lane2_compute': [1], 'together': [0, 1], 'baseline': [0]}[name]
        what = t('communication.check.ex3', variant=name)
        results = [[y.cpu() for y in results[0]]] if name == 'baseline' else results  # a GPU's products too
        errors.extend(check_close(r, refs[i], what) for i, r in zip(which, results))
    reps = positive_int(repeats, 'repeats', option='repeats', example=3)
    c = compare(variants, lanes=lanes[:2], repeats=reps, check=check)
    times = {name: Times.of(m, name) for name, m in c.measurements.items()}
    alone = [times['lane1_compute_and_copy'].median, times['lane2_compute'].median]
    exp = expectation(lanes[:2], alone)
    threads, copy_threads, cores = [_threads(ln) for ln in lanes[:2]], int(lanes[0].kind == 'cpu'), cpu_cores()
    serial = Times('serial_sum', [x + y for x, y in zip(*(times[k].repeated() for k in ALONE))])  # repeat by repeat
    return ExerciseThreeResult([ln.as_dict() for ln in lanes[:2]], n, ks, times, serial.median, exp.seconds, exp.rule,
                               max(errors), threads, copy_threads, cores)


def _threads(lane) -> int:
    """Threads a lane keeps busy on the CPU: a CPU lane its intra-op threads, a GPU lane the one that issues work."""
    return max(1, lane.threads) if lane.kind == 'cpu' else 1
