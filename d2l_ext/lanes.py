"""Lanes: the things that can run work at the same time on this machine (13.3.1 and after).

The book assumes two GPUs (`d2l.try_all_gpus()[0]` and `[1]`). Most learners have none or one,
so we pick two lanes from what exists and say plainly what each one is:

* two or more GPUs -> GPU 0 and GPU 1 (or all GPUs);
* one GPU          -> the GPU and the CPU;
* CPU only         -> two CPU lanes, each with a fixed share of the cores.
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import asdict, dataclass

from .errors import UsageError
from .i18n import t
from .machine import FAKE as _FAKE
from .machine import check_framework, cpu_cores


@dataclass(frozen=True)
class Lane:
    """One place where independent work can run (13.3.1): a GPU, the CPU, or a share of the CPU."""
    framework: str       # 'torch' or 'mxnet'
    name: str            # what to type on the CLI: 'cuda:0', 'cpu', 'cpu0', 'gpu(0)', 'cpu(1)'
    kind: str            # 'gpu' or 'cpu'
    index: int           # GPU index, or CPU-lane number
    label: str           # short, for tables and plots
    explanation: str     # what the lane really is, in a student's words
    threads: int = 0     # intra-op threads for a CPU lane (0 for a GPU)
    asynchronous: bool = True  # True: the framework queues work and returns at once

    def device(self):
        """The framework's device object for this lane (torch.device or mx.Context)."""
        if self.framework == 'torch':
            import torch
            return torch.device(f'cuda:{self.index}' if self.kind == 'gpu' else 'cpu')
        import mxnet as mx
        return mx.gpu(self.index) if self.kind == 'gpu' else mx.cpu(self.index)

    def as_dict(self) -> dict:
        """JSON-ready description (used by the CLI and the recorded results)."""
        return asdict(self)


def make_lane(framework: str, kind: str, index: int = 0, *, threads: int = 0, name: str | None = None,
              label: str | None = None, explanation: str = '') -> Lane:
    """The one place a Lane is built (every section); PyTorch runs CPU work synchronously, all else is queued."""
    if name is None:
        if framework == 'torch':
            name = f'cuda:{index}' if kind == 'gpu' else f'cpu{index}'
        else:
            name = f'{kind}({index})'
    if label is None:
        label = f'GPU {index}' if kind == 'gpu' else name
    return Lane(framework=framework, name=name, kind=kind, index=index, label=label, explanation=explanation,
                threads=threads if kind == 'cpu' else 0, asynchronous=not (framework == 'torch' and kind == 'cpu'))


@contextlib.contextmanager
def fake_hardware(gpus: int | None = None, cores: int | None = None):
    """Testing hook: in the block, find_lanes and cpu_cores see `gpus` GPUs and `cores` cores (this process only)."""
    old = dict(_FAKE)
    _FAKE.update({k: int(v) for k, v in (('gpus', gpus), ('cores', cores)) if v is not None})
    try:
        yield
    finally:
        _FAKE.clear()
        _FAKE.update(old)


def faked_gpus() -> bool:
    """True inside fake_hardware(gpus=...): GPU lanes are stand-ins with no device behind them."""
    return 'gpus' in _FAKE


def gpu_count(framework: str) -> int:
    """GPUs this framework can use here (0 for MXNet's CPU-only wheel)."""
    if 'gpus' in _FAKE:
        return _FAKE['gpus']
    if framework == 'torch':
        import torch
        return torch.cuda.device_count()
    import mxnet as mx
    try:
        return mx.context.num_gpus()
    except Exception:  # the CPU wheel may raise instead of returning 0
        return 0


def _gpu_label(framework: str, index: int) -> str:
    if framework == 'torch' and 'gpus' not in _FAKE:
        import torch
        return t('core.lane_gpu_label_named', index=index, name=torch.cuda.get_device_name(index))
    return t('core.lane_gpu_label', index=index)


def mxnet_engine_environment(cores: int | None = None) -> dict:
    """Environment MXNet needs before import so its CPU engine can run two things at once (its lanes)."""
    c = cores or cpu_cores()
    return {'MXNET_CPU_WORKER_NTHREADS': str(max(2, c)),  # one engine worker per core
            'OMP_NUM_THREADS': '1'}                        # each operator on one core, no oversubscription


