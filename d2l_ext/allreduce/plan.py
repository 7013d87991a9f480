"""13.3.4: what a run will start (backend, processes, devices, port), checked before any process starts."""
from __future__ import annotations

import inspect
import math
import socket
from dataclasses import dataclass, field

from ..errors import UsageError
from ..frameworks import framework
from ..i18n import language, t
from ..machine import cpu_cores, positive_int

TIMEOUT_RANGE = (1.0, 3600.0)  # below a second a peer's start-up looks like a hang; above an hour, a typo
PORT_RANGE = (1024, 65535)  # below 1024 needs root and is taken by system services


@dataclass
class Plan:
    """Everything a process needs to take part in a run; picklable, sent to each spawned process."""
    backend: str
    world_size: int
    devices: list[str]  # one per process: 'cpu' for gloo, 'cuda:<rank>' for NCCL
    threads: int  # compute threads per process: one core each, so processes do not fight over cores
    init_method: str  # 'tcp://127.0.0.1:<port>' when we start the processes, 'env://' under torchrun
    layers: int = 6
    width: int = 1024
    batch: int = 128  # per process
    bucket_mb: tuple[float, ...] = (1.0,)
    repeats: int = 3
    warmup: int = 1
    timeout: float = 30.0  # seconds a collective may wait for a peer before it fails
    trace_dir: str | None = None
    language: str = 'en'
    steps: dict = field(default_factory=dict)  # version id -> step function, or ('source', name, code)
    lr: float = 0.1
    seed: int = 0
    profiled: int = 1  # profiled steps per version: the intervals the overlap is measured from
    cores: int = 0  # cores this machine gave the run (fewer than processes: they take turns)


def free_port() -> int:
    """13.3.4: a port on 127.0.0.1 no one listens on now (the OS picks it)."""
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def check_timeout(value) -> float:
    """Seconds a process waits for a peer: a finite number within TIMEOUT_RANGE, else one line."""
    low, high = TIMEOUT_RANGE
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        seconds = math.nan
    if not low <= seconds <= high:  # nan fails both comparisons
        raise UsageError(t('cli.timeout', low=round(low), high=round(high), value=value))
    return seconds


def check_port(value, free: bool = False) -> int | None:
    """A port the processes meet on, within PORT_RANGE, or None (none, auto, empty); with `free`, one free now (the
    learner's if free, else a UsageError; with none, any free one)."""
    port = None
    if value is not None and str(value).strip().lower() not in ('', 'none', 'auto'):
        try:
            port = int(str(value).strip())
        except ValueError:
            port = -1
        if not PORT_RANGE[0] <= port <= PORT_RANGE[1]:
            raise UsageError(t('cli.port', value=value))
    if not free or port is None:
        return free_port() if free else port
    with socket.socket() as s:
        try:
            s.bind(('127.0.0.1', port))
        except OSError:
            raise UsageError(t('allreduce.usage.port_busy', port=port)) from None
    return port


def bucket_sizes(value) -> tuple[float, ...]:
    """13.3.4: DDP bucket sizes in MB from a number, a list, or text like '0.25,1,4'; each must be > 0."""
    if isinstance(value, (list, tuple)) and not value:
        return ()
    items = value.split(',') if isinstance(value, str) else (value if isinstance(value, (list, tuple)) else [value])
    sizes = []
    for item in items:
        try:
            sizes.append(float(item))
        except (TypeError, ValueError):
            sizes.append(math.nan)
        if not 0 < sizes[-1] < math.inf:  # nan fails both comparisons
            raise UsageError(t('allreduce.usage.bucket', value=item))
    if not sizes:
        raise UsageError(t('allreduce.usage.bucket', value=value))
    return tuple(sizes)


# Processes per core allowed when the caller accepts that they take turns (tests of correctness, one-core
# machines): beyond this, starting the processes alone takes minutes on a small machine.
SHARED_PER_CORE = 4


def world_sizes(backend: str = 'gloo', share_cores: bool = False) -> tuple[int, int]:
    """13.3.4: (fewest, most) processes this machine allows: the one answer the CLI, the notebook and make_plan give."""
    if backend == 'nccl':
        return 2, _gpu_count()
    cores = cpu_cores()
    return 2, max(2, cores * (SHARED_PER_CORE if share_cores else 1))


def _gpu_count() -> int:
    """GPUs NCCL can use here: PyTorch's count, as its framework description gives it (0 without CUDA)."""
    return framework('torch').gpu_count()


def portable(step):
    """A step function a spawned process can load: by reference if importable, else by its source code."""
    if getattr(step, '__module__', None) in ('__main__', '__mp_main__', None):
        return ('source', step.__name__, inspect.getsource(step))
    return step


def make_plan(backend: str = 'gloo', world_size=None, *, port=None, bucket_mb=1.0, repeats=3, warmup=1,
              layers=6, width=1024, batch=128, steps=None, timeout: float = 30.0, trace_dir=None,
              torchrun: bool = False, share_cores: bool = False, profiled: int = 1) -> Plan:
    """13.3.4: check every choice and say in one line what to change; nothing has started yet."""
    if backend not in ('gloo', 'nccl'):
        raise UsageError(t('allreduce.usage.backend', backend=backend))
    gpus = _gpu_count() if backend == 'nccl' else 0
    if backend == 'nccl' and gpus < 2:
        raise UsageError(t('allreduce.usage.nccl', gpus=gpus))
    default = gpus if backend == 'nccl' else 2
    n = positive_int(default if world_size is None else world_size, t('allreduce.usage.what_world'),
                     t('allreduce.usage.world_hint'))
    if n < 2:
        raise UsageError(t('allreduce.usage.world_small', n=n))
    most = world_sizes('gloo', share_cores)[1]
    if backend == 'gloo' and n > most and not torchrun:
        raise UsageError(t('allreduce.usage.cores', n=n, cores=cpu_cores(), most=most))
    if backend == 'nccl' and n > gpus:
        raise UsageError(t('allreduce.usage.gpus', n=n, gpus=gpus))
    sizes = {name: positive_int(v, name, t('allreduce.usage.size_hint', name=name))
             for name, v in (('layers', layers), ('width', width), ('batch', batch), ('repeats', repeats))}
    warmup = 0 if warmup == 0 else positive_int(warmup, 'warmup', t('allreduce.usage.size_hint', name='warmup'))
    profiled = positive_int(profiled, 'profiled', t('allreduce.usage.size_hint', name='profiled'))
    init = 'env://' if torchrun else f'tcp://127.0.0.1:{check_port(port, free=True)}'
    from . import steps as _steps
    chosen = dict(_steps.STEPS if steps is None else steps)
    return Plan(backend, n, ['cpu'] * n if backend == 'gloo' else [f'cuda:{r}' for r in range(n)],
                threads=1 if backend == 'gloo' else 2, init_method=init, bucket_mb=bucket_sizes(bucket_mb),
                warmup=warmup, timeout=float(timeout), trace_dir=None if trace_dir is None else str(trace_dir),
                language=language(), steps={k: portable(f) for k, f in chosen.items()}, profiled=profiled,
                cores=cpu_cores(), **sizes)
