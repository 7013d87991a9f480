"""13.3.1's technique, lanes running together: the one lane runner and a timed variant that keeps its intervals.

`run_together(lanes, works)` is the lane runner every section uses (the Build-it task's worked solution too): a CPU
lane on its own kept thread with its share of the cores, GPU work queued from the caller, then a wait for every GPU.
It is defined in backends.torch_backend (the backend interface's run_on_lanes), a layer below the sections that
run it; import it from here. `Together` times all lanes
at once as one variant and keeps, in every call, when each product ran, so the timeline drawn and the numbers beside
it come from one run: the repeat whose time was the median.
"""
from __future__ import annotations

from ..backends.torch_backend import KeptTogether, run_together, timeline_clock
from .core import TimelineResult, kept_timeline, median_index

__all__ = ['Together', 'run_together']


class Together(KeptTogether):
    """`Together(lanes, xs, iters)()`: lane i computes iters[i] products xs[i] @ xs[i], all lanes at once.

    Returns each lane's products (the caller waits for the lanes, as compare and measure do). Every call keeps each
    product's interval: thread clock on CPU lanes, CUDA events on GPU lanes.
    """

    def median_index(self, times) -> int:
        """Which of `times` (the last len(times) calls' timed repeats, in order) is the median (the nearest one)."""
        return median_index(times)

    def timeline(self, times) -> TimelineResult:
        """The kept call timed as the median of `times` (its devices waited for), as a TimelineResult."""
        return kept_timeline(self, times, 'torch', int(self.xs[0].shape[0]), timeline_clock(self.lanes))