def mxnet_cpu_workers() -> int:
    """Engine worker threads MXNet gives each CPU context in this process (its setting is read at import)."""
    return int(os.environ.get('MXNET_CPU_WORKER_NTHREADS', mxnet_engine_environment()['MXNET_CPU_WORKER_NTHREADS']))


def _cpu_lanes(fw: str, g: int, c: int) -> list[Lane]:
    if g == 1 and fw == 'torch':
        # one core stays free to launch the GPU's kernels (measured on the H200 machine: with
        # all 16 cores busy, the GPU lane waited for its launching thread)
        used = max(1, c - 1)
        return [make_lane(fw, 'cpu', 0, threads=used, name='cpu', label=t('core.lane_cpu_label', threads=used, cores=c),
                          explanation=t('core.lane_cpu_beside_gpu_torch', threads=used, cores=c))]
    if g == 1:
        return [make_lane(fw, 'cpu', 0, threads=c, label=t('core.lane_cpu_all_label', cores=c),
                          explanation=t('core.lane_cpu_beside_gpu_mxnet', workers=mxnet_cpu_workers()))]
    if fw == 'torch':
        share = max(1, c // 2)
        note = t('core.lane_one_core') if c < 2 else ''
        return [make_lane(fw, 'cpu', i, threads=share, label=t('core.lane_cpu_share_label', number=i,
                                                                  threads=share, cores=c),
                          explanation=t('core.lane_cpu_share_torch', threads=share, cores=c) + note)
                for i in range(2)]
    return [make_lane(fw, 'cpu', i, threads=1, label=t('core.lane_mxnet_cpu_label', index=i),
                      explanation=t('core.lane_mxnet_cpu', workers=mxnet_cpu_workers(), cores=c))
            for i in range(2)]


def find_lanes(framework: str = 'torch', count: int | str = 2) -> list[Lane]:
    """The lanes this machine offers a framework, best first (13.3.1's `devices`).

    `count` is 2 (the book's experiment) or 'all' (every GPU).
    """
    fw = check_framework(framework)
    g = gpu_count(fw)
    c = cpu_cores()
    explanation = t('core.lane_gpu_torch' if fw == 'torch' else 'core.lane_gpu_mxnet')
    gpus = [make_lane(fw, 'gpu', i, label=_gpu_label(fw, i), explanation=explanation)
            for i in range(g if count == 'all' else min(int(count), g))]
    if g >= 2:
        return gpus
    return gpus[:1] + _cpu_lanes(fw, g, c)


def pick_lanes(framework: str = 'torch', names=None) -> list[Lane]:
    """Lanes by name (CLI --lanes) or as Lane objects, or the default two; each lane at most once (13.3.1)."""
    fw = check_framework(framework)
    if isinstance(names, str):
        names = [n.strip() for n in names.split(',') if n.strip()]
    if names is not None and all(isinstance(n, Lane) for n in names):
        available = {n.name: n for n in names if n.framework == fw}
    else:
        available = {lane.name: lane for lane in find_lanes(fw, 'all' if names else 2)}
    if names is None:
        return list(available.values())
    chosen = []
    for n in names:
        key = n.name if isinstance(n, Lane) else n
        if key not in available:
            raise UsageError(t('core.unknown_lane', lane=repr(key), framework=fw, names=', '.join(available)))
        if available[key] in chosen:
            raise UsageError(t('core.lane_twice', lane=repr(key)))
        chosen.append(available[key])
    if not chosen:
        raise UsageError(t('core.no_lane', names=', '.join(available)))
    return chosen


def lanes_for_all(frameworks, names=None) -> dict[str, list[Lane]]:
    """Check a lane choice for every framework before anything runs (CLI --framework all --lanes) -> {fw: lanes}.

    Each framework is asked in its own worker (MXNet must not be imported next to PyTorch).
    """
    from .workers import call_in_worker
    return {fw: call_in_worker(fw, pick_lanes, fw, names) for fw in frameworks}


def describe_lanes(lanes: list[Lane]) -> str:
    """A few lines a student can read: what each lane really is (13.3.1)."""
    return '\n'.join(t('core.describe_lane', number=i, name=lane.name, label=lane.label,
                       explanation=lane.explanation) for i, lane in enumerate(lanes))
