"""13.3.4: a profiled step turned into timeline events, one compute and one all-reduce execution lane per process."""
from __future__ import annotations

import glob
import os
import shutil
import tempfile

from ..i18n import t
from ..overlap import busy, intersection

_BACKWARD = 'autograd::engine::evaluate_function: '


def _role(name: str, on_gpu: bool) -> str | None:
    """'backward', 'allreduce', 'optimizer', 'compute' (forward) or None (not drawn)."""
    low = name.lower()
    # gloo's event is the call itself, on its own thread; NCCL's CPU-side event only enqueues: take its kernel
    if name == 'gloo:all_reduce' or (on_gpu and 'nccl' in low and 'allreduce' in low):
        return 'allreduce'
    if name.startswith('Optimizer.step'):
        return 'optimizer'
    if name.startswith(_BACKWARD):
        return 'backward'
    # GPU kernels: NCCL's are handled above, the rest is the model's arithmetic. On CPUs the forward pass
    # is left out: nothing can overlap it, and the lesson's timeline starts where communication may begin.
    return 'compute' if on_gpu else None


def timeline_events(prof, rank: int) -> list[dict]:
    """Events {'lane', 'name', 'start', 'end', 'role'} in seconds from the step's start (display.timeline draws them).

    CPU operators are taken at the top of backward (autograd's per-node evaluate_function), the time
    origin at backward's start; on GPUs the kernels themselves. Collectives get their own execution lane, as they
    run on the communication library's threads (gloo) or streams (NCCL) beside the computation.
    """
    events = []
    for e in prof.events():
        on_gpu = e.device_type.name == 'CUDA'
        role = _role(e.name, on_gpu)
        if role is None:
            continue
        lane = 'allreduce' if role == 'allreduce' else 'compute'
        name = e.name[len(_BACKWARD):] if e.name.startswith(_BACKWARD) else e.name
        events.append({'lane': t('allreduce.lane', rank=rank, what=t(f'allreduce.lane.{lane}')),
                       'name': name, 'start': e.time_range.start / 1e6, 'end': e.time_range.end / 1e6, 'role': role,
                       'rank': rank, 'stream': lane})  # so a plot can relabel the lane in its own language
    origin = min((e['start'] for e in events), default=0.0)
    for e in events:
        e['start'] -= origin
        e['end'] -= origin
    return sorted(events, key=lambda e: (e['lane'], e['start']))


def step_stats(events: list[dict]) -> dict:
    """13.3.4: one process's profiled step in four numbers, from its intervals (HTA's overlap, d2l_ext.overlap).

    comm: seconds the all-reduces were busy (their union); shared: of those, the seconds during which
    the process was computing too (GPU kernels where there are any, else backward's operators);
    backward: first to last backward operator (its span: stretched when communication slows it);
    calls: all-reduce calls (one event each).
    """
    comm = [(e['start'], e['end']) for e in events if e['role'] == 'allreduce']
    kernels = [(e['start'], e['end']) for e in events if e['role'] == 'compute']
    backward = [(e['start'], e['end']) for e in events if e['role'] == 'backward']
    computing = kernels or backward
    return {'comm': busy(comm), 'shared': busy(intersection(comm, computing)), 'calls': len(comm),
            'backward': max(e for _, e in backward) - min(s for s, _ in backward) if backward else 0.0}


TRACE_PREFIX = 'd2l-allreduce-'  # then the pid of the process that shows the traces


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def trace_folder() -> tempfile.TemporaryDirectory:
    """13.3.4: a temporary folder for Chrome traces, removed when the object is dropped or this process ends.

    A kernel that is killed runs no clean-up, so each call first removes the folders of processes that
    no longer exist: traces stay only while a live notebook can still show them.
    """
    for path in glob.glob(os.path.join(tempfile.gettempdir(), TRACE_PREFIX + '*')):
        pid = os.path.basename(path)[len(TRACE_PREFIX):].split('-')[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)
    return tempfile.TemporaryDirectory(prefix=f'{TRACE_PREFIX}{os.getpid()}-')
