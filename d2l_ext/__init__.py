"""d2l_ext: runnable, measured companions to d2l §13.3 "Automatic Parallelism".

The book's helpers keep their book names where they exist (`Benchmark`, `try_gpu`-style lane
helpers); everything else is named after what it does for the learner.
"""
from .checking import check_close, relative_error
from .errors import FrameworkMissing, ResultMismatch, UsageError, WorkerFailed
from .frameworks import available_frameworks
from .i18n import language, set_language, t
from .lanes import Lane, describe_lanes, find_lanes, pick_lanes
from .machine import cpu_cores, provenance, versions
from .timing import Benchmark, Comparison, Measurement, compare, measure, wait_for_everything, wait_for_lanes

__version__ = '0.1.0'


def __getattr__(name):
    # `d2l_ext.check` (the "Build it" graders, 13.3.1-13.3.4) loads its modules only when first used
    if name == 'check':
        from .display.grading import check
        return check
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')


__all__ = ['Benchmark', 'Comparison', 'FrameworkMissing', 'Lane', 'Measurement', 'ResultMismatch', 'UsageError',
           'WorkerFailed', 'available_frameworks', 'check', 'check_close', 'compare', 'cpu_cores', 'describe_lanes',
           'find_lanes', 'language', 'measure', 'pick_lanes', 'provenance', 'relative_error', 'set_language', 't',
           'versions', 'wait_for_everything', 'wait_for_lanes']
