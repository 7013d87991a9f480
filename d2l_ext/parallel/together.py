"""13.3.1: all lanes together as a timed variant that keeps, in every call, when each product ran (PyTorch).

A timeline recorded in a run of its own can keep another pace than the repeats it is set beside.
Timed as the "together" variant, `Together` makes every repeat its own timeline, so the timeline
drawn and the numbers compared with it come from one run: the repeat whose time was the median.
"""
from __future__ import annotations

from ..backends.torch_backend import KeptTogether, timeline_clock
from .core import TimelineResult, kept_timeline, median_index


class Together(KeptTogether):
    """`Together(lanes, xs, iters)()`: lane i computes iters[i] products xs[i] @ xs[i], all lanes at once.

    Returns each lane's products, as run_on_lanes does (the caller waits for the lanes, as compare
    and measure do). Every call keeps each product's interval: thread clock on CPU lanes, CUDA
    events on GPU lanes; `timeline(times)` reads back the call timed as the median of `times`.
    """

    def median_index(self, times) -> int:
        """Which of `times` (the last len(times) calls' timed repeats, in order) is the median (the nearest one)."""
        return median_index(times)

    def timeline(self, times) -> TimelineResult:
        """The kept call timed as the median of `times` (its devices waited for), as a TimelineResult."""
        return kept_timeline(self, times, 'torch', int(self.xs[0].shape[0]), timeline_clock(self.lanes))
