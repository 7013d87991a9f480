"""13.3.1's technique: `run_together(lanes, works)`, the one lane runner (the Build-it task's worked solution; defined
in backends.torch_backend, a layer below), and `Together`, all lanes at once keeping when each product ran, so a
timeline and the numbers beside it come from one repeat: the median one."""
from __future__ import annotations

from ..backends.torch_backend import KeptTogether, run_together, timeline_clock
from .core import TimelineResult, kept_timeline

__all__ = ['Together', 'run_together']


class Together(KeptTogether):
    """`Together(lanes, xs, iters)()`: backends.torch_backend.KeptTogether, with its median repeat as a timeline."""

    def timeline(self, times) -> TimelineResult:
        """The kept call timed as the median of `times` (its devices waited for), as a TimelineResult."""
        return kept_timeline(self, times, 'torch', int(self.xs[0].shape[0]), timeline_clock(self.lanes))
