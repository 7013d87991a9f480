"""Timelines (Gantt charts) of planned or measured events, one row per lane; used by 13.3.1-13.3.3.

Bars of any width stay visible: bars have no edge (an edge erased 1 px bars before), and a bar
narrower than a few pixels is drawn as a line whose width is in points, not in seconds.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from matplotlib.colors import to_rgb
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from . import style

BAR_HEIGHT = 0.6
THIN_FRACTION = 0.005  # bars narrower than this share of the time axis get a line of fixed width
THIN_LINE_PT = 2.0


def _usage(message: str):
    from ..errors import UsageError
    return UsageError(message)


def _rows(events, rows) -> dict[str, str]:
    """Row label -> colour role, in drawing order: `rows` first (a list, or a dict label -> role), then new lanes."""
    if isinstance(rows, str) or (rows is not None and not isinstance(rows, Mapping | Sequence)):
        raise _usage('rows must be a list of lane labels or a dict {lane label: role}')
    given = dict(rows) if isinstance(rows, Mapping) else dict.fromkeys(rows or (), None)
    labels = list(dict.fromkeys([*given, *(e['lane'] for e in events)]))
    return {lab: given.get(lab) or style.lane_role(i) for i, lab in enumerate(labels)}


def _check(events) -> list[dict]:
    """The events as a list, after checking each has a lane, a start and an end not before its start."""
    events = list(events)
    for e in events:
        if not isinstance(e, Mapping) or not {'lane', 'start', 'end'} <= set(e):
            raise _usage(f"each event needs 'lane', 'start' and 'end' (seconds); got {e!r}")
        if e['end'] < e['start']:
            raise _usage(f"event {e.get('name', '')!r} ends ({e['end']}) before it starts ({e['start']})")
        if 'role' in e and e['role'] is not None:
            style.color(e['role'])  # an unknown role fails here with the list of roles
    return events


def aggregate(events, max_bars: int = 200) -> tuple[list[dict], dict[str, int]]:
    """Rows with more than `max_bars` events merged into their busy stretches (13.3.0, 13.3.1's recorded runs).

    Thousands of sub-millisecond bars merge into one block at any figure width, so such a row is drawn
    as the union of its intervals instead. Returns the events to draw and {row: events merged} for the
    caption, which must say so.
    """
    from ..overlap import union
    events = _check(events)
    counts: dict[str, int] = {}
    for e in events:
        counts[e['lane']] = counts.get(e['lane'], 0) + 1
    merged = {lane: n for lane, n in counts.items() if n > max_bars}
    out = [e for e in events if e['lane'] not in merged]
    for lane in merged:
        mine = [e for e in events if e['lane'] == lane]
        role = mine[0].get('role')
        out += [{'lane': lane, 'name': '', 'start': s, 'end': e, 'role': role}
                for s, e in union((x['start'], x['end']) for x in mine)]
    return out, merged


def _text_colour(hex_colour: str) -> str:
    """Black on light bars, white on dark ones (relative luminance), so names inside bars stay readable."""
    r, g, b = to_rgb(hex_colour)
    return 'black' if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 else 'white'


def _legend_role_name(role: str) -> str:
    if role.startswith('lane '):
        return style.plot_text('style.role.lane', number=role.split()[1])
    return style.plot_text(f'style.role.{role}')


def _draw_bars(ax, events, rows, row_of, span, scale):
    """Each event as an edgeless bar, with a fixed-width line for thin ones and its name where it fits."""
    roles_used = []
    # Before layout the axes are wider than they will be drawn: keep a margin when fitting names.
    px_per_unit = 0.8 * ax.bbox.width / (span * scale) if span > 0 else 0.0
    char_px = style.MIN_FONT_PT * 0.62 * ax.figure.dpi / 72
    for e in events:
        role = e.get('role') or rows[e['lane']]
        roles_used.append(role)
        fill = style.color(role)
        y = row_of[e['lane']]
        left, width = e['start'] * scale, (e['end'] - e['start']) * scale
        ax.barh(y, width, left=left, height=BAR_HEIGHT, color=fill, linewidth=0, zorder=2)
        if span > 0 and width < THIN_FRACTION * span * scale:
            ax.vlines(left + width / 2, y - BAR_HEIGHT / 2, y + BAR_HEIGHT / 2, colors=fill,
                      linewidth=THIN_LINE_PT, zorder=2)
        name = str(e.get('name', '')).replace(f" [{e['lane']}]", '')  # the row already names the lane
        if name and width * px_per_unit >= len(name) * char_px + 6:
            ax.text(left + width / 2, y, name, ha='center', va='center', fontsize=style.MIN_FONT_PT,
                    color=_text_colour(fill), clip_on=True, zorder=4)
    return list(dict.fromkeys(roles_used))


def _draw_predicted(ax, predicted, row_of, scale, unit):
    """A dashed line at the predicted total (a number), or at each lane's predicted end (a dict)."""
    colour = style.color('predicted')
    if isinstance(predicted, Mapping):
        for lane, seconds in predicted.items():
            if lane not in row_of:
                raise _usage(f'predicted names lane {lane!r}, which has no row; rows: {", ".join(row_of)}')
            y = row_of[lane]
            ax.vlines(seconds * scale, y - 0.45, y + 0.45, colors=colour, linestyles='--', linewidth=2.5, zorder=5)
        return Line2D([], [], color=colour, ls='--', lw=2.5, label=style.plot_text('style.predicted'))
    ax.axvline(predicted * scale, color=colour, ls='--', lw=2.5, zorder=5)
    label = style.plot_text('style.predicted_total', value=f'{predicted * scale:.3g} {unit}')
    return Line2D([], [], color=colour, ls='--', lw=2.5, label=label)


def draw_timeline(events, ax=None, title=None, predicted=None, rows=None, highlight=None, legend_names=None):
    """Gantt chart of planned or measured events, one row per lane; used by 13.3.1-13.3.3. Returns the Figure.

    events: dicts {'lane': row label, 'name': str, 'start': s, 'end': s, 'role': optional style role}.
    rows: lane labels top to bottom, or {label: role} so a lane keeps its colour in plan and timeline.
    predicted: a predicted total in seconds (dashed line) or {lane: predicted end in seconds}.
    highlight: names of events to outline in black (13.3.3's critical path).
    legend_names: {role: text} where a role means something else here (threads, not streams, on a CPU).
    """
    events = _check(events)
    rows = _rows(events, rows)
    if not rows:
        raise _usage('draw_timeline needs at least one event or one row')
    if ax is None:
        _, ax = style.figure(height=max(2.6, 1.5 + 0.6 * len(rows)))
    else:
        style.apply()
    row_of = {lane: i for i, lane in enumerate(rows)}
    ends = [e['end'] for e in events]
    if predicted is not None:
        ends += list(predicted.values()) if isinstance(predicted, Mapping) else [predicted]
    span = max(ends, default=0.0)
    unit, scale = style.time_unit(span)
    roles = _draw_bars(ax, events, rows, row_of, span, scale)
    names = legend_names or {}
    handles = [Patch(color=style.color(r), label=names.get(r) or _legend_role_name(r))
               for r in roles if not r.startswith('lane ')]
    marked = set(highlight or ())
    for e in events:
        if e.get('name') in marked:
            ax.barh(row_of[e['lane']], (e['end'] - e['start']) * scale, left=e['start'] * scale,
                    height=BAR_HEIGHT, fill=False, edgecolor='black', linewidth=2, zorder=3)
    if marked:
        handles.append(Patch(fc='white', ec='black', lw=2, label=style.plot_text('style.critical_path')))
    if predicted is not None:
        handles.append(_draw_predicted(ax, predicted, row_of, scale, unit))
    ax.set_yticks(range(len(rows)), list(rows))
    ax.set_ylim(len(rows) - 0.5, -0.5)  # first lane on top, as listed
    ax.set_xlim(0, span * scale * 1.02 if span > 0 else 1)
    ax.set_xlabel(style.plot_text('style.time_axis', unit=unit))
    ax.grid(axis='x', alpha=0.3)
    ax.set_axisbelow(True)
    if handles:
        ax.legend(handles=handles, loc='upper left', bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    if title:
        ax.set_title(title, loc='left')
    style.english_labels(ax.figure)  # a caller's figure, where no CJK font exists
    return ax.figure
