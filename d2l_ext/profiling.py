"""Native libraries' log lines kept out of lesson output: torch.profiler (13.3.2, 13.3.4), MXNet's engine (13.3.1)."""
from __future__ import annotations

import contextlib
import os


@contextlib.contextmanager
def no_profiler_chatter():
    """Keep torch.profiler's start/stop lines out of the output: Kineto writes them to the stderr file
    descriptor itself, with no switch to turn them off, so the descriptor is pointed at /dev/null meanwhile."""
    saved = os.dup(2)
    with open(os.devnull, 'w') as devnull:
        os.dup2(devnull.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
