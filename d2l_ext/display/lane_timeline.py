"""13.3.0's lane timeline: when each product ran on each lane."""
from __future__ import annotations

import dataclasses

from ..frameworks import framework
from ..parallel.core import row_label
from . import style
from .timeline import aggregate, draw_timeline

MAX_BARS = 200  # a lane with more products is drawn as its busy stretches (timeline.aggregate)


def plot_timeline(result, ax=None, title=None, max_bars: int | None = MAX_BARS):
    """When each product ran, a row per lane (or engine worker); over `max_bars` products a lane's busy stretches."""
    merged = set()
    if max_bars is not None:
        events, merged = aggregate(result.events, max_bars)
        result = dataclasses.replace(result, events=events)
    ids = [lane['name'] for lane in result.lanes]
    rows = None if framework(result.framework).worker_rows else {n: style.lane_role(i) for i, n in enumerate(ids)}
    lang = style.plot_language()
    labels = {row: row_label(row, result.lanes, lang) for row in {*ids, *(e['lane'] for e in result.events)}}
    for lane, k in zip(result.lanes, result.iters):  # each lane's count; one drawn as busy stretches says so too
        if lane['name'] in labels:
            labels[lane['name']] = style.plot_text('parallel.timeline_merged' if lane['name'] in merged else
                                                   'parallel.timeline_row', lane=labels[lane['name']], iters=k)
    if title is None:  # one line: which run (the products per lane are the rows above it in 13.3.0's figure)
        which = 'parallel.timeline_own' if result.repeat is None else 'parallel.timeline_median'
        title = style.plot_text(which, framework=framework(result.framework).display, size=result.size)
    return draw_timeline(result.events, ax=ax, rows=rows, row_labels=labels, framework=result.framework, title=title)
