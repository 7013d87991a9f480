"""13.3.1 Parallel computation on devices: each lane alone, their sum, all lanes together."""
from __future__ import annotations

import time

from .lanes import pick_lanes
from .machine import check_framework, provenance
from .timing import Measurement, measure, wait_for_lanes
from .workloads import (MIXED_SIZE, backend, balanced_iters, check_workload, default_size, is_mixed,
                        lesson_workload)


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
                        lanes=None, progress=None, fake=None, lesson: bool = False) -> dict:
    """Time `run` on each lane alone and on all lanes together; check every answer (13.3.1).

    Returns a JSON-ready dict: lanes, per-lane times, serial sum, together, ideal max(lanes),
    speedup = serial / together, efficiency = ideal / together, and the worst relative error.
    """
    fw = check_framework(framework)
    lanes = pick_lanes(fw, lanes, **(fake or {}))
    d_size, d_iters = default_size(lanes)
    if lesson and size is None and iters is None:  # the notebooks' smaller default
        d_size, d_iters = lesson_workload(lanes)
    elif is_mixed(lanes) and iters is None:  # GPU + CPU: balance the work so both lanes matter
        d_size = MIXED_SIZE if size is None else size
        d_iters = balanced_iters(lanes, check_workload(d_size, 1, lanes)[0])
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

    alone_checks = [_checker(work, x, lane.label) for lane, x in zip(lanes, xs)]
    alone_jobs = [(lambda lane=lane, x=x, k=k: work.run_on_lanes([lane], [lambda: work.run(x, k)]))
                  for lane, x, k in zip(lanes, xs, ks)]
    checks = [_checker(work, x, f'{lane.label} (together)') for lane, x in zip(lanes, xs)]
    jobs = [(lambda x=x, k=k: work.run(x, k)) for x, k in zip(xs, ks)]

    def check_all(results):
        for (check, _), ys in zip(checks, results):
            check(ys)

    def together_job():
        return work.run_on_lanes(lanes, jobs)

    # Repeats are interleaved (each lane alone, then all together, then again): on a machine whose
    # speed drifts (turbo, other tenants of a shared host) drift then hits alone and together alike.
    # Measured on the H200 machine: the CPU lane alone ran 0.47 s or 0.60 s from one repeat to the next.
    lane_times = [Measurement(lane.label) for lane in lanes]
    together = Measurement('all lanes together')
    for lane, job in zip(lanes, alone_jobs):  # warm-up
        job()
        wait_for_lanes([lane])
        step()
    together_job()
    wait_for_lanes(lanes)
    step()
    for r in range(repeats):
        last = r == repeats - 1  # answers are checked on the last repeat, outside the timing
        for i, (lane, job) in enumerate(zip(lanes, alone_jobs)):
            check = alone_checks[i][0]
            m = measure(job, lanes=[lane], repeats=1, warmup=0,
                        check=(lambda rs, check=check: check(rs[0])) if last else None)
            lane_times[i].times += m.times
            step()
        m = measure(together_job, lanes=lanes, repeats=1, warmup=0, check=check_all if last else None)
        together.times += m.times
        step()
    errors = [e for _, errs in alone_checks + checks for e in errs]
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


def parallel_timeline(framework: str = 'torch', size=None, iters=None, lanes=None, fake=None,
                      lesson: bool = False) -> dict:
    """One run of all lanes together, with when each product started and ended (13.3.1)."""
    fw = check_framework(framework)
    lanes = pick_lanes(fw, lanes, **(fake or {}))
    d_size, d_iters = lesson_workload(lanes) if lesson else default_size(lanes)
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
    lanes = [lane for lane in pick_lanes('torch', lanes, **(fake or {})) if lane.kind == 'gpu']
    if not lanes:  # the mistake concerns queued GPU work only
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


