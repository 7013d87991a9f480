"""Timelines (Gantt charts) of planned or measured events, one row per lane (13.3.0-13.3.4). A bar of a few pixels
is a line of fixed width; wider bars have an edge in the background colour, so touching bars stay countable."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

from matplotlib.colors import to_rgb
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..i18n import t
from . import style
from .fonts import plot_lane

# The roles a legend names (the keys style.role.<role>; 'lane N' is style.role.lane with its number).
ROLES = ('gpu', 'cpu', 'compute', 'copy', 'link', 'backward', 'allreduce', 'optimizer', 'idle')
BAR_HEIGHT = 0.6
THIN_FRACTION = 0.005  # bars narrower than this share of the time axis get a line of fixed width
THIN_LINE_PT = 2.0
MANY_BARS = 100  # more bars than this in one row and role: one collection, not a patch each
EDGE_MIN_PX = 4.0  # bars at least this wide (drawn) get an edge in the background colour: touching bars stay apart
EDGE_PT = 1.0
EDGE_COLOUR = 'white'  # the figure's background
# Event ids the measurements give products and copies ('mm 3' from PyTorch, 'dot 3' from MXNet, 'copy_ 3' from a
# profiled copy, 'product 3' / 'copy 3' from a model): drawn as the words style.event.<kind>, the ids kept in the data.
EVENT_NAMES = {'mm': 'product', 'dot': 'product', 'product': 'product', 'copy': 'copy', 'copy_': 'copy'}
KINDS = ('product', 'copy')  # the keys style.event.<kind>
_NUMBERED = re.compile(r'(mm|dot|product|copy_?) (\d+)\Z')


def _usage(key: str, **fields):
    from ..errors import UsageError
    return UsageError(t(key, **fields))


def _rows(events, rows) -> dict[str, str]:
    """Row id -> colour role, in drawing order: `rows` first (a list, or a dict id -> role), then new lanes."""
    if isinstance(rows, str) or (rows is not None and not isinstance(rows, Mapping | Sequence)):
        raise _usage('style.error.rows')
    given = dict(rows) if isinstance(rows, Mapping) else dict.fromkeys(rows or (), None)
    labels = list(dict.fromkeys([*given, *(e['lane'] for e in events)]))
    return {lab: given.get(lab) or style.lane_role(i) for i, lab in enumerate(labels)}


def _check(events) -> list[dict]:
    """The events as a list, after checking each has a lane, a start and an end not before its start."""
    events = list(events)
    for e in events:
        if not isinstance(e, Mapping) or not {'lane', 'start', 'end'} <= set(e):
            raise _usage('style.error.event_fields', event=repr(e))
        if e['end'] < e['start']:
            raise _usage('style.error.event_backwards', name=repr(e.get('name', '')), end=e['end'], start=e['start'])
        if 'role' in e and e['role'] is not None:
            style.color(e['role'])  # an unknown role fails here with the list of roles
    return events


def aggregate(events, max_bars: int = 200) -> tuple[list[dict], dict[str, int]]:
    """Rows with more than `max_bars` events drawn as the union of their intervals -> (events to draw, {row: events
    merged}) for the caption, which must say so (thousands of sub-millisecond bars would merge into one block)."""
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


def text_ems(text: str) -> float:
    """A name's width in ems: a Chinese (wide or full-width) character is a whole em, any other about 0.62."""
    return sum(1.0 if unicodedata.east_asian_width(c) in 'WF' else 0.62 for c in text)


def event_texts(name: str) -> list[str]:
    """What may be written inside an event's bar, longest first: 'product 3', then its number alone where it is one
    (a bar too narrow for the words still shows which product or copy it is)."""
    m = _NUMBERED.match(name)
    if m is None:
        return [name]
    kind = EVENT_NAMES[m[1]]
    return [style.plot_text(f'style.event.{kind}', number=int(m[2])), m[2]]


def _text_colour(hex_colour: str) -> str:
    """Black on light bars, white on dark ones (relative luminance), so names inside bars stay readable."""
    r, g, b = to_rgb(hex_colour)
    return 'black' if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 else 'white'


def _legend_role_name(role: str) -> str:
    if role.startswith('lane '):
        return style.plot_text('style.role.lane', number=role.split()[1])
    return style.plot_text(f'style.role.{role}')


