"""Lanes: the things that can run work at the same time on this machine (13.3.1 and after).

The book assumes two GPUs (`d2l.try_all_gpus()[0]` and `[1]`). Most learners have none or one,
so we pick two lanes from what exists and say plainly what each one is:

* two or more GPUs -> GPU 0 and GPU 1 (or all GPUs);
* one GPU          -> the GPU and the CPU;
* CPU only         -> two CPU lanes, each with a fixed share of the cores.
"""
from __future__ import annotations

from dataclasses import dataclass, asdict

from .errors import UsageError
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


def gpu_count(framework: str) -> int:
    """GPUs this framework can use here (0 for MXNet's CPU-only wheel)."""
    if framework == 'torch':
        import torch
        return torch.cuda.device_count()
    import mxnet as mx
    try:
        return mx.context.num_gpus()
    except Exception:  # the CPU wheel may raise instead of returning 0
        return 0


def gpu_name(framework: str, index: int) -> str:
    """Marketing name of a GPU, for labels."""
    if framework == 'torch':
        import torch
        return torch.cuda.get_device_name(index)
    return f'GPU {index}'


def mxnet_cpu_workers() -> int:
    """Engine worker threads MXNet uses for CPU ops in this process (set before import)."""
    import os
    return int(os.environ.get('MXNET_CPU_WORKER_NTHREADS', '1'))


def find_lanes(framework: str = 'torch', count: int | str = 2, *, gpus: int | None = None,
               cores: int | None = None) -> list[Lane]:
    """The lanes this machine offers a framework, best first (13.3.1's `devices`).

    `count` is 2 (the book's experiment) or 'all' (every GPU). `gpus` and `cores` override what
    the machine reports; tests use them to fake one or two GPUs.
    """
    fw = check_framework(framework)
    g = gpu_count(fw) if gpus is None else int(gpus)
    c = cpu_cores() if cores is None else int(cores)
    gpu_word = 'PyTorch queues its kernels on the GPU and returns at once' if fw == 'torch' else \
        "MXNet's engine queues the work on the GPU and returns at once"

    def gpu_lane(i):
        name = f'cuda:{i}' if fw == 'torch' else f'gpu({i})'
        label_name = gpu_name(fw, i) if gpus is None else f'GPU {i}'
        return Lane(fw, name, 'gpu', i, f'GPU {i} ({label_name})' if gpus is None else f'GPU {i}',
                    f'a whole GPU: {gpu_word}', 0, True)

    if g >= 2:
        n = g if count == 'all' else min(int(count), g)
        return [gpu_lane(i) for i in range(n)]
    if g == 1:
        if fw == 'torch':
            # one core stays free to launch the GPU's kernels (measured on the H200 machine: with
            # all 16 cores busy, the GPU lane waited for its launching thread)
            t = max(1, c - 1)
            cpu = Lane(fw, 'cpu', 'cpu', 0, f'CPU ({t} of {c} cores)',
                       f'the CPU with {t} of its {c} cores (one is left to feed the GPU): PyTorch runs CPU '
                       'operations to completion in the calling thread, so this lane gets its own Python '
                       'thread to run beside the GPU', t, False)
        else:
            cpu = Lane(fw, 'cpu(0)', 'cpu', 0, f'CPU ({c} cores)',
                       "the CPU: MXNet's engine runs its operations on CPU worker threads", c, True)
        return [gpu_lane(0), cpu]
    # CPU only: two lanes that share the cores
    if fw == 'torch':
        share = max(1, c // 2)
        note = '' if c >= 2 else ' This machine has one core, so the two lanes take turns: expect no speedup.'
        return [Lane(fw, f'cpu{i}', 'cpu', i, f'CPU lane {i + 1} ({share} of {c} cores)',
                     f'a Python thread running PyTorch with {share} intra-op thread(s), '
                     f'{share} of the {c} cores; PyTorch runs CPU operations synchronously, '
                     f'so two lanes need two threads.{note}', share, False)
                for i in range(2)]
    workers = mxnet_cpu_workers()
    return [Lane(fw, f'cpu({i})', 'cpu', i, f'MXNet cpu({i})',
                 f'its operations go to MXNet\'s dependency engine, which runs '
                 f'independent operations on {workers} CPU worker thread(s) '
                 '(MXNET_CPU_WORKER_NTHREADS, read once at import), shared by both contexts',
                 1, True)
            for i in range(2)]


def pick_lanes(framework: str = 'torch', names=None, **fake) -> list[Lane]:
    """Lanes by name (CLI --lanes), or the default two; an unknown name lists what exists."""
    lanes = find_lanes(framework, 'all' if names else 2, **fake)
    if not names:
        return lanes
    if isinstance(names, str):
        names = [n.strip() for n in names.split(',') if n.strip()]
    by_name = {lane.name: lane for lane in lanes}
    chosen = []
    for n in names:
        if n not in by_name:
            raise UsageError(f"lane {n!r} does not exist here for {lanes[0].framework}; "
                             f"this machine's lanes are: {', '.join(by_name)}")
        chosen.append(by_name[n])
    if len(chosen) < 1:
        raise UsageError('name at least one lane')
    return chosen


def describe_lanes(lanes: list[Lane]) -> str:
    """A few lines a student can read: what each lane really is."""
    return '\n'.join(f'lane {i + 1}: {lane.name:8s} {lane.label} - {lane.explanation}'
                     for i, lane in enumerate(lanes))
