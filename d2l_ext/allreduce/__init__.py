"""13.3.4: gradients all-reduced while backward still runs, on gloo processes; names load on first use (PEP 562)."""
import importlib

_HOMES = {'ProcessFailed': 'worker', 'run_allreduce': 'worker', 'make_plan': 'plan', 'world_sizes': 'plan',
          'AllreduceResult': 'results', 'Prediction': 'results', 'Version': 'results',
          **{name: 'steps' for name in ('backward_then_allreduce', 'flat_allreduce', 'allreduce_in_hooks',
                                         'allreduce_in_buckets', 'loss_of', 'mlp', 'bucket_params')}}
__all__ = sorted(_HOMES)


def __getattr__(name):
    if name not in _HOMES:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    return getattr(importlib.import_module(f'.{_HOMES[name]}', __name__), name)
