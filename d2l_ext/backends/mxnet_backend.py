"""The book's 13.3 workloads in MXNet (13.3.1, 13.3.2). MXNet reads its engine settings at import, so it runs in a
worker process whose environment is set first (workers.py); in a notebook, call `setup_mxnet()` first."""
from __future__ import annotations

import json
import os

from ..frameworks import framework, worker_row
from ..frameworks.mxnet_framework import engine_environment


def setup_mxnet():
    """Set MXNet's engine environment (if MXNet is not loaded yet) and return (mx, np, npx) (13.3.1)."""
    import sys
    if 'mxnet' not in sys.modules:
        env = engine_environment()
        if 'torch' in sys.modules:
            # Seen here: with PyTorch already loaded, OMP_NUM_THREADS=1 plus two engine workers makes
            # MXNet's first dot product hang; the worker processes (no torch) use both safely.
            env.pop('OMP_NUM_THREADS')
        for k, v in env.items():
            os.environ.setdefault(k, v)
    import mxnet as mx
    from mxnet import np, npx
    npx.set_np()
    from ..profiling import no_profiler_chatter
    with no_profiler_chatter():  # MXNet's C++ logs its engine choice to stderr at the first wait; keep it out
        mx.nd.waitall()
    return mx, np, npx


def run(x, iters: int = 50):
    """K independent products x.dot(x), as the book's MXNet `run` (13.3.1)."""
    return [x.dot(x) for _ in range(iters)]


def copy_to_cpu(ys, pinned: bool = False):
    """The book's MXNet copy: `y.copyto(npx.cpu())` (or `npx.cpu_pinned()`) per result (13.3.2)."""
    from mxnet import npx
    ctx = npx.cpu_pinned() if pinned else npx.cpu()
    return [y.copyto(ctx) for y in ys]


def random_matrix(lane, n: int, seed: int = 0):
    """An n x n uniform matrix on a lane; the same numbers as the PyTorch version's seed."""
    import numpy
    setup_mxnet()
    from mxnet import np
    host = numpy.random.default_rng(seed).random((n, n), dtype=numpy.float32)
    return np.array(host, ctx=lane.device())


def tolerance() -> float:
    """Relative error allowed for MXNet's fp32 products (its description)."""
    return framework('mxnet').tolerance()


def reference_product(x):
    """x @ x in float64 with NumPy on the host."""
    xd = x.asnumpy().astype('float64')
    return xd @ xd


def wait(lanes=()) -> None:
    """Wait for MXNet's engine, which waits for every context at once."""
    import mxnet as mx
    mx.nd.waitall()


def timeline_clock(lanes=()) -> str:
    """MXNet's own profiler times every product (lane_timeline, 13.3.1)."""
    return 'mxnet profiler'


def run_on_lanes(lanes, jobs, *, gpu_first: bool = False):
    """Start every job, CPU lanes first unless `gpu_first`; MXNet's engine queues them, so no threads (13.3.1)."""
    results = [None] * len(lanes)
    order = sorted(range(len(lanes)), key=lambda i: (lanes[i].kind == 'gpu') != gpu_first)
    for i in order:
        results[i] = jobs[i]()
    return results


# MXNet's profiler is configured once per process (a second set_config fails: "auto_remove_ == false"): one trace
# file per worker, read and deleted by each timeline; the next dump starts a new one.
_PROFILE: dict = {}
TRACE_PREFIX = 'd2l_ext_mxprof_'


def remove_stale_traces(pids=None) -> list[str]:
    """Remove the profiler folders (d2l_ext_mxprof_<pid>_...) of workers gone, or of `pids` (just killed); returns
    their paths. Every MXNet worker removes such leftovers when it starts."""
    from ..processes import remove_leftovers
    return remove_leftovers(TRACE_PREFIX, pids)


def _profile_path() -> str:
    if 'path' not in _PROFILE:
        import atexit
        import shutil
        import tempfile

        import mxnet as mx
        remove_stale_traces()
        folder = tempfile.mkdtemp(prefix=f'{TRACE_PREFIX}{os.getpid()}_')
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _PROFILE['path'] = os.path.join(folder, 'trace.json')
        mx.profiler.set_config(profile_all=True, filename=_PROFILE['path'], aggregate_stats=False)
    return _PROFILE['path']


def read_trace(path: str) -> list[dict]:
    """The events of one unfinished dump (a header and events, or ', {event}...'; the list never closed), then the
    file is removed, so the next dump starts a new one."""
    with open(path) as f:
        text = f.read().strip()
    os.remove(path)
    if text.startswith('{'):  # the header: {"traceEvents": [
        text = text[text.index('[') + 1:]
    return json.loads('[' + text.strip().strip(',') + ']')


def lane_timeline(lanes, xs, iters):
    """When each product ran, from MXNet's profiler: a row per (context, engine worker), the engine's choices."""
    import mxnet as mx
    wait()
    path = _profile_path()
    mx.profiler.set_state('run')
    try:
        run_on_lanes(lanes, [lambda x=x, k=k: run(x, k) for x, k in zip(xs, iters)])
        wait()
    finally:
        mx.profiler.set_state('stop')
        mx.profiler.dump(finished=False)  # keep the profiler usable for the next timeline
    return events_from_trace(read_trace(path), lanes)


def events_from_trace(trace, lanes):
    """Turn chrome-trace B/E pairs of dot products into timeline events, one row per worker ('cpu(0)/w1')."""
    open_ops, events, workers = {}, [], {}
    for e in trace:
        if e.get('ph') not in ('B', 'E') or 'dot' not in e.get('name', ''):
            continue
        key = (e['pid'], e['tid'])
        if e['ph'] == 'B':
            open_ops[key] = e['ts']
        elif key in open_ops:
            start = open_ops.pop(key)
            workers.setdefault(key, len([k for k in workers if k[0] == key[0]]) + 1)
            ctx = lanes[e['pid']].name if e['pid'] < len(lanes) else f'context{e["pid"]}'
            events.append({'lane': worker_row(ctx, workers[key]), 'name': 'dot',
                           'start': start, 'end': e['ts']})
    if events:
        t0 = min(e['start'] for e in events)
        for e in events:
            e['start'], e['end'] = (e['start'] - t0) / 1e6, (e['end'] - t0) / 1e6
    for i, e in enumerate(sorted(events, key=lambda e: e['start'])):
        e['name'] = f'dot {i + 1}'
    return sorted(events, key=lambda e: (e['lane'], e['start']))
