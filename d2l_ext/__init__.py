"""d2l_ext: runnable, measured companions to d2l §13.3 "Automatic Parallelism".

The book's helpers keep their book names where they exist (`Benchmark`, `try_gpu`-style lane
helpers); everything else is named after what it does for the learner.
"""
from .errors import FrameworkMissing, ResultMismatch, UsageError
from .lanes import Lane, describe_lanes, find_lanes, pick_lanes
from .machine import available_frameworks, cpu_cores, provenance, versions
from .timing import Benchmark, Measurement, measure, wait_for_everything, wait_for_lanes

__version__ = '0.1.0'

__all__ = ['Benchmark', 'FrameworkMissing', 'Lane', 'Measurement', 'ResultMismatch', 'UsageError',
           'available_frameworks', 'cpu_cores', 'describe_lanes', 'find_lanes', 'measure',
           'pick_lanes', 'provenance', 'versions', 'wait_for_everything', 'wait_for_lanes']
