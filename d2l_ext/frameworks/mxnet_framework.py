"""MXNet as the lessons use it (13.3.1, 13.3.2): its engine's environment, lane names, CPU lanes."""
from __future__ import annotations

import os

from ..machine import cpu_cores
from . import Framework

ENGINES = ('NaiveEngine', 'ThreadedEngine', 'ThreadedEnginePerDevice')


def engine_environment(cores: int | None = None) -> dict:
    """Environment MXNet needs before import so its CPU engine can run two things at once (its lanes)."""
    c = cores or cpu_cores()
    return {'MXNET_CPU_WORKER_NTHREADS': str(max(2, c)),  # one engine worker per core
            'OMP_NUM_THREADS': '1'}                        # each operator on one core, no oversubscription


def cpu_workers() -> int:
    """Engine worker threads MXNet gives each CPU context in this process (its setting is read at import)."""
    return int(os.environ.get('MXNET_CPU_WORKER_NTHREADS', engine_environment()['MXNET_CPU_WORKER_NTHREADS']))


def worker_environment(worker_name: str) -> dict:
    """The engine's environment, plus MXNET_ENGINE_TYPE when the worker is named after an engine."""
    env = engine_environment()
    if worker_name in ENGINES:
        env['MXNET_ENGINE_TYPE'] = worker_name
    return env


def _gpu_count() -> int:
    import mxnet as mx
    try:
        return mx.context.num_gpus()
    except Exception:  # the CPU wheel may raise instead of returning 0
        return 0


def _device(kind: str, index: int):
    import mxnet as mx
    return mx.gpu(index) if kind == 'gpu' else mx.cpu(index)


def _lane_name(kind: str, index: int) -> str:
    return f'{kind}({index})'


def _cpu_lanes(gpus: int, cores: int) -> list[dict]:
    if gpus == 1:
        return [dict(index=0, threads=cores, label_key='core.lane_cpu_all_label', workers=cpu_workers(),
                     explanation_keys=('core.lane_cpu_beside_gpu_mxnet',))]
    return [dict(index=i, threads=1, label_key='core.lane_mxnet_cpu_label', workers=cpu_workers(),
                 explanation_keys=('core.lane_mxnet_cpu',)) for i in range(2)]


def _wait_loaded(lanes) -> None:
    import sys
    mx = sys.modules.get('mxnet')
    if mx is not None and lanes:
        mx.nd.waitall()  # the engine waits for every context at once


def _wait_all() -> None:
    import sys
    mx = sys.modules.get('mxnet')
    if mx is not None:
        mx.nd.waitall()


FRAMEWORK = Framework(
    name='mxnet', display='MXNet', module='mxnet', backend='d2l_ext.backends.mxnet_backend',
    missing='core.mxnet_missing', gpu_explanation='core.lane_gpu_mxnet', aliases=('mx',), order=1,
    gpu_count=_gpu_count, device=_device, lane_name=_lane_name, cpu_lanes=_cpu_lanes, tolerance=lambda: 1e-4,
    cpu_queued=True, shared_cpu_rule='engine', one_core_per_product=True, environment=worker_environment,
    cleans_up_after_kill=True, wait_loaded=_wait_loaded, wait_all=_wait_all, cpu_label='core.lane_mxnet_cpu_label',
    engine=lambda: os.environ.get('MXNET_ENGINE_TYPE', 'ThreadedEnginePerDevice'),
    worker_rows=True)
