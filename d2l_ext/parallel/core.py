"""13.3.1's measurements on chosen lanes (in the framework's worker): each lane alone, all together, what to expect."""
from __future__ import annotations

import itertools
import statistics
from dataclasses import dataclass, field

from ..backends import backend, split_row
from ..checking import check_close
from ..frameworks import framework as framework_of_lanes
from ..i18n import language, t, text_in
from ..lanes import Lane, label_of, make_lane
from ..machine import cpu_cores, positive_int, provenance
from ..results import Result, Times, timing_row
from ..timing import compare
from ..workloads import check_budget, resolve_workload


@dataclass
class Expectation:
    """The together-time the hardware allows and its rule (13.3.1): 'separate' hardware -> max(lane times); CPU lanes
    'shared' on `cores` cores, `threads` each -> at most `ways` at once; 'engine' (MXNet's spreads one lane over
    every core) -> no gain. The framework's `shared_cpu_rule` picks between the last two."""
    seconds: float
    speedup: float
    rule: str
    ways: int
    cores: int
    threads: int


def expectation(lanes, seconds: list[float], cores: int | None = None) -> Expectation:
    """Expected together-time of lanes that took `seconds` alone (13.3.1, 13.3.2 ex. 3): per hardware group (each
    GPU, the CPU) max(max(times), sum(times) / ways), groups side by side."""
    cores = cores or cpu_cores()
    groups: dict = {}
    for lane, s in zip(lanes, seconds):
        groups.setdefault(('gpu', lane.index) if lane.kind == 'gpu' else ('cpu',), []).append((lane, s))
    rule, ways, threads, expected = 'separate', len(lanes), 0, 0.0
    for key, members in groups.items():
        times, n = [s for _, s in members], len(members)
        group_ways = n if key != ('cpu',) else 1
        if key == ('cpu',) and n > 1:  # 'engine': each context's engine pool already uses every core
            threads = max(max(1, lane.threads) for lane, _ in members)
            rule = framework_of_lanes(members[0][0].framework).shared_cpu_rule
            group_ways = ways = min(ways, 1 if rule == 'engine' else max(1, min(n, cores // threads)))
        expected = max(expected, max(times), sum(times) / group_ways)
    return Expectation(expected, sum(seconds) / expected, rule, ways, cores, threads)


def whole_device(lane: Lane, cores: int | None = None) -> Lane:
    """The baseline's lane: `lane`'s device, all of it (a CPU lane: one lane with all `cores` or its own; else it)."""
    cores = cores or lane.cores or cpu_cores()
    return make_lane(lane.framework, 'cpu', 0, threads=cores, name='cpu', cores=cores,
                     label_key='core.lane_cpu_all_label') if lane.kind == 'cpu' else lane


def row_variants(runner, lanes, jobs, whole=None, whole_job=None) -> dict:
    """Each lane alone, together and (with `whole`) the baseline, `whole` doing `whole_job`; every row run by
    `runner(lanes, jobs)`: the backend's in measure_parallel, the learner's run_together in lane_rows (no "one after
    the other" row: neither draws it; 13.3.0's figure adds the lanes' repeats instead)."""
    rows = {**{lane.name: (lambda i=i: runner(lanes[i:i + 1], jobs[i:i + 1])) for i, lane in enumerate(lanes)},
            'together': lambda: runner(lanes, jobs)}
    return rows if whole is None else {**rows, 'all_cores': lambda: runner([whole], [whole_job])}


@dataclass
class ParallelResult(Result):
    """13.3.1: every lane alone, all lanes together (every repeat, interleaved), checked answers."""
    framework: str
    size: int
    iters: list[int]
    repeats: int
    lanes: list[dict]
    lane_times: list[Times]
    together: Times
    serial_sum: float
    expected: float
    expected_speedup: float
    expectation: Expectation
    speedup: float
    tflops_per_lane: list[float]
    max_rel_error: float
    correct: bool = True
    machine: dict = field(default_factory=dict)
    experiment: str = 'parallel'
    baseline: Times | None = None  # one device doing every lane's products (measure_parallel's `baseline`)
    baseline_cores: int = 0  # lanes sharing cores: the baseline is one lane with all these cores
    baseline_lane: dict | None = None  # separate hardware: the baseline is this lane (the first) alone (its ids)
    timeline: TimelineResult | None = None  # the "together" repeat timed as the median (backends that keep intervals)

    def table_rows(self):
        rows = [timing_row(m, variant=Lane.from_dict(lane).label, products=lane['iters'])
                for lane, m in zip(self.lanes, self.lane_times)]
        rows += [dict(variant='serial_sum', median=self.serial_sum), timing_row(self.together, variant='together'),
                 dict(variant=f'expected.{self.expectation.rule}', median=self.expected)]
        if self.baseline is not None:
            rows.append(timing_row(self.baseline, variant='all_cores' if self.baseline_lane is None else 'both_jobs',
                                   cores=self.baseline_cores))
        return rows


def measure_parallel(lanes, size=None, iters=None, repeats: int = 5, *, lesson: bool = False,
                     progress=None, max_seconds: float | None = None, options=('--size', '--iters'),
                     baseline: bool = False) -> ParallelResult:
    """Every lane alone and all together, interleaved, answers checked (13.3.1); `baseline`: one device doing every
    lane's products too (shared CPU: all cores; else the first lane); `max_seconds` refuses a longer run."""
    lanes = list(lanes)
    work = backend(lanes[0].framework)
    wl = resolve_workload(lanes, size, iters, lesson=lesson, work=work)
    repeats = positive_int(repeats, 'repeats', option='--repeats', example=3)
    if max_seconds is not None:  # each lane alone and all together, after one warm-up
        check_budget(wl, max_seconds, t('parallel.what'), passes=2 * (repeats + 1), size_option=options[0],
                     iters_option=options[1])
    xs = [work.random_matrix(lane, wl.size, seed=i) for i, lane in enumerate(lanes)]
    refs = [work.reference_product(x) for x in xs]
    jobs = [(lambda x=x, k=k: work.run(x, k)) for x, k in zip(xs, wl.iters)]
    cores, fw = cpu_cores(), framework_of_lanes(lanes[0].framework)
    shared = all(ln.kind == 'cpu' for ln in lanes) and fw.shared_cpu_rule == 'shared' and len(lanes) > 1
    separate = any(ln.kind != 'cpu' for ln in lanes) and len(lanes) > 1
    variants = row_variants(work.run_on_lanes, lanes, jobs, *((whole_device(lanes[0], cores), lambda: work.run(
        xs[0], sum(wl.iters))) if baseline and (shared or separate) else ()))
    kept = getattr(work, 'KeptTogether', None)  # a backend that keeps each product's interval in every call
    if kept:
        variants['together'] = kept = kept(lanes, xs, wl.iters)
    errors = []

    def check(name, results):  # results: one list of products per lane that ran
        if name == 'all_cores':
            errors.append(check_close(results[0], refs[0], f'{lanes[0].label} ({name})'))
            return
        ran = range(len(lanes)) if name == 'together' else [next(i for i, ln in enumerate(lanes) if ln.name == name)]
        for i, ys in zip(ran, results):
            errors.append(check_close(ys, refs[i], f'{lanes[i].label} ({name})'))
    c = compare(with_progress(variants, repeats, progress), lanes=lanes, repeats=repeats, warmup=1, check=check)
    lane_times = [Times.of(c.measurements[lane.name]) for lane in lanes]  # keyed by id: labelled where shown
    together = Times.of(c.measurements['together'])
    serial = statistics.median(map(sum, zip(*(m.times for m in lane_times))))  # the drawn row: repeats' lanes added
    exp = expectation(lanes, [m.median for m in lane_times])
    return ParallelResult(
        lanes[0].framework, wl.size, list(wl.iters), repeats,
        [dict(lane.as_dict(), iters=k) for lane, k in zip(lanes, wl.iters)], lane_times, together,
        serial, exp.seconds, exp.speedup, exp, serial / together.median,
        [2 * wl.size ** 3 * k / m.median / 1e12 for k, m in zip(wl.iters, lane_times)],
        max(errors), True, provenance(),
        baseline=Times.of(c.measurements['all_cores']) if 'all_cores' in variants else None,
        baseline_cores=cores if 'all_cores' in variants and shared else 0,
        baseline_lane=lanes[0].as_dict() if 'all_cores' in variants and not shared else None,
        timeline=kept_timeline(kept, together.times, lanes[0].framework, wl.size, work.timeline_clock(lanes))
        if kept else None)


def with_progress(variants: dict, repeats: int, progress):
    """The same variants, each call reported to progress(done, total) (warm-up included)."""
    if progress is None:
        return variants
    total, done = len(variants) * (repeats + 1), itertools.count(1)  # each call's result, then its count reported
    return {name: lambda fn=fn: (fn(), progress(min(next(done), total), total))[0] for name, fn in variants.items()}


@dataclass
class TimelineResult(Result):
    """13.3.1: when each product ran on each lane, in one run of all lanes together."""
    framework: str
    size: int
    iters: list[int]
    lanes: list[dict]    # each lane's ids (Lane.as_dict); labelled where drawn
    events: list[dict]   # 'lane': a lane's id, or a worker row of it ('cpu(0)/w1', backends.worker_row)
    clock: str  # 'cuda events + thread clock', 'thread clock' or 'mxnet profiler'
    experiment: str = 'timeline'
    repeat: int | None = None  # the index of the "together" repeat it is (the median one); None: a run of its own

    def table_rows(self):
        return [dict(lane=row_label(e['lane'], self.lanes), variant=e['name'], start=e['start'], end=e['end'])
                for e in self.events]


def row_label(row: str, lanes: list[dict], lang: str | None = None) -> str:
    """A timeline row id in `lang` (default: the current language): its lane's label, and its worker if any."""
    name, worker = split_row(row)
    lane = next((ln for ln in lanes if ln['name'] == name), None)
    label = Lane.from_dict(lane).label_in(lang) if lane else label_of(name, lang, lanes[0]['framework'] if lanes
                                                                       else 'torch')
    return label if worker is None else text_in(lang or language(), 'core.lane_worker_row', lane=label, worker=worker)


def measure_timeline(lanes, size=None, iters=None, *, lesson: bool = False) -> TimelineResult:
    """One run of all lanes together after a warm-up, with each product's start and end (13.3.1)."""
    lanes = list(lanes)
    work = backend(lanes[0].framework)
    wl = resolve_workload(lanes, size, iters, lesson=lesson, work=work)
    xs = [work.random_matrix(lane, wl.size, seed=i) for i, lane in enumerate(lanes)]
    work.run_on_lanes(lanes, [(lambda x=x, k=k: work.run(x, k)) for x, k in zip(xs, wl.iters)])  # warm-up
    work.wait(lanes)
    events = work.lane_timeline(lanes, xs, wl.iters)
    roles = {lane.name: f'lane {i % 4}' for i, lane in enumerate(lanes)}
    for e in events:  # one colour per lane, the same in every plot (display.style)
        e.setdefault('role', roles.get(split_row(e['lane'])[0], 'lane 0'))
    return TimelineResult(lanes[0].framework, wl.size, list(wl.iters), [ln.as_dict() for ln in lanes], events,
                          work.timeline_clock(lanes))


def median_index(times) -> int:
    """Which of `times` is the median (the nearest one when their count is even)."""
    mid = statistics.median(times := list(times))
    return min(range(len(times)), key=lambda j: abs(times[j] - mid))


def kept_timeline(kept, times, framework: str, size: int, clock_name: str) -> TimelineResult:
    """The call of `kept` (a backend's KeptTogether) timed as the median of `times`, its last len(times) calls."""
    k = median_index(times := list(times))
    events = kept.events(len(kept.calls) - len(times) + k)
    roles = {lane.name: f'lane {i % 4}' for i, lane in enumerate(kept.lanes)}  # one colour per lane (display.style)
    for e in events:
        e['role'] = roles.get(split_row(e['lane'])[0], 'lane 0')
    return TimelineResult(framework, size, list(kept.iters), [ln.as_dict() for ln in kept.lanes], events, clock_name,
                          repeat=k)
