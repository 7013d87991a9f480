"""13.3.2's measurement on a lane already chosen: run, copy, run then copy, overlapped; a row per copy mode (the
book's and the fixes on a GPU; a copy thread on a CPU), repeats interleaved, answers checked against float64."""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from ..backends import backend
from ..checking import check_close
from ..frameworks import framework
from ..i18n import t
from ..machine import cpu_cores, positive_int, provenance
from ..overlap import busy, overlap_fraction
from ..parallel.core import with_progress
from ..results import Result, Times, timing_row
from ..timing import compare
from ..workloads import check_budget, resolve_workload

VARIANTS = ('run', 'copy', 'run_then_copy', 'overlapped')


def copy_thread_rule(threads: int, cores: int | None = None) -> str:
    """Which closed form a CPU copy thread follows (13.3.2): 'own_core' when the computing threads leave it a core
    (threads + 1 <= cores), else 'shared' (it needs a core the computing threads already fill)."""
    cores = cores or cpu_cores()
    return 'own_core' if max(1, threads) + 1 <= cores else 'shared'


def expected_overlap(run: float, copy: float, rule: str, threads: int = 1, iters: int | None = None,
                     cores: int | None = None) -> float:
    """What run + copy issued together can take (13.3.2), by the rule: 'separate' (a copy engine) and 'own_core' (a
    free core copies) -> max(run, copy), plus min(run, copy) / iters with `iters` (the pipeline fills and drains);
    'one_stream' -> run + copy; 'shared' (a copy thread on cores the products fill) -> (min(threads, cores) x run +
    copy) / cores, at least max(run, copy); 'thread' -> one of the two CPU rules by copy_thread_rule."""
    cores = cores or cpu_cores()
    if rule == 'thread':
        rule = copy_thread_rule(threads, cores)
    tail = min(run, copy) / iters if iters else 0.0
    if rule in ('separate', 'own_core'):
        return max(run, copy) + tail
    if rule == 'shared':
        return max(run, copy, (min(max(1, threads), cores) * run + copy) / cores)
    return run + copy


def predicted_overlap(product_s: float, copy_s: float, iters: int) -> float:
    """Closed form: copy i runs beside product i + 1, so every copy but the last overlaps, for min(product, copy)."""
    return (iters - 1) * min(product_s, copy_s) / (iters * copy_s) if iters >= 1 and copy_s > 0 else 0.0


def copy_overlap(events) -> dict:
    """One run's copies against its products: interval overlap, its closed form (this run's medians), busy times, and
    'span', first traced start to last traced end (0 if none)."""
    compute, copies = ([(e['start'], e['end']) for e in events if e['role'] == r] for r in ('compute', 'copy'))
    both = compute + copies
    span = max(e for _, e in both) - min(s for s, _ in both) if both else 0.0
    measured = overlap_fraction(copies, compute)
    p, c = (statistics.median([e - s for s, e in iv]) if iv else 0.0 for iv in (compute, copies))
    return dict(measured=measured, predicted=predicted_overlap(p, c, len(copies)), compute_busy=busy(compute),
                copy_busy=busy(copies), copies=len(copies), products=len(compute), span=span)


@dataclass
class CommRow(Result):
    """One copy mode: medians of run, copy, run then copy and overlapped, what to expect, every repeat."""
    area = 'communication'
    mode: str
    plan: str
    lane: str
    run: float
    copy: float
    run_then_copy: float
    overlapped: float
    expected: float
    expectation: str  # the rule: 'separate', 'one_stream', 'own_core', 'shared' or 'engine'
    overlap_vs_expected: float
    copy_gbps: float
    copy_vs_link: float | None
    max_rel_error: float
    times: dict[str, Times] = field(default_factory=dict)

    def table_rows(self):
        return [timing_row(self.times[v], mode=self.mode, variant=v) for v in VARIANTS if v in self.times]


@dataclass
class CommResult(Result):
    """13.3.2 on one lane: a row per copy mode, and the link's plain copy speed (None without a GPU)."""
    area = 'communication'
    framework: str
    size: int
    iters: int
    repeats: int
    lane: dict
    has_link: bool
    link_gbps: dict | None
    rows: list[CommRow]
    machine: dict = field(default_factory=dict)
    experiment: str = 'comm'

    def details(self, title: str | None = None):
        """Every variant of every copy mode: median, IQR, min, max and every repeat, collapsed until opened."""
        from ..results import Details, frame
        return Details(frame([row for r in self.rows for row in r.table_rows()], self.area), title)

    def table_rows(self):
        return [dict(mode=r.mode, run=r.run, copy=r.copy, run_then_copy=r.run_then_copy, overlapped=r.overlapped,
                     expected=r.expected, expectation=r.expectation, copy_gbps=r.copy_gbps,
                     max_rel_error=r.max_rel_error) for r in self.rows]


def _row(mode, plan, rule, lane, n, k, c, errors, link=None, threads=1) -> CommRow:
    times = {name: Times.of(c.measurements[name], name) for name in VARIANTS}
    run, copy = times['run'].median, times['copy'].median
    expected = expected_overlap(run, copy, rule, threads, iters=k)
    gbps = k * n * n * 4 / copy / 1e9
    return CommRow(mode, plan, lane.name, run, copy, times['run_then_copy'].median, times['overlapped'].median,
                   expected, rule, times['overlapped'].median / expected, gbps, gbps / link if link else None,
                   max(errors), times)


