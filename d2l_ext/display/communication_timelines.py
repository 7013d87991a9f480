"""13.3.2's stream timelines: one panel per copy plan, each product and copy its own bar; bars too narrow for an
edge are parted by a thin line where they touch, so 50 copies in a row stay 50. display/communication.py
re-exports plot_comm_timelines."""
from __future__ import annotations

from . import style
from .timeline import BAR_HEIGHT, EDGE_COLOUR, EDGE_MIN_PX, draw_timeline

STREAM_ROWS = {'compute stream': 'compute', 'copy stream': 'copy', 'compute thread': 'compute', 'copy thread': 'copy'}
PART_PT = 0.5  # the line parting two touching bars too narrow for an edge
MIN_BAR_SHARE = 0.01  # of the longest panel: a bar with room drawn at least this wide (H200 copies looked idle at 1 px)


def _mode_name(mode: str) -> str:
    from ..i18n import catalogue
    key = f'communication.mode.{mode}'
    return style.plot_text(key) if key in catalogue('en') else mode


def timeline_title(tl) -> str:
    """A panel's title from its own data: the plan and how long its one run took (a CPU's: its products' size)."""
    count = {role: sum(e['role'] == role for e in tl.events) for role in ('compute', 'copy')}
    thin = tl.inner not in (None, tl.size)  # a CPU's timed task: n x inner by inner x n, one run, each op timed
    total = max((e['end'] for e in tl.events), default=0.0) - min((e['start'] for e in tl.events), default=0.0)
    from .verdict import num
    return style.plot_text(f"communication.timeline.caption{'_thin' if thin else ''}", plan=_mode_name(tl.plan),
                           products=count['compute'], copies=count['copy'], n=tl.size, m=tl.inner,
                           total=num(total, 'ms'))


def touching_starts(events, px_per_second: float) -> list[tuple[str, float]]:
    """(row, start) of each bar that starts where the one before it in its row ends and is too narrow for an edge
    (EDGE_MIN_PX): where a parting line is drawn."""
    out = []
    for lane in dict.fromkeys(e['lane'] for e in events):
        mine = sorted((e for e in events if e['lane'] == lane), key=lambda e: e['start'])
        for a, b in zip(mine, mine[1:]):
            narrow = min(a['end'] - a['start'], b['end'] - b['start']) * px_per_second < EDGE_MIN_PX
            if narrow and b['start'] - a['end'] < 1 / max(px_per_second, 1e-9):  # less than a pixel apart
                out.append((lane, b['start']))
    return out


def widened(events, least: float) -> list[dict]:
    """The events, each bar shorter than `least` (seconds) widened about its middle into the free time beside it
    (never over its neighbours' own times): a busy row of short copies looks busy; touching bars stay as they are."""
    out, half = [dict(e) for e in events], least / 2
    for lane in dict.fromkeys(e['lane'] for e in events):
        mine = sorted((i for i, e in enumerate(events) if e['lane'] == lane), key=lambda i: events[i]['start'])
        for k, i in enumerate(mine):
            e = events[i]
            if e['end'] - e['start'] >= least:
                continue
            mid = (e['start'] + e['end']) / 2
            before = events[mine[k - 1]]['end'] if k else 0.0
            after = events[mine[k + 1]]['start'] if k + 1 < len(mine) else float('inf')
            out[i]['start'] = min(e['start'], max(mid - half, before))
            out[i]['end'] = max(e['end'], min(mid + half, after))
    return out


def plot_comm_timelines(timelines, axes=None):
    """One stream timeline per copy plan, each titled with its one run's time, touching narrow bars parted by a line;
    `axes`: panels of a figure to draw in. Every panel of the figure then shares one time axis."""
    fig = axes[0].figure if axes is not None else style.figure(nrows=len(timelines), height=2.5 * len(timelines) + 1)[0]
    every = [e for tl in timelines for e in tl.events]  # the longest panel sets the scale of all
    span = max((e['end'] for e in every), default=0.0)  # px per second: draw_timeline fits bars in 0.8 of the width
    for tl, ax in zip(timelines, fig.axes if axes is None else axes):
        named = {lane: style.plot_text(f'communication.row.{lane.replace(" ", "_")}') for lane in STREAM_ROWS}
        least = MIN_BAR_SHARE * max(e['end'] for e in every)
        events = widened([dict(e, lane=named.get(e['lane'], e['lane'])) for e in tl.events], least)
        rows = {named[lane]: role for lane, role in STREAM_ROWS.items() if any(e['lane'] == lane for e in tl.events)}
        copy = 'communication.legend.copy_cpu' if tl.clock == 'thread clock' else 'communication.legend.copy'
        legend = {'compute': style.plot_text('communication.legend.compute'), 'copy': style.plot_text(copy)}
        draw_timeline(events, ax=ax, rows=rows, title=timeline_title(tl), legend_names=legend)
        scale = style.time_unit(max(e['end'] for e in events))[1]  # draw_timeline's scale for this panel
        parts = touching_starts(events, 0.8 * ax.bbox.width / span if span > 0 else 0.0)
        for y, lane in enumerate(rows):
            xs = [start * scale for row, start in parts if row == lane]
            if xs:
                ax.vlines(xs, y - BAR_HEIGHT / 2, y + BAR_HEIGHT / 2, colors=EDGE_COLOUR, linewidth=PART_PT, zorder=3)
    right = max(ax.get_xlim()[1] for ax in fig.axes)
    for ax in fig.axes:  # a caller's panels too: the lengths compare at a glance
        ax.set_xlim(0, right)
    return fig
