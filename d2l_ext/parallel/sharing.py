"""13.3.1: each lane's time per product while every lane was busy, from the products' own intervals (lanes that split
one CPU need not keep the speed they had alone; 13.3.1 predicts "together" from it)."""
from __future__ import annotations

import statistics

from ..backends import split_row


def events_of(timeline, lane: dict) -> list[dict]:
    """A lane's events in a timeline (its ids, Lane.as_dict): its own row and its engine workers' rows (MXNet)."""
    return [e for e in timeline.events if split_row(e['lane'])[0] == lane['name']]


def common_window(timeline) -> tuple[float, float] | None:
    """From the last lane's first start to the first lane's last end: when every lane was busy (None if never)."""
    spans = []
    for lane in timeline.lanes:
        mine = events_of(timeline, lane)
        if not mine:
            return None
        spans.append((min(e['start'] for e in mine), max(e['end'] for e in mine)))
    start, end = max(a for a, _ in spans), min(b for _, b in spans)
    return (start, end) if end > start else None


def product_seconds(timeline) -> list[float | None]:
    """Per lane (timeline.lanes order): median seconds of its products inside common_window (so a lane that finished
    early lends no one the speed of running alone); None for a lane with no product inside it."""
    window = common_window(timeline)
    if window is None:
        return [None] * len(timeline.lanes)
    a, b = window
    out = []
    for lane in timeline.lanes:
        inside = [e['end'] - e['start'] for e in events_of(timeline, lane) if e['start'] >= a and e['end'] <= b]
        out.append(statistics.median(inside) if inside else None)
    return out


def busy_repeats(kept, repeats: int) -> list[list[float]]:
    """Per lane of `kept` (a Together), product_seconds of each of its last `repeats` calls (13.3.1's figure)."""
    import types
    lanes = [lane.as_dict() for lane in kept.lanes]
    rows = [product_seconds(types.SimpleNamespace(lanes=lanes, events=kept.events(k))) for k in range(-repeats, 0)]
    return [[row[i] for row in rows if row[i]] for i in range(len(lanes))]