def _compare_mode(work, lane, x, k, ref, copy, run_and_copy, repeats, what, wait, progress=None):
    """The four variants of one copy mode, interleaved, each checked."""
    ys = work.run(x, k)
    wait()

    def run_then_copy():
        out = work.run(x, k)
        wait()  # the copy starts only when every product is done
        return copy(out)
    variants = {'run': lambda: work.run(x, k), 'copy': lambda: copy(ys), 'run_then_copy': run_then_copy,
                'overlapped': run_and_copy}
    # compare holds each variant's last result while the next ones run: hold them all once, untimed, first, so new
    # pinned tensors per result do not page-lock more host memory inside the first timed repeats.
    held = [v() for v in variants.values()]
    wait()
    del held
    errors = []
    c = compare(with_progress(variants, repeats, progress), lanes=[lane], repeats=repeats,
                check=lambda name, r: errors.append(check_close(r, ref, f'{what} ({name})')))
    return c, errors


def _torch_rows(lane, n, k, repeats, plan=None, progress=None):
    import torch

    from .copying import GPU_PLANS, Copier, CopyPlan, link_bandwidth
    work = backend('torch')
    x = work.random_matrix(lane, n)
    ref = work.reference_product(x).cpu()
    wait = lambda: work.wait([lane])  # noqa: E731
    link = link_bandwidth(lane.device(), n) if lane.kind == 'gpu' else None  # no link on a CPU-only machine
    plans = {'cpu_analogue': None} if link is None else {'widget': CopyPlan(**plan)} if plan else dict(GPU_PLANS)
    rows = []
    for mode, p in plans.items():  # on a CPU, a second thread copying is the honest analogue (plan None)
        copier = Copier(p, n, k, lane.device(), lane.threads if p is None else 1)
        what = t('communication.mode.cpu_analogue') if p is None else p.describe()
        c, errors = _compare_mode(work, lane, x, k, ref, copier.copy, lambda cp=copier: cp.run_and_copy(x, k),
                                  repeats, what, wait, progress)
        rule = copy_thread_rule(lane.threads) if p is None else 'separate' if p.stream == 'side' else 'one_stream'
        rows.append(_row(mode, 'copy_thread' if p is None else p.describe(), rule, lane, n, k, c, errors,
                         link and link['pinned'], threads=lane.threads if p is None else 1))  # 'widget': panel's plan
        del copier  # free this mode's buffers before the next mode allocates its own
        if link is not None:
            torch.cuda.empty_cache()
    return rows, link


def _engine_rows(lane, n, k, repeats, progress=None):
    work = backend(lane.framework)
    x = work.random_matrix(lane, n)
    ref = work.reference_product(x)
    wait = lambda: work.wait([lane])  # noqa: E731
    rows = []
    # The framework's engine orders each copy after its product (MXNet's copyto): on MXNet's CPU build
    # both destinations are host memory, one engine worker copies y[i-1] while another computes y[i].
    for mode, pinned in (('copyto(npx.cpu())', False), ('copyto(npx.cpu_pinned())', True)):
        copy = lambda ys, p=pinned: work.copy_to_cpu(ys, p)  # noqa: E731
        c, errors = _compare_mode(work, lane, x, k, ref, copy, lambda c=copy: c(work.run(x, k)), repeats, mode, wait,
                                  progress)
        rows.append(_row(mode, 'engine_new_array', 'engine', lane, n, k, c, errors))
    return rows, None


def measure_comm(lanes, size=None, iters=None, repeats: int = 5, *, plan: dict | None = None,
                 lesson: bool = False, progress=None, max_seconds: float | None = None,
                 options=('--size', '--iters')) -> CommResult:
    """13.3.2 on the first lane (the GPU if there is one), every copy mode this hardware has; `max_seconds` refuses
    a longer run (UsageError suggesting `options`)."""
    lane = lanes[0]
    wl = resolve_workload([lane], size, iters, lesson=lesson, extra_matrices=3)
    n, k = wl.size, wl.iters[0]
    repeats = positive_int(repeats, 'repeats', option='--repeats', example=3)
    # A framework computing in the caller's thread (PyTorch) gets explicit copy plans; an engine that queues work
    # (MXNet) orders its copies itself (read from its description).
    explicit = not framework(lane.framework).cpu_queued
    if max_seconds is not None:  # per mode: run, run then copy, overlapped (copies extra), after a warm-up
        from .copying import GPU_PLANS  # imports torch: only where PyTorch's plans run
        modes = 1 if plan or lane.kind != 'gpu' else 2 if not explicit else len(GPU_PLANS)
        check_budget(wl, max_seconds, t('parallel.what'), passes=3 * modes * (repeats + 1),
                     size_option=options[0], iters_option=options[1])
    if explicit:
        from ..backends.torch_backend import intra_op_threads
        # CPU analogue: the computing thread keeps to its lane's share, leaving a core to copy
        with intra_op_threads(lane.threads if lane.kind == 'cpu' else 0):
            rows, link = _torch_rows(lane, n, k, repeats, plan, progress)
    else:
        rows, link = _engine_rows(lane, n, k, repeats, progress)
    return CommResult(lane.framework, n, k, repeats, lane.as_dict(), lane.kind == 'gpu', link, rows, provenance())
