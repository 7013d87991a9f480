"""Whether this machine can show a timed criterion (every "Build it" task's overlap): cores, others' load, spread.

A timed criterion is 'cannot measure here' (status cannot_measure, exit 3), never passed or failed, with fewer than
CORES_NEEDED cores, other programs using over LOAD_SHARE of them, or its repeats ('repeats': wall-clock seconds)
spread over SPREAD (an overlap that passed is kept: noise never makes work run in turn overlap).
"""
from __future__ import annotations

import os
import time

CORES_NEEDED = 2  # two lanes (13.3.1-13.3.3) or two gloo processes (13.3.4), one core each at least
LOAD_SHARE = 0.5  # other programs may use at most this share of the cores (D2L_EXT_GRADING_LOAD_SHARE)
# At most this interquartile range of the repeats' wall clocks over their median (D2L_EXT_GRADING_SPREAD). Basis:
# 15 gradings of the worked solutions of 13.3.1-13.3.3 (3 timed repeats each) on the shared 2-core machine with
# others using 40-100% of it spread 0.03-0.39; a machine that spreads more cannot tell overlap from noise.
SPREAD = 0.5
SAMPLE_S = 0.3
TIMED = ('overlap', 'speed')  # the criteria that time the learner's code (a grader's 'speed' too, if it adds one)


def spread(values) -> float:
    """The interquartile range of `values` over their median (0 for fewer than 3 values, or a median of 0)."""
    import statistics
    values = [float(v) for v in values]
    if len(values) < 3 or statistics.median(values) <= 0:
        return 0.0
    q1, _, q3 = statistics.quantiles(values, n=4, method='inclusive')
    return (q3 - q1) / statistics.median(values)


def _jiffies(cpus) -> tuple[int, int]:
    """(busy, total) jiffies of these CPUs from /proc/stat."""
    busy = total = 0
    try:
        with open('/proc/stat') as f:
            for line in f:
                name, *values = line.split()
                if name.startswith('cpu') and name[3:].isdigit() and int(name[3:]) in cpus:
                    numbers = [int(v) for v in values[:8]]
                    idle = numbers[3] + numbers[4]  # idle + iowait
                    total += sum(numbers)
                    busy += sum(numbers) - idle
    except OSError:
        pass
    return busy, total


def others_busy(seconds: float = SAMPLE_S) -> float:
    """The share of this process's cores that other programs kept busy over `seconds` (0 where unknown)."""
    cpus = os.sched_getaffinity(0) if hasattr(os, 'sched_getaffinity') else set(range(os.cpu_count() or 1))
    b0, t0 = _jiffies(cpus)
    mine0 = sum(os.times()[:4])
    time.sleep(seconds)
    b1, t1 = _jiffies(cpus)
    mine = (sum(os.times()[:4]) - mine0) * os.sysconf('SC_CLK_TCK')
    return max(0.0, (b1 - b0 - mine) / (t1 - t0)) if t1 > t0 else 0.0


def state() -> dict:
    """This machine now: the cores this process may use and the share others keep busy."""
    from ..machine import cpu_cores
    return {'cores': cpu_cores(), 'busy': others_busy()}


def reason(machine: dict, needed: int = CORES_NEEDED) -> tuple[str, dict] | None:
    """(catalogue key, fields) saying why a timed criterion cannot be shown here, or None when it can."""
    if machine['cores'] < needed:
        return 'grading.unmeasurable.cores', {'cores': machine['cores'], 'needed': needed}
    share = float(os.environ.get('D2L_EXT_GRADING_LOAD_SHARE', LOAD_SHARE))
    if machine['busy'] > share:
        return 'grading.unmeasurable.load', {'busy': machine['busy'], 'limit': share}
    return None


def mark(criteria: list, machine: dict, needed: int = CORES_NEEDED) -> list:
    """The criteria with every timed one marked unmeasurable (its numbers kept) where `reason` gives one, or where
    its repeats spread over SPREAD."""
    bound = float(os.environ.get('D2L_EXT_GRADING_SPREAD', SPREAD))
    for c in criteria:
        if c.id not in TIMED or c.fields.get('info'):
            continue
        # an overlap shown stands however its wall clocks spread: noise never makes work run in turn overlap
        found = spread(c.fields.get('repeats') or ()) if c.id != 'overlap' or not c.passed else 0.0
        why = reason(machine, needed) or (
            ('grading.unmeasurable.spread', {'spread': found, 'limit': bound}) if found > bound else None)
        if why is not None:
            c.key, c.passed = why[0], False
            c.fields.update(why[1], unmeasurable=True)
    return criteria
