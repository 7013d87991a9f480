"""PyTorch as the lessons use it (every section): lane names, CPU lanes beside a GPU, tolerance."""
from __future__ import annotations

from . import Framework


def _gpu_count() -> int:
    import torch
    return torch.cuda.device_count()


def _device(kind: str, index: int):
    import torch
    return torch.device(f'cuda:{index}' if kind == 'gpu' else 'cpu')


def _lane_name(kind: str, index: int) -> str:
    return f'cuda:{index}' if kind == 'gpu' else f'cpu{index}'


def _gpu_name(index: int) -> str:
    import torch
    return torch.cuda.get_device_name(index)


def _gpu_free_bytes(index: int) -> int:
    import torch
    return torch.cuda.mem_get_info(index)[0]


def _cpu_lanes(gpus: int, cores: int) -> list[dict]:
    if gpus == 1:
        # one core stays free to launch the GPU's kernels (measured on the H200 machine: with
        # all 16 cores busy, the GPU lane waited for its launching thread)
        used = max(1, cores - 1)
        return [dict(index=0, threads=used, name='cpu', label_key='core.lane_cpu_label',
                     explanation_keys=('core.lane_cpu_beside_gpu_torch',))]
    share = max(1, cores // 2)
    note = ('core.lane_one_core',) if cores < 2 else ()
    return [dict(index=i, threads=share, label_key='core.lane_cpu_share_label',
                 explanation_keys=('core.lane_cpu_share_torch', *note)) for i in range(2)]


def _wait_loaded(lanes) -> None:
    import sys
    torch = sys.modules.get('torch')  # work cannot be queued in a framework that is not loaded
    if torch is not None:
        for i in sorted({lane.index for lane in lanes if lane.kind == 'gpu'}):
            torch.cuda.synchronize(i)  # each GPU by index: a bare synchronize() waits for the current one


def _wait_all() -> None:
    import sys
    torch = sys.modules.get('torch')
    if torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized():
        for i in range(torch.cuda.device_count()):
            torch.cuda.synchronize(i)


def _tolerance() -> float:
    import sys
    torch = sys.modules.get('torch')  # TF32 can only be on where PyTorch is loaded
    return 5e-3 if torch is not None and torch.backends.cuda.matmul.allow_tf32 else 1e-4


FRAMEWORK = Framework(
    name='torch', display='PyTorch', module='torch', backend='d2l_ext.backends.torch_backend',
    missing='core.torch_missing', gpu_explanation='core.lane_gpu_torch', aliases=('pytorch',), order=0,
    gpu_count=_gpu_count, device=_device, lane_name=_lane_name, cpu_lanes=_cpu_lanes, tolerance=_tolerance,
    cpu_queued=False, shared_cpu_rule='shared', gpu_name=_gpu_name, gpu_free_bytes=_gpu_free_bytes,
    wait_loaded=_wait_loaded, wait_all=_wait_all, copy_plans=True)
