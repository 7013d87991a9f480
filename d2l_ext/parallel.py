"""13.3.1 Parallel computation on devices: each lane alone, their sum, all lanes together."""
from __future__ import annotations

import time

from .lanes import pick_lanes
from .machine import check_framework, provenance
from .timing import measure, wait_for_lanes
from .workloads import backend, check_workload, default_size


def _checker(work, x, what):
    """A check(result) that compares every product of one lane with x @ x in float64."""
    ref = work.reference_product(x)
    tol = work.tolerance() if hasattr(work, 'tolerance') else work.TOLERANCE
    errs = []

    def check(ys):
        err = work.max_rel_error(ys, ref)
        errs.append(err)
        if not err <= tol:
            from .errors import ResultMismatch
            raise ResultMismatch(f'{what}: relative error {err:.2e} exceeds {tol:.0e}: '
                                 'the timed computation returned a wrong answer')
    return check, errs


def parallel_experiment(framework: str = 'torch', size=None, iters=None, repeats: int = 3,
                        lanes=None, progress=None, fake=None) -> dict:
    """Time `run` on each lane alone and on all lanes together; check every answer (13.3.1).

    Returns a JSON-ready dict: lanes, per-lane times, serial sum, together, ideal max(lanes),
    speedup = serial / together, efficiency = ideal / together, and the worst relative error.
    """
    fw = check_framework(framework)
    lanes = pick_lanes(fw, lanes, **(fake or {}))
    d_size, d_iters = default_size(lanes)
    n, ks = check_workload(d_size if size is None else size, d_iters if iters is None else iters, lanes)
    from .machine import positive_int
    repeats = positive_int(repeats, 'repeats', 'pass a positive --repeats, e.g. 3')
    work = backend(fw)
    xs = [work.random_matrix(lane, n, seed=i) for i, lane in enumerate(lanes)]
    total_steps = (len(lanes) + 1) * (repeats + 1)
    done = [0]

    def step(*_):
        done[0] += 1
        if progress:
            progress(done[0], total_steps)

    errors = []
    lane_times = []
    for i, lane in enumerate(lanes):
        check, errs = _checker(work, xs[i], lane.label)
        job = (lambda x=xs[i], k=ks[i]: work.run(x, k))
        m = measure(lambda lane=lane, job=job: work.run_on_lanes([lane], [job]),
                    lanes=[lane], label=lane.label, repeats=repeats, warmup=1,
                    check=lambda rs, check=check: check(rs[0]), on_repeat=step)
        step()
        lane_times.append(m)
        errors += errs
    checks = [_checker(work, x, f'{lane.label} (together)') for lane, x in zip(lanes, xs)]
    jobs = [(lambda x=x, k=k: work.run(x, k)) for x, k in zip(xs, ks)]

    def check_all(results):
        for (check, _), ys in zip(checks, results):
            check(ys)

    together = measure(lambda: work.run_on_lanes(lanes, jobs), lanes=lanes, label='all lanes together',
                       repeats=repeats, warmup=1, check=check_all, on_repeat=step)
    step()
    for _, errs in checks:
        errors += errs
    serial = sum(m.median for m in lane_times)
    ideal = max(m.median for m in lane_times)
    return {
        'experiment': 'parallel', 'framework': fw, 'size': n, 'iters': ks, 'repeats': repeats,
        'lanes': [dict(lane.as_dict(), iters=k) for lane, k in zip(lanes, ks)],
        'lane_times': [m.as_dict() for m in lane_times],
        'serial_sum': serial, 'together': together.as_dict(), 'ideal': ideal,
        'speedup': serial / together.median, 'ideal_speedup': serial / ideal,
        'efficiency': ideal / together.median,
        'max_rel_error': max(errors), 'correct': True,
        'tflops_per_lane': [2 * n ** 3 * k / m.median / 1e12 for k, m in zip(ks, lane_times)],
        'machine': provenance(),
    }


def parallel_timeline(framework: str = 'torch', size=None, iters=None, lanes=None, fake=None) -> dict:
    """One run of all lanes together, with when each product started and ended (13.3.1)."""
    fw = check_framework(framework)
    lanes = pick_lanes(fw, lanes, **(fake or {}))
    d_size, d_iters = default_size(lanes)
    n, ks = check_workload(d_size if size is None else size, d_iters if iters is None else iters, lanes)
    work = backend(fw)
    xs = [work.random_matrix(lane, n, seed=i) for i, lane in enumerate(lanes)]
    work.run_on_lanes(lanes, [(lambda x=x, k=k: work.run(x, k)) for x, k in zip(xs, ks)])  # warm-up
    wait_for_lanes(lanes)
    events = work.lane_timeline(lanes, xs, ks)
    return {'experiment': 'timeline', 'framework': fw, 'size': n, 'iters': ks,
            'lanes': [lane.label for lane in lanes], 'events': events}


def book_sync_mistake(size=None, iters=None, lanes=None, fake=None) -> dict:
    """The book's PyTorch timing next to correct timing: no wait, current device only, every device.

    Only GPU lanes queue work, so on a CPU-only machine there is no mistake to show ('reason').
    """
    import torch
    lanes = pick_lanes('torch', lanes, **(fake or {}))
    if not any(lane.kind == 'gpu' for lane in lanes):
        return {'experiment': 'sync-mistake', 'times': None,
                'reason': 'no GPU lane: PyTorch runs CPU work before returning, so every way of '
                          'waiting measures the same thing'}
    d_size, d_iters = default_size(lanes)
    n, ks = check_workload(d_size if size is None else size, d_iters if iters is None else iters, lanes)
    from . import torch_work as work
    xs = [work.random_matrix(lane, n, seed=i) for i, lane in enumerate(lanes)]
    jobs = [(lambda x=x, k=k: work.run(x, k)) for x, k in zip(xs, ks)]
    waits = {
        'no wait at all': lambda: None,
        'torch.cuda.synchronize() (the book: current device only)': torch.cuda.synchronize,  # noqa: the mistake, on purpose
        'synchronize every device used': lambda: wait_for_lanes(lanes),
    }
    times = {}
    work.run_on_lanes(lanes, jobs)
    wait_for_lanes(lanes)
    for name, wait in waits.items():
        best = []
        for _ in range(3):
            wait_for_lanes(lanes)
            t = time.perf_counter()
            work.run_on_lanes(lanes, jobs)
            wait()
            best.append(time.perf_counter() - t)
            wait_for_lanes(lanes)
        times[name] = sorted(best)[1]
    return {'experiment': 'sync-mistake', 'size': n, 'iters': ks,
            'lanes': [lane.label for lane in lanes], 'times': times}


def scaling_sweep(framework: str = 'torch', sizes=(200, 400, 800), iters=None, repeats: int = 3,
                  lanes=None, progress=None, fake=None) -> list[dict]:
    """Speedup of two lanes over one-after-the-other as each product gets smaller (13.3.1)."""
    points = []
    for i, n in enumerate(sizes):
        r = parallel_experiment(framework, n, iters, repeats, lanes, fake=fake)
        points.append({'framework': r['framework'], 'size': n, 'speedup': r['speedup'],
                       'ideal_speedup': r['ideal_speedup'], 'together': r['together']['median'],
                       'serial_sum': r['serial_sum']})
        if progress:
            progress(i + 1, len(sizes))
    return points
