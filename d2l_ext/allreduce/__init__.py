"""13.3.4: gradients all-reduced while backward still runs, measured on local processes (gloo) or GPUs (NCCL).

    from d2l_ext.allreduce import run_allreduce
    result = run_allreduce(world_size=2, bucket_mb=[0.25, 1, 4, 25], repeats=5, trace_dir='traces')
    print(result.summary()); result.to_frame(); result.overlap_row('hooks')  # interval overlap, model, wall clock

Names load on first use (PEP 562), so the command line can read `allreduce.cli` without importing PyTorch.
"""
import importlib

_HOMES = {'ProcessFailed': 'engine', 'run_allreduce': 'engine', 'run_under_torchrun': 'engine',
          'Plan': 'plan', 'make_plan': 'plan', 'world_sizes': 'plan', 'AllreduceResult': 'results',
          'Prediction': 'results', 'ddp_buckets': 'results', 'flat_allreduce': 'steps', 'gradient_tolerance': 'worker',
          'trace_folder': 'trace',
          'Version': 'results', 'allreduce_alone': 'steps', 'allreduce_in_hooks': 'steps',
          'backward_then_allreduce': 'steps', 'allreduce_in_buckets': 'steps',
          'local_step': 'steps', 'loss_of': 'steps', 'mlp': 'steps'}
__all__ = sorted(_HOMES)


def __getattr__(name):
    if name not in _HOMES:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    return getattr(importlib.import_module(f'.{_HOMES[name]}', __name__), name)
