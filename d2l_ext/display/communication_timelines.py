"""13.3.2's stream timelines: one panel per copy plan, each product and copy a bar; bars too thin to tell apart are
drawn merged into stretches, and the legend says so. display/communication.py re-exports plot_comm_timelines."""
from __future__ import annotations

from . import style
from .timeline import EDGE_MIN_PX, THIN_FRACTION, draw_timeline

STREAM_ROWS = {'compute stream': 'compute', 'copy stream': 'copy', 'compute thread': 'compute', 'copy thread': 'copy'}


def _mode_name(mode: str) -> str:
    from ..i18n import catalogue
    key = f'communication.mode.{mode}'
    return style.plot_text(key) if key in catalogue('en') else mode


def timeline_title(tl) -> str:
    """A panel's title from its own data: the plan, how many products and copies it holds, their size."""
    count = {role: sum(e['role'] == role for e in tl.events) for role in ('compute', 'copy')}
    thin = tl.inner not in (None, tl.size)  # a CPU's timed task: n x inner by inner x n, one run, each op timed
    return style.plot_text(f"communication.timeline.caption{'_thin' if thin else ''}", plan=_mode_name(tl.plan),
                           products=count['compute'], copies=count['copy'], n=tl.size, m=tl.inner)


def merge_touching(events, px_per_second: float) -> tuple[list[dict], dict[str, dict]]:
    """The events to draw, a row's bars merged into stretches where some bar is too narrow for an edge and some gaps
    are below THIN_FRACTION of the run (only those close), and {role: {'count', 'stretches', 'gap'}} of what merged."""
    events = list(events)
    if not events:
        return [], {}
    span = max(e['end'] for e in events) - min(e['start'] for e in events)
    threshold = THIN_FRACTION * span
    out, merged = [], {}
    for role, lane in dict.fromkeys((e['role'], e['lane']) for e in events):
        mine = sorted((e for e in events if e['role'] == role and e['lane'] == lane), key=lambda e: e['start'])
        narrow = any((e['end'] - e['start']) * px_per_second < EDGE_MIN_PX for e in mine)
        touching = any(b['start'] - a['end'] < threshold for a, b in zip(mine, mine[1:]))
        if not (narrow and touching):
            out += mine
            continue
        stretches = [[mine[0]['start'], mine[0]['end']]]
        for e in mine[1:]:
            if e['start'] - stretches[-1][1] < threshold:
                stretches[-1][1] = max(stretches[-1][1], e['end'])
            else:
                stretches.append([e['start'], e['end']])
        out += [{'lane': lane, 'name': '', 'start': s, 'end': end, 'role': role} for s, end in stretches]
        info = merged.setdefault(role, {'count': 0, 'stretches': 0, 'gap': threshold})
        info['count'] += len(mine)
        info['stretches'] += len(stretches)
    return out, merged


def legend_names(tl, merged=None) -> dict[str, str]:
    """What a bar is, per role, and for a role in `merged` how many bars its drawn stretches hold."""
    merged = merged or {}
    keys = {'compute': 'communication.legend.compute',  # a CPU's copies land in a buffer: no host copy there
            'copy': 'communication.legend.copy_cpu' if tl.clock == 'thread clock' else 'communication.legend.copy'}
    return {role: style.plot_text(keys[role]) + (
        '\n' + _merged_text(role, merged[role]) if role in merged else '') for role in ('compute', 'copy')}


def _merged_text(role: str, info: dict) -> str:
    n = info['stretches']
    stretches = style.plot_text(f"communication.timeline.stretches_{'one' if n == 1 else 'many'}", n=n)
    return style.plot_text('communication.timeline.merged', count=info['count'], stretches=stretches)


def _px_per_second(ax, events) -> float:
    """Pixels per second as draw_timeline fits bars (its 0.8 margin on the axes' width before layout)."""
    span = max((e['end'] for e in events), default=0.0)
    return 0.8 * ax.bbox.width / span if span > 0 else 0.0


def plot_comm_timelines(timelines, axes=None):
    """One stream timeline per copy plan, each titled with its products and copies, bars merged where merge_touching
    says; `axes`: panels of a figure to draw in. Every panel of the figure then shares one time axis."""
    fig = axes[0].figure if axes is not None else style.figure(nrows=len(timelines), height=2.5 * len(timelines) + 1)[0]
    every = [e for tl in timelines for e in tl.events]  # the longest panel sets the scale of all
    for tl, ax in zip(timelines, fig.axes if axes is None else axes):
        named = {lane: style.plot_text(f'communication.row.{lane.replace(" ", "_")}') for lane in STREAM_ROWS}
        drawn, merged = merge_touching(tl.events, _px_per_second(ax, every))
        events = [dict(e, lane=named.get(e['lane'], e['lane'])) for e in drawn]
        rows = {named[lane]: role for lane, role in STREAM_ROWS.items() if any(e['lane'] == lane for e in tl.events)}
        # the legend names what a bar is (a product, a copy) and what is drawn merged; the rows name where it ran
        draw_timeline(events, ax=ax, rows=rows, title=timeline_title(tl), legend_names=legend_names(tl, merged))
    right = max(ax.get_xlim()[1] for ax in fig.axes)
    for ax in fig.axes:  # a caller's panels too: the lengths compare at a glance
        ax.set_xlim(0, right)
    return fig
