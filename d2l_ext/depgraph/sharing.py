"""How busy other programs kept the cores while something was timed (13.3.3): a measured fact, not a guess.

The share comes from the kernel's CPU counters (Linux /proc/stat, all cores, the hypervisor's
steal included) minus this process's own CPU time, over the wall-clock time and the cores. On a
shared machine a box timed alone and the step timed later can see very different shares; the
lesson prints both beside the times, so a gap between them is read with the evidence at hand.
"""
import os
import time
from contextlib import contextmanager
from dataclasses import dataclass


def _machine_busy_s():
    """(CPU seconds all cores spent busy since boot, not idle nor waiting for I/O; cores counted), or None."""
    try:
        with open('/proc/stat') as f:
            lines = f.read().splitlines()
        fields = [int(x) for x in lines[0].split()[1:]]
    except (OSError, ValueError, IndexError):
        return None
    cores = sum(1 for line in lines if line.startswith('cpu') and line[3:4].isdigit())  # the machine's, not ours
    idle = sum(fields[3:5])  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf('SC_CLK_TCK'), max(1, cores)  # user .. steal


_wall = time.perf_counter  # a name of this module's, so a test can drive the clock without patching `time`


def _own_cpu_s():
    t = os.times()
    return t.user + t.system


@dataclass
class OthersBusy:
    """Share of all cores that other programs used during a `with others_busy() as b:` block (None: unknown)."""

    share: float | None = None
    wall: float = 0.0


@contextmanager
def others_busy():
    """Measure, around the block, the share of the cores other programs used (13.3.3)."""
    out = OthersBusy()
    busy0, own0, t0 = _machine_busy_s(), _own_cpu_s(), _wall()
    try:
        yield out
    finally:
        busy1, own1 = _machine_busy_s(), _own_cpu_s()
        out.wall = _wall() - t0
        if busy0 is not None and busy1 is not None and out.wall > 0:
            # The counters tick every 10 ms or so: a short block reads rough, never outside [0, 1].
            others = (busy1[0] - busy0[0]) - (own1 - own0)
            out.share = min(1.0, max(0.0, others / (out.wall * busy1[1])))
