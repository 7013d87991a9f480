"""13.3.0 and 13.3.1: a prediction beside its measurement, and a gap explained only by a measured test.

The tests: the repeats' own range (run-to-run spread) and each lane's time per product measured while
every lane was busy (d2l_ext.parallel.sharing). Where neither explains a gap, the sentence gives the
numbers and says that nothing measured tests a cause: no interference, overhead or noise is assumed.
"""
from __future__ import annotations

import statistics

from ..i18n import t
from ..parallel.sharing import product_seconds, slowdowns
from ..results import NOISE, close


def speed_text(result, alone: list[float], labels: list[str] | None = None, alone_from: str = 'medians') -> str:
    """Each lane's seconds per product while every lane was busy (from the timeline) against the lane alone.

    `alone_from` names where `alone` was measured: 'medians' (the lanes' timed repeats) or 'rates' (a rate cell).
    """
    together = product_seconds(result)
    ratios = slowdowns(together, alone)
    names = labels or result.lanes
    lanes = [t('parallel.speed.lane', lane=name, together=s * 1e3, alone=a * 1e3, ratio=r)
             for name, s, a, r in zip(names, together, alone, ratios) if s is not None and r is not None]
    key = 'parallel.speed.head_rates' if alone_from == 'rates' else 'parallel.speed.head'
    return t(key, lanes=t('parallel.speed.sep').join(lanes)) if lanes else ''


def gap_text(what: str, predicted: float, repeats: list[float], shared: float | None = None) -> str:
    """A prediction beside its measurement (median of `repeats`); a gap beyond NOISE is explained only by a test.

    Tested here: the repeats' own range (run-to-run spread) and, where given, `shared`: the prediction redone at
    the time per product measured while every lane was busy. Neither explains it: the numbers, and no cause.
    """
    measured = statistics.median(repeats)
    fields = dict(what=what, predicted=predicted, measured=measured, ratio=measured / predicted, noise=NOISE,
                  low=min(repeats), high=max(repeats), shared=shared or 0.0)
    if close(measured, predicted):
        key = 'parallel.gap.agrees'
    elif min(repeats) <= predicted <= max(repeats):
        key = 'parallel.gap.spread'
    elif shared is not None and close(measured, shared) and not close(shared, predicted):
        key = 'parallel.gap.shared'
    else:
        key = 'parallel.gap.open'
    return t(key, **fields)


def prediction_text(predicted: dict[str, float], measured: dict[str, list[float]],
                    shared: dict[str, float] | None = None) -> str:
    """Every prediction beside its measurement, one line per variant, each gap explained only by a test (13.3.1)."""
    shared = shared or {}
    return '\n'.join(gap_text(name, p, list(measured[name]), shared.get(name))
                     for name, p in predicted.items() if name in measured)
