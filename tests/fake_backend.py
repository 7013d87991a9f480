"""A third framework for tests: NumPy on the CPU, described and implemented in one module (test_registry).

It shows what README "Adding a framework" asks for: a description (FRAMEWORK) and the Backend's
functions. A real framework keeps them apart (d2l_ext/frameworks/<name>.py and
d2l_ext/backends/<name>_backend.py) so that reading its description never imports it.
"""
from __future__ import annotations

import numpy

from d2l_ext.frameworks import Framework


def _cpu_lanes(gpus: int, cores: int) -> list[dict]:
    return [dict(index=i, threads=1, label_key='core.lane_cpu_share_label') for i in range(2)]


FRAMEWORK = Framework(
    name='fakenp', display='FakeNumPy', module='numpy', backend=__name__, missing='core.torch_missing',
    gpu_explanation='core.lane_gpu_torch', gpu_count=lambda: 0, device=lambda kind, index: f'{kind}:{index}',
    lane_name=lambda kind, index: f'np{index}', cpu_lanes=_cpu_lanes, tolerance=lambda: 1e-4, order=99,
    cpu_queued=False)


def run(x, iters: int = 50):
    return [x @ x for _ in range(iters)]


def copy_to_cpu(ys):
    return [numpy.array(y) for y in ys]


def random_matrix(lane, n: int, seed: int = 0):
    return numpy.random.default_rng(seed).random((n, n), dtype=numpy.float32)


def reference_product(x):
    xd = x.astype(numpy.float64)
    return xd @ xd


def run_on_lanes(lanes, jobs, *, gpu_first: bool = False):
    return [job() for job in jobs]


def lane_timeline(lanes, xs, iters):
    return []


def tolerance() -> float:
    return FRAMEWORK.tolerance()


def wait(lanes=()) -> None:
    pass


def timeline_clock(lanes=()) -> str:
    return 'none'
