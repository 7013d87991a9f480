"""Overlap measured from intervals (13.3.1 lanes, 13.3.2 run and copy, 13.3.4 all-reduce and backward, the graders).

As Holistic Trace Analysis computes communication-computation overlap: of the time one activity (communication, a
copy, a second lane) was busy, the fraction the other was busy too. Intervals are (start, end) seconds on one clock,
each side merged into its union first (two busy streams at once count once): always in [0, 1], None if never busy.
"""
from __future__ import annotations

from collections.abc import Iterable

Interval = tuple[float, float]


def union(intervals: Iterable[Interval]) -> list[Interval]:
    """The intervals merged into sorted, disjoint ones (empty and reversed intervals are dropped)."""
    merged: list[list[float]] = []
    for start, end in sorted((float(s), float(e)) for s, e in intervals if e > s):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(s, e) for s, e in merged]


def busy(intervals: Iterable[Interval]) -> float:
    """Seconds during which at least one of the intervals was running."""
    return sum(e - s for s, e in union(intervals))


def intersection(a: Iterable[Interval], b: Iterable[Interval]) -> list[Interval]:
    """The stretches during which something of `a` and something of `b` ran at the same time."""
    ua, ub, out, i, j = union(a), union(b), [], 0, 0
    while i < len(ua) and j < len(ub):
        start, end = max(ua[i][0], ub[j][0]), min(ua[i][1], ub[j][1])
        if end > start:
            out.append((start, end))
        if ua[i][1] < ub[j][1]:
            i += 1
        else:
            j += 1
    return out


def subtract(a: Iterable[Interval], b: Iterable[Interval]) -> list[Interval]:
    """The parts of `a` during which nothing of `b` ran (e.g. backward minus the time it sat blocked)."""
    out = []
    ub = union(b)
    for start, end in union(a):
        cursor = start
        for bs, be in ub:
            if be <= cursor or bs >= end:
                continue
            if bs > cursor:
                out.append((cursor, bs))
            cursor = max(cursor, be)
        if cursor < end:
            out.append((cursor, end))
    return out


def overlap_fraction(measured: Iterable[Interval], other: Iterable[Interval]) -> float | None:
    """Of the time `measured` was busy, the fraction `other` was busy too: in [0, 1], None if never busy."""
    measured = union(measured)
    total = busy(measured)
    if total <= 0:
        return None
    shared = busy(intersection(measured, other))
    return min(1.0, max(0.0, shared / total))
