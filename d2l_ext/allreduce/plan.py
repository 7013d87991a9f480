"""13.3.4: what a run will start (gloo processes, port, sizes), every option checked before any process starts."""
from __future__ import annotations

import inspect
import math
import socket
from dataclasses import dataclass

from ..errors import UsageError
from ..i18n import language, t
from ..machine import cpu_cores, free_host_bytes, positive_int, turns_line

TIMEOUT_RANGE = (1.0, 3600.0)  # below a second a peer's start-up looks like a hang; above an hour, a typo
PORT_RANGE = (1024, 65535)  # below 1024 needs root and is taken by system services
# Processes per core allowed when they may take turns (correctness tests, one core): more take minutes to start.
SHARED_PER_CORE = 4
# float32 bytes per parameter per process: model, gradients, the reference's copy and gradients, DDP, buffers
BYTES_PER_PARAMETER = 4 * 8


@dataclass
class Plan:
    """Everything a process needs to take part in a run; picklable, sent to each spawned process."""
    world_size: int
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
    steps: dict | None = None  # version id -> step function, or ('source', name, code); None: steps.STEPS
    lr: float = 0.1
    seed: int = 0
    profiled: int = 1  # profiled steps per version: the intervals the overlap is measured from
    cores: int = 0  # cores this machine gave the run (fewer than processes: they take turns)


def free_port() -> int:
    """13.3.4: a port on 127.0.0.1 no one listens on now (the OS picks it)."""
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def _number(text, kind=float) -> float:
    """`text` as a number of `kind`, or nan, which fails every range check."""
    try:
        return kind(str(text).strip())
    except (TypeError, ValueError):
        return math.nan


def check_timeout(value) -> float:
    """Seconds a process waits for a peer: a finite number within TIMEOUT_RANGE, else one line."""
    seconds = _number(value)
    if not TIMEOUT_RANGE[0] <= seconds <= TIMEOUT_RANGE[1]:
        raise UsageError(t('cli.timeout', low=round(TIMEOUT_RANGE[0]), high=round(TIMEOUT_RANGE[1]), value=value))
    return seconds


def check_port(value) -> int:
    """The port the processes meet on: the learner's if within PORT_RANGE and free now, any free one for none."""
    if value is None or str(value).strip().lower() in ('', 'none', 'auto'):
        return free_port()
    port = _number(value, int)
    if not PORT_RANGE[0] <= port <= PORT_RANGE[1]:
        raise UsageError(t('cli.port', value=value))
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
        sizes.append(_number(item))
        if not 0 < sizes[-1] < math.inf:
            raise UsageError(t('allreduce.usage.bucket', value=item))
    return tuple(sizes)  # never empty: text splits into one item at least


def world_sizes(backend: str = 'gloo', share_cores: bool = False) -> tuple[int, int]:
    """13.3.4: (fewest, most) gloo processes this machine allows, for the CLI, the notebook and make_plan alike."""
    return 2, max(2, cpu_cores() * (SHARED_PER_CORE if share_cores else 1))


def memory_advice(world: int, layers: int, width: int, batch: int, free: float) -> dict | None:
    """None when the processes fit in 80% of `free` bytes; else the need, and the option that causes it with a value
    below its current one that fits in half (the batch when its activations outweigh the weights, else the width)."""
    per_width2 = world * layers * BYTES_PER_PARAMETER
    weights = per_width2 * width ** 2
    per_example = world * width * layers * 4 * 4  # activations and their gradients, float32
    need = weights + batch * per_example
    if need <= 0.8 * free:
        return None
    budget = 0.5 * free
    option, current, fit = '--width', width, int(math.sqrt(budget / per_width2))
    if batch * per_example > weights and weights < budget:  # the batch is the cause
        option, current, fit = '--batch', batch, int((budget - weights) / per_example)
    return dict(need=need / 2**30, free=free / 2**30, option=option, fit=max(1, min(fit, current - 1)))


def check_gloo(world_size, layers, width, batch, share_cores: bool = False) -> int:
    """The number of processes if this machine allows that many (world_sizes) and the model fits in its memory."""
    fewest, most = world_sizes('gloo', share_cores)
    n = fewest if world_size is None else _number(world_size, int)
    if not fewest <= n <= most:
        if fewest == most and cpu_cores() < fewest:  # one core: gloo still needs two processes, taking turns
            raise UsageError(t('cli.world_only', only=fewest, value=world_size,
                               turns=turns_line(fewest, what='processes')))
        raise UsageError(t('cli.world_range', fewest=fewest, most=most, cores=cpu_cores(), value=world_size))
    sizes = dict(layers=int(layers), width=int(width), batch=int(batch))
    fits = memory_advice(n, **sizes, free=free_host_bytes())
    if fits is not None:
        raise UsageError(t('cli.model_memory', world=n, **sizes, **fits))
    return n


def portable(step):
    """A step function a spawned process can load: by reference if importable, else by its source code."""
    if getattr(step, '__module__', None) in ('__main__', '__mp_main__', None):
        return ('source', step.__name__, inspect.getsource(step))
    return step


def make_plan(backend: str = 'gloo', world_size=None, *, port=None, bucket_mb=1.0, repeats=3, warmup=1,
              layers=6, width=1024, batch=128, steps=None, timeout: float = 30.0, trace_dir=None,
              torchrun: bool = False, share_cores: bool = False, profiled: int = 1) -> Plan:
    """13.3.4: check every choice and say in one line what to change; nothing has started, PyTorch is not imported.
    Under torchrun the world size is torchrun's, and each machine's memory its own."""
    if backend != 'gloo':
        raise UsageError(t('allreduce.usage.backend', backend=backend))
    sizes = {k: positive_int(v, k, t('allreduce.usage.size_hint', name=k)) for k, v in (
        ('layers', layers), ('width', width), ('batch', batch), ('repeats', repeats), ('profiled', profiled))}
    warmup = 0 if warmup == 0 else positive_int(warmup, 'warmup', t('allreduce.usage.size_hint', name='warmup'))
    n = int(world_size) if torchrun else check_gloo(world_size, sizes['layers'], sizes['width'], sizes['batch'],
                                                    share_cores)
    return Plan(n, 'env://' if torchrun else f'tcp://127.0.0.1:{check_port(port)}', bucket_mb=bucket_sizes(bucket_mb),
                warmup=warmup, timeout=check_timeout(timeout), trace_dir=None if trace_dir is None else str(trace_dir),
                language=language(), steps=None if steps is None else {k: portable(f) for k, f in steps.items()},
                cores=cpu_cores(), **sizes)
