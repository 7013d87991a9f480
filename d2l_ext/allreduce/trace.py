"""13.3.4: a profiled step turned into timeline events, one compute and one all-reduce execution lane per process."""
from __future__ import annotations

from ..i18n import t

_BACKWARD = 'autograd::engine::evaluate_function: '


def _role(name: str, on_gpu: bool) -> str | None:
    """'backward', 'allreduce', 'optimizer', 'compute' (forward) or None (not drawn)."""
    low = name.lower()
    if name in ('gloo:all_reduce', 'nccl:all_reduce') or (on_gpu and 'nccl' in low and 'allreduce' in low):
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
