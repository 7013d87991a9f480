"""Native libraries' log lines kept out of lesson output: torch.profiler (13.3.2, 13.3.4), MXNet's engine (13.3.1)."""
from __future__ import annotations

import contextlib
import os
import warnings


@contextlib.contextmanager
def no_profiler_chatter():
    """Keep torch.profiler's start/stop lines out of the output: Kineto writes them to the stderr file
    descriptor itself, with no switch to turn them off, so the descriptor is pointed at /dev/null meanwhile."""
    saved = os.dup(2)
    with open(os.devnull, 'w') as devnull:
        os.dup2(devnull.fileno(), 2)
    try:
        with warnings.catch_warnings():
            # Each profile here is one cycle that keeps every event: the "clears events" warning is noise.
            warnings.filterwarnings('ignore', message='Warning: Profiler clears events', category=UserWarning)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