def launch_order_experiment(size=None, iters=None, repeats: int = 5, lanes=None, fake=None) -> dict:
    """GPU + CPU lanes started in either order: queuing the GPU first can hold the CPU lane back (13.3.1).

    PyTorch queues GPU kernels and returns, but its launch queue is finite: queuing more products
    than it holds blocks the Python thread until the GPU has worked through the excess. Started
    first, that queuing delays the CPU lane's thread. Measures, interleaved, together-time and the
    CPU lane's start delay for both orders, and how long queuing the GPU's products took alone.
    """
    from . import torch_work as work
    lanes = pick_lanes('torch', lanes, **(fake or {}))
    if not is_mixed(lanes):
        return {'experiment': 'launch-order', 'reason': 'needs one GPU lane and one CPU lane '
                '(a machine with exactly one GPU, or --lanes cuda:0,cpu)'}
    from .machine import positive_int
    repeats = positive_int(repeats, 'repeats', 'pass a positive repeats, e.g. 5')
    n = MIXED_SIZE if size is None else size
    n, ks = check_workload(n, balanced_iters(lanes, check_workload(n, 1, lanes)[0]) if iters is None else iters,
                           lanes)
    xs = [work.random_matrix(lane, n, seed=i) for i, lane in enumerate(lanes)]
    starts = []

    def job(lane, x, k):
        if lane.kind == 'gpu':
            return lambda: work.run(x, k)

        def cpu_job():
            starts.append(time.perf_counter())
            return work.run(x, k)
        return cpu_job
    jobs = [job(lane, x, k) for lane, x, k in zip(lanes, xs, ks)]
    gpu = [i for i, lane in enumerate(lanes) if lane.kind == 'gpu']
    queue, alone = [], []
    times = {False: [], True: []}
    delays = {False: [], True: []}
    for first in (False, True):  # warm-up, both orders
        work.run_on_lanes(lanes, jobs, gpu_first=first)
        wait_for_lanes(lanes)
    for _ in range(repeats):
        wait_for_lanes(lanes)
        t = time.perf_counter()
        work.run_on_lanes([lanes[i] for i in gpu], [jobs[i] for i in gpu])
        queue.append(time.perf_counter() - t)  # the launch call's return: queuing alone
        wait_for_lanes(lanes)
        alone.append(time.perf_counter() - t)
        for first in (False, True):  # interleaved, so drift hits both orders alike
            starts.clear()
            wait_for_lanes(lanes)
            t = time.perf_counter()
            work.run_on_lanes(lanes, jobs, gpu_first=first)
            wait_for_lanes(lanes)
            times[first].append(time.perf_counter() - t)
            delays[first].append(min(starts) - t)
    import statistics as st
    med = st.median
    return {'experiment': 'launch-order', 'size': n, 'iters': ks, 'repeats': repeats,
            'lanes': [lane.label for lane in lanes],
            'gpu_queue_seconds': med(queue), 'gpu_alone_seconds': med(alone),
            'cpu_first': {'together': med(times[False]), 'cpu_start_delay': med(delays[False]),
                          'times': times[False]},
            'gpu_first': {'together': med(times[True]), 'cpu_start_delay': med(delays[True]),
                          'times': times[True]}}


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


def independence_experiment(framework: str = 'torch', size: int = 400, iters: int = 10,
                            repeats: int = 3) -> dict:
    """Exercise 1: does the framework run one `run`'s independent products in parallel by itself?

    Compares K products issued together (then one wait) with the same K products issued one at a
    time (waiting after each). Together much faster => the framework overlapped them.
    """
    fw = check_framework(framework)
    lane = pick_lanes(fw)[0]
    n, (k,) = check_workload(size, iters, [lane])
    work = backend(fw)
    x = work.random_matrix(lane, n)

    def one_at_a_time():
        out = []
        for _ in range(k):
            out += work.run(x, 1)
            wait_for_lanes([lane])
        return out
    check, errs = _checker(work, x, 'exercise 1')
    together = measure(lambda: work.run(x, k), lanes=[lane], label='issued together', repeats=repeats, check=check)
    single = measure(one_at_a_time, lanes=[lane], label='one at a time', repeats=repeats, check=check)
    import os
    return {'framework': fw, 'lane': lane.label, 'size': n, 'iters': k,
            'engine': os.environ.get('MXNET_ENGINE_TYPE', 'ThreadedEnginePerDevice') if fw == 'mxnet' else 'eager',
            'one_at_a_time': single.median, 'issued_together': together.median,
            'ratio': single.median / together.median, 'max_rel_error': max(errs)}


def small_ops_experiment(size: int = 64, iters: int = 400, repeats: int = 3) -> dict:
    """Exercise 2: with small products, two lanes on ONE device beat one lane using the whole device.

    CPU: one thread with all cores' intra-op threads vs two threads with half each.
    GPU: one CUDA stream vs two streams on the same GPU.
    """
    import torch
    from . import torch_work as work
    from .lanes import Lane
    from .machine import cpu_cores
    c = cpu_cores()
    if torch.cuda.is_available():
        dev = torch.device('cuda:0')
        x = torch.rand(size, size, device=dev)
        streams = [torch.cuda.Stream(dev), torch.cuda.Stream(dev)]
        lane = Lane('torch', 'cuda:0', 'gpu', 0, 'GPU 0', '', 0, True)

        def whole():
            return work.run(x, 2 * iters)

        def split():
            out = []
            for s in streams:
                s.wait_stream(torch.cuda.current_stream(dev))
                with torch.cuda.stream(s):
                    out += work.run(x, iters)
            for s in streams:
                torch.cuda.current_stream(dev).wait_stream(s)
            return out
        device, how = 'GPU 0', 'one stream vs two streams'
    else:
        x = torch.rand(size, size)
        lane = Lane('torch', 'cpu', 'cpu', 0, 'CPU', '', c, False)
        halves = [Lane('torch', f'cpu{i}', 'cpu', i, f'half {i}', '', max(1, c // 2), False) for i in range(2)]

        def whole():
            with work.intra_op_threads(c):
                return work.run(x, 2 * iters)

        def split():
            res = work.run_on_lanes(halves, [lambda: work.run(x, iters)] * 2)
            return res[0] + res[1]
        device, how = f'CPU ({c} cores)', f'one thread using {c} cores vs two threads using {max(1, c // 2)} each'
    check, errs = _checker(work, x, 'exercise 2')
    a = measure(whole, lanes=[lane], label='one lane, whole device', repeats=repeats, check=check)
    b = measure(split, lanes=[lane], label='two lanes on one device', repeats=repeats, check=check)
    return {'device': device, 'how': how, 'size': size, 'products': 2 * iters,
            'one_lane': a.median, 'two_lanes': b.median, 'ratio': a.median / b.median,
            'max_rel_error': max(errs)}
