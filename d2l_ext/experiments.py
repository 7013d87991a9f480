"""Old entry points of the experiments.  # compatibility: remove once callers moved

The experiments now live with their sections, each run in its framework's worker through
`workers.call_in_worker`: `d2l_ext.parallel` (13.3.1) and `d2l_ext.communication` (13.3.2).
"""
from __future__ import annotations

import importlib

from .machine import frameworks_for  # noqa: F401

# old name -> (new module, new name)
_MOVED = {
    'lanes': ('parallel', 'lanes_here'), 'parallel': ('parallel', 'parallel'), 'timeline': ('parallel', 'timeline'),
    'scaling': ('parallel', 'scaling'), 'independence': ('parallel', 'independence'),
    'small_ops': ('parallel', 'small_ops'), 'launch_order': ('parallel', 'launch_order'),
    'comm': ('communication', 'comm'), 'cpu_gpu_together': ('communication', 'exercise_three'),
}


def __getattr__(name: str):
    if name not in _MOVED:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    module, new = _MOVED[name]
    return getattr(importlib.import_module(f'd2l_ext.{module}'), new)
