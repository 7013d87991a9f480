"""13.3.4: gradients all-reduced while backward still runs, measured on local processes (gloo) or GPUs (NCCL).

    from d2l_ext.allreduce import run_allreduce
    result = run_allreduce(world_size=2, bucket_mb=[0.25, 1, 4, 25], repeats=5, trace_dir='traces')
    print(result.summary()); result.to_frame()
"""
from .engine import ProcessFailed, run_allreduce, run_under_torchrun
from .plan import Plan, make_plan
from .results import AllreduceResult, Prediction, Version
from .steps import allreduce_alone, allreduce_in_hooks, backward_then_allreduce, local_step, loss_of, mlp

__all__ = ['AllreduceResult', 'Plan', 'Prediction', 'ProcessFailed', 'Version', 'allreduce_alone',
           'allreduce_in_hooks', 'backward_then_allreduce', 'local_step', 'loss_of', 'make_plan', 'mlp',
           'run_allreduce', 'run_under_torchrun']
