"""Lanes: the things that can run work at the same time on this machine (13.3.1 and after).

The book assumes two GPUs (`d2l.try_all_gpus()[0]` and `[1]`). Most learners have none or one,
so we pick two lanes from what exists and say plainly what each one is:

* two or more GPUs -> GPU 0 and GPU 1 (or all GPUs);
* one GPU          -> the GPU and the CPU;
* CPU only         -> two CPU lanes, each with a fixed share of the cores.
"""
from __future__ import annotations

import contextlib
from dataclasses import asdict, dataclass

from .errors import UsageError
from .frameworks import framework as _framework
from .i18n import t
from .machine import FAKE as _FAKE
from .machine import check_framework, cpu_cores


@dataclass(frozen=True)
class Lane:
    """One place where independent work can run (13.3.1): a GPU, the CPU, or a share of the CPU."""
    framework: str       # a registered framework's name (d2l_ext.frameworks): 'torch', 'mxnet'
    name: str            # what to type on the CLI: 'cuda:0', 'cpu', 'cpu0', 'gpu(0)', 'cpu(1)'
    kind: str            # 'gpu' or 'cpu'
    index: int           # GPU index, or CPU-lane number
    label: str           # short, for tables and plots
    explanation: str     # what the lane really is, in a student's words
    threads: int = 0     # intra-op threads for a CPU lane (0 for a GPU)
    asynchronous: bool = True  # True: the framework queues work and returns at once

    def device(self):
        """The framework's device object for this lane (torch.device or mx.Context)."""
        return _framework(self.framework).device(self.kind, self.index)

    def as_dict(self) -> dict:
        """JSON-ready description (used by the CLI and the recorded results)."""
        return asdict(self)


def make_lane(framework: str, kind: str, index: int = 0, *, threads: int = 0, name: str | None = None,
              label: str | None = None, explanation: str = '') -> Lane:
    """The one place a Lane is built (every section); a framework's CPU work is queued unless it says otherwise."""
    fw = _framework(framework)
    if name is None:
        name = fw.lane_name(kind, index)
    if label is None:
        label = f'GPU {index}' if kind == 'gpu' else name
    return Lane(framework=fw.name, name=name, kind=kind, index=index, label=label, explanation=explanation,
                threads=threads if kind == 'cpu' else 0, asynchronous=kind == 'gpu' or fw.cpu_queued)


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
    return _framework(framework).gpu_count()


def _gpu_label(framework: str, index: int) -> str:
    name = None if 'gpus' in _FAKE else _framework(framework).gpu_name(index)
    if name:
        return t('core.lane_gpu_label_named', index=index, name=name)
    return t('core.lane_gpu_label', index=index)


def find_lanes(framework: str = 'torch', count: int | str = 2) -> list[Lane]:
    """The lanes this machine offers a framework, best first (13.3.1's `devices`).

    `count` is 2 (the book's experiment) or 'all' (every GPU). The framework is checked here (a
    notebook's edge); inside a worker, the dispatcher has checked it already (`lanes_of`).
    """
    return lanes_of(check_framework(framework), count)


def lanes_of(framework: str, count: int | str = 2) -> list[Lane]:
    """find_lanes for a framework already checked (the dispatcher's worker side): no second check."""
    fw = _framework(framework)
    g = gpu_count(fw.name)
    c = cpu_cores()
    gpus = [make_lane(fw.name, 'gpu', i, label=_gpu_label(fw.name, i), explanation=t(fw.gpu_explanation))
            for i in range(g if count == 'all' else min(int(count), g))]
    if g >= 2:
        return gpus
    return gpus[:1] + [make_lane(fw.name, 'cpu', **spec) for spec in fw.cpu_lanes(g, c)]


def pick_lanes(framework: str = 'torch', names=None) -> list[Lane]:
    """Lanes by name (CLI --lanes) or as Lane objects, or the default two; each lane at most once (13.3.1)."""
    return choose_lanes(check_framework(framework), names)


def choose_lanes(framework: str, names=None) -> list[Lane]:
    """pick_lanes for a framework already checked (the dispatcher's worker side): Lane objects pass unchanged."""
    fw = _framework(framework).name
    if isinstance(names, str):
        names = [n.strip() for n in names.split(',') if n.strip()]
    if names is not None and all(isinstance(n, Lane) for n in names):
        available = {n.name: n for n in names if n.framework == fw}
    else:
        available = {lane.name: lane for lane in lanes_of(fw, 'all' if names else 2)}
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


def describe_lanes(lanes: list[Lane]) -> str:
    """A few lines a student can read: what each lane really is (13.3.1)."""
    return '\n'.join(t('core.describe_lane', number=i, name=lane.name, label=lane.label,
                       explanation=lane.explanation) for i, lane in enumerate(lanes))