def _draw_bars(ax, events, rows, row_of, span, scale):
    """Each event as a bar (an edge if at least EDGE_MIN_PX wide, a fixed-width line if thin) with its name where it
    fits: where one numbered bar lacks room for its words, every bar shows its number alone; a row whose numbered
    bars do not all have room shows none. Over MANY_BARS bars of a row and role: one broken_barh (patches are slow).
    """
    roles_used, groups, thin, named = [], {}, {}, []
    # Before layout the axes are wider than they will be drawn: keep a margin when fitting names.
    px_per_unit = 0.8 * ax.bbox.width / (span * scale) if span > 0 else 0.0
    em_px = style.MIN_FONT_PT * ax.figure.dpi / 72
    for e in events:
        role = e.get('role') or rows[e['lane']]
        roles_used.append(role)
        fill = style.color(role)
        y = row_of[e['lane']]
        left, width = e['start'] * scale, (e['end'] - e['start']) * scale
        groups.setdefault((y, fill), []).append((left, width))
        if span > 0 and width < THIN_FRACTION * span * scale:
            thin.setdefault((y, fill), []).append(left + width / 2)
        name = str(e.get('name', '')).replace(f" [{e['lane']}]", '')  # the row already names the lane
        if name:
            named.append((y, left, width, fill, event_texts(name)))

    def fits(text, width):
        return bool(text) and width * px_per_unit >= text_ems(text) * em_px + 6

    def edge(width):
        return EDGE_PT if width * px_per_unit >= EDGE_MIN_PX else 0.0
    # where some numbered bar is too narrow for its words, every bar of the chart shows its number alone, alike
    short = any(len(texts) > 1 and not fits(texts[0], width) for _, _, width, _, texts in named)
    shown = [(y, left, width, fill, next((x for x in (texts[1:] if short and len(texts) > 1 else texts)
                                          if fits(x, width)), None), len(texts) > 1)
             for y, left, width, fill, texts in named]
    bare = {y for y, _, _, _, text, numbered in shown if numbered and text is None}  # rows not all numbered
    for y, left, width, fill, text, numbered in shown:
        if text and not (numbered and y in bare):
            ax.text(left + width / 2, y, text, ha='center', va='center', fontsize=style.MIN_FONT_PT,
                    color=_text_colour(fill), clip_on=True, zorder=4)
    for (y, fill), bars in groups.items():
        if len(bars) > MANY_BARS:
            ax.broken_barh(bars, (y - BAR_HEIGHT / 2, BAR_HEIGHT), facecolors=fill, zorder=2,
                           edgecolors=EDGE_COLOUR, linewidth=edge(min(w for _, w in bars)))
        else:
            for left, width in bars:
                ax.barh(y, width, left=left, height=BAR_HEIGHT, color=fill, edgecolor=EDGE_COLOUR,
                        linewidth=edge(width), zorder=2)
    for (y, fill), xs in thin.items():
        ax.vlines(xs, y - BAR_HEIGHT / 2, y + BAR_HEIGHT / 2, colors=fill, linewidth=THIN_LINE_PT, zorder=2)
    return list(dict.fromkeys(roles_used))


def _draw_predicted(ax, predicted, row_of, scale, unit, label=None):
    """A dashed line at the predicted total (a number), or at each lane's predicted end (a dict); `label`: the
    legend's name for the marks, in the plot language (default 'predicted')."""
    colour = style.color('predicted')
    if isinstance(predicted, Mapping):
        for lane, seconds in predicted.items():
            if lane not in row_of:
                raise _usage('style.error.predicted_row', lane=repr(lane), rows=', '.join(row_of))
            y = row_of[lane]
            ax.vlines(seconds * scale, y - 0.45, y + 0.45, colors=colour, linestyles='--', linewidth=2.5, zorder=5)
        return Line2D([], [], color=colour, ls='--', lw=2.5, label=label or style.plot_text('style.predicted'))
    ax.axvline(predicted * scale, color=colour, ls='--', lw=2.5, zorder=5)
    label = style.plot_text('style.predicted_total', value=f'{predicted * scale:.3g} {style.unit_text(unit)}')
    return Line2D([], [], color=colour, ls='--', lw=2.5, label=label)


def draw_timeline(events, ax=None, title=None, predicted=None, rows=None, highlight=None, legend_names=None,
                  row_labels=None, framework: str = 'torch', predicted_label=None):
    """Gantt chart of events {'lane', 'name', 'start', 'end', 'role' (optional)}, one row per lane -> the Figure.

    rows: row ids top to bottom, or {id: role}; row_labels: {row id: text} (else plot_lane's label); predicted: a
    total in seconds (dashed line) or {lane: end}, named `predicted_label` in the legend; highlight: event names
    outlined; legend_names: {role: text} where a role means something else here; title: in the plot language.
    """
    events = _check(events)
    rows = _rows(events, rows)
    if not rows:
        raise _usage('style.error.no_rows')
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
        handles.append(_draw_predicted(ax, predicted, row_of, scale, unit, predicted_label))
    row_labels = row_labels or {}
    ax.set_yticks(range(len(rows)), [row_labels[r] if r in row_labels else plot_lane(r, framework) for r in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)  # first lane on top, as listed
    ax.set_xlim(0, span * scale * 1.02 if span > 0 else 1)
    ax.set_xlabel(style.plot_text('style.time_axis', unit=style.unit_text(unit)))
    ax.grid(axis='x', alpha=0.3)
    ax.set_axisbelow(True)
    if handles:
        ax.legend(handles=handles, loc='upper left', bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    if title:
        ax.set_title(title, loc='left')
    return ax.figure
