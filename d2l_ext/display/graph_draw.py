"""13.3.3's figures: the recorded graph (one row per lane, columns by dependency depth), its schedule,
the timed step and exercise 5, in the lane colours of display.style (a lane has one colour everywhere)."""
from __future__ import annotations

from dataclasses import dataclass

from . import style
from .apart import apart, places
from .graph_names import SERVER, box_name, fmt_bytes, lane_name, link_row, role_of, stage_label, variant_label
from .timeline import draw_timeline

NAME_PAD_EMS = 1.0  # a bar keeps its name only with this much room to spare (half an em each side)


def fit_bar_names(ax, short: dict | None = None) -> None:
    """Shorten a bar's name (short: {name: shorter name}) or remove it where, laid out, it does not fit inside its
    bar with room to spare (13.3.3).

    The legend and the colours still name a bar left without one. The timeline's own test counts every character as
    a Latin one before layout, so a Chinese name could reach its bar's edge and lose a stroke to the white
    beside it ('传出梯度' read as '专出梯度'); here the drawn sizes decide, after the figure's layout.
    """
    from matplotlib.patches import Rectangle
    ax.figure.draw_without_rendering()
    pad = NAME_PAD_EMS * style.MIN_FONT_PT * ax.figure.dpi / 72
    bars = [p.get_window_extent() for p in ax.patches if isinstance(p, Rectangle)]
    for text in list(ax.texts):
        box = text.get_window_extent()
        cx, cy = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
        under = [b for b in bars if b.x0 <= cx <= b.x1 and b.y0 <= cy <= b.y1]
        if not under or box.width + pad <= min(b.width for b in under):
            continue
        if (short or {}).get(text.get_text()):
            text.set_text(short[text.get_text()])
            if text.get_window_extent().width + pad <= min(b.width for b in under):
                continue
        text.remove()


@dataclass(frozen=True)
class Verdict:
    """`mine` against `other` (Measurements) by results.told_apart, as display.apart says it (13.3.3).

    outcome: 'faster' or 'slower' (told apart) or 'tied' (not told apart: apart's 'close', 'overlap' or 'single').
    fields: the ratios and the medians in milliseconds a head or a title quotes. The clause is made when it is
    printed (clause()), in the language of that moment, so a kept verdict never carries another language's words.
    """
    outcome: str
    fields: dict
    mine: object
    other: object

    @property
    def told_apart(self) -> bool:
        return self.outcome != 'tied'

    def clause(self) -> str:
        """display.apart's clause for this pair: both parts of the test, in order, with the numbers."""
        return apart(self.mine, self.other).clause


def as_printed(mine, other) -> tuple[float, float, str]:
    """The two medians as display.apart's clause prints them, in ms, and as text of that many places (13.3.3).

    The clause shows both medians with one number of places (apart.places, from the larger, in ms below 0.1 s, else
    in seconds); a ratio or a title beside it is taken from these numbers, so a reader dividing them gets it.
    Returns (mine ms, other ms, format of one number in ms).
    """
    unit = 'ms' if max(mine.median, other.median) < 0.1 else 's'
    d = places(max(abs(mine.median), abs(other.median)), unit)
    scale = 1e3 if unit == 'ms' else 1.0
    a, b = (round(m.median * scale, d) * 1e3 / scale for m in (mine, other))
    return a, b, f'.{d if unit == "ms" else max(0, d - 3)}f'


def verdict(mine, other) -> Verdict:
    """`mine` against `other` by display.apart (results.told_apart), with the numbers a head or a title quotes.

    The ratios are taken from the medians as the clause prints them (as_printed); 'mine' and 'other' are those
    medians in ms as text ('31.4'), so a title shows the numbers its ratio comes from.
    """
    a = apart(mine, other)
    outcome = ('faster' if a.faster == 'a' else 'slower') if a.told else 'tied'
    ms, other_ms, fmt = as_printed(mine, other)
    nan = float('nan')
    fields = {'ratio': other_ms / ms if ms else nan, 'inv': ms / other_ms if other_ms else nan,
              'mine': format(ms, fmt), 'other': format(other_ms, fmt)}
    return Verdict(outcome, fields, mine, other)


def verdicts(result) -> dict:
    """{(mine, other): Verdict} for every ordered pair of a result's ways (StepTiming, DagExperiment), computed once.

    Kept on the result, so the sentences and the figure's title read the same verdicts and cannot disagree;
    computed again only if its measurements were replaced.
    """
    ms = dict(result.measurements)
    kept = getattr(result, '_verdicts', None)
    if kept is None or kept[0].keys() != ms.keys() or any(kept[0][k] is not m for k, m in ms.items()):
        kept = (ms, {(a, b): verdict(ms[a], ms[b]) for a in ms for b in ms if a != b})
        result._verdicts = kept
    return kept[1]


def draw_step_timing(s, ax=None, title=None):
    """Every repeat of each way to run the step, its prediction beside, the fastest named in the title (13.3.3)."""
    from .repeats import plot_repeats
    times = {variant_label(k, plot=True): m.times for k, m in s.measurements.items()}
    predicted = {variant_label(k, plot=True): v for k, v in s.predicted.items() if k in s.measurements}
    ranked = sorted(s.measurements, key=lambda k: s.measurements[k].median)
    fastest, v = ranked[0], verdicts(s)
    # named fastest only when told apart from every other way: the verdicts the sentences print
    tied = [k for k in ranked[1:] if not v[fastest, k].told_apart]
    if ax is None:
        _, ax = style.figure(height=2.2 + 0.8 * len(times))
    key = 'graph.title_step_tied' if tied else 'graph.title_step'
    return plot_repeats(times, ax=ax, predicted=predicted, unit='auto', title=title or style.plot_text(
        key, variant=variant_label(fastest, plot=True), other=variant_label((tied or ranked)[-1], plot=True)))


DAG_TITLES = {'faster': 'graph.title_dag_run', 'slower': 'graph.title_dag_run_slower',
              'tied': 'graph.title_dag_run_tied'}


def draw_dag(r, title=None):
    """Exercise 5: the plan (which lane runs each task) above the measured run, its prediction dashed (13.3.3).

    The title states the verdict dag_text prints (verdicts: the same comparison, made once).
    """
    from ..depgraph.dag import DAG_VARIANTS, dag_graph
    fig, (top, bottom) = style.figure(nrows=2, height=8.5)
    draw_graph(dag_graph(r), ax=top, label_edges=False, title=style.plot_text('graph.title_dag_plan'),
               rows=[f'lane {i}' for i in range(len(r.lanes))])
    rows = {lane_name(f'lane {i}', plot=True): f'lane {i}' for i in range(len(r.lanes))}
    shown = [dict(e, lane=lane_name(f"lane {r.lanes.index(e['lane'])}", plot=True)) for e in r.trace]
    predicted = r.predicted_ms()[DAG_VARIANTS[1]]  # the number dag_text prints beside the measured one
    if title is None:
        title = dag_run_title(r)
    draw_timeline([dict(e, name='') for e in shown], ax=bottom, rows=rows, predicted=predicted, title=title)
    if name_bars(bottom, shown, list(rows), predicted):  # some bar too narrow for its task's name: the title says so
        note = style.plot_text('graph.dag_unnamed')
        bottom.set_title(f'{title}\n{note}' if title else note, loc='left')
    return fig


def dag_run_title(r) -> str | None:
    """draw_dag's title: the verdict dag_text prints, with the medians its ratio comes from, then what the bars are:
    one run of the plan traced after the timing, its time (dag_text's breakdown) beside the timed median (13.3.3)."""
    from ..depgraph.dag import DAG_VARIANTS
    lines, fields = [], {}
    if DAG_VARIANTS[0] in r.measurements and DAG_VARIANTS[1] in r.measurements:
        v = verdicts(r)[DAG_VARIANTS[1], DAG_VARIANTS[0]]
        fields = v.fields
        lines.append(style.plot_text(DAG_TITLES[v.outcome], **fields))
    b = r.breakdown() if hasattr(r, 'breakdown') else None
    span = b[1] if b is not None else (max(e['end'] for e in r.trace) - min(e['start'] for e in r.trace)
                                       if r.trace else None)
    if span is not None:
        lines.append(style.plot_text('graph.title_dag_bars', span=span * 1e3, median=fields['mine']) if fields
                     else style.plot_text('graph.title_dag_bars_only', span=span * 1e3))
    return '\n'.join(lines) or None


def name_bars(ax, events, rows, predicted=None) -> int:
    """Name every bar of a timeline by one rule, on every lane alike: inside the bar, across it where the name fits
    with room to spare (NAME_PAD_EMS), else upright where it fits that way, else not at all (13.3.3's exercise 5).

    events: the timeline's events (seconds), each with its 'name'; rows: the row labels top to bottom, as drawn;
    predicted: the total draw_timeline was given (it sets the time unit). Measured after the figure's layout.
    Returns how many bars were left without a name.
    """
    from .timeline import BAR_HEIGHT, _text_colour
    span = max([e['end'] for e in events] + ([predicted] if predicted is not None else []), default=0.0)
    scale = style.time_unit(span)[1]
    ax.figure.draw_without_rendering()
    pad = NAME_PAD_EMS * style.MIN_FONT_PT * ax.figure.dpi / 72
    unnamed = 0
    for e in events:
        y, left, right = rows.index(e['lane']), e['start'] * scale, e['end'] * scale
        (x0, y0), (x1, y1) = ax.transData.transform([(left, y - BAR_HEIGHT / 2), (right, y + BAR_HEIGHT / 2)])
        width, height = abs(x1 - x0), abs(y1 - y0)
        fill = style.color(e.get('role') or style.lane_role(y))
        text = ax.text((left + right) / 2, y, e['name'], ha='center', va='center', fontsize=style.MIN_FONT_PT,
                       color=_text_colour(fill), clip_on=True, zorder=4)
        for rotation in (0, 90):
            text.set_rotation(rotation)
            box = text.get_window_extent()
            if box.width + pad <= width and box.height + pad <= height:
                break
        else:
            text.remove()
            unnamed += 1
    return unnamed


def _row_order(g, rows=None):
    """Compute lanes top to bottom with the parameter server in the middle; links halfway between."""
    lanes = [lane for lane in rows or () if any(n['lane'] == lane for n in g['nodes'])]
    for n in g['nodes']:
        if n['kind'] == 'compute' and n['lane'] not in lanes:
            lanes.append(n['lane'])
    if SERVER in lanes:
        lanes.remove(SERVER)
        lanes.insert(len(lanes) // 2, SERVER)
    y = {lane: 2.0 * i for i, lane in enumerate(lanes)}
    for n in g['nodes']:
        if n['lane'] not in y:
            a, _, b = n['lane'][len('link:'):].partition('->')
            y[n['lane']] = (y.get(a, 0.0) + y.get(b, 0.0)) / 2
    return lanes, y


def _layers(g):
    """Column of each node: the longest chain of nodes before it (a layered layout)."""
    preds = {}
    for e in g['edges']:
        preds.setdefault(e['dst'], []).append(e['src'])
    depth = {}
    for n in g['nodes']:  # recorded order is already a topological order
        depth[n['id']] = 1 + max((depth[p] for p in preds.get(n['id'], [])), default=-1)
    return depth


def _positions(g, lanes, y, depth):
    """(x, y) of each node; nodes sharing a row and a column are spread vertically so none hides another."""
    slot, pos = {}, {}
    for n in g['nodes']:
        slot.setdefault((n['lane'], depth[n['id']]), []).append(n['id'])
    for (lane, col), ids in slot.items():
        for k, i in enumerate(ids):
            off = 0.0 if len(ids) == 1 else -0.45 + 0.9 * k / (len(ids) - 1)
            pos[i] = (float(col), y[lane] + off)
    return pos


def _edge_label(e) -> str:
    if e['kind'] == 'copy':
        return fmt_bytes(e['bytes'])
    if len(e['shapes']) == 1:
        return '×'.join(str(s) for s in e['shapes'][0]) or 'scalar'
    return style.plot_text('graph.n_tensors', n=len(e['shapes']))


def _legend_label(lane: str, device: str) -> str:
    """A row's legend entry: the lane and, for a lane, its device as a reader reads it ('执行路 0（GPU 0）')."""
    if not device or lane == SERVER:
        return lane_name(lane, plot=True)
    return style.plot_text('graph.lane_device', lane=lane_name(lane, plot=True), device=lane_name(device, plot=True))


def draw_graph(g, ax=None, label_edges=None, title=None, rows=None):
    """Draw a (coarse) dependency graph: one row per lane, columns by dependency depth (13.3.3). Returns the Figure.

    rows: lane ids in the order to draw them, top first (default: as they first appear). A
    hand-made layered layout: rows per lane is exactly the picture of Fig. 13.3.1.
    """
    from matplotlib.patches import Patch
    lanes, y = _row_order(g, rows)
    depth = _layers(g)
    ncols = max(depth.values(), default=0) + 1
    if ax is None:
        # Wide enough for 11 pt boxes and labels, narrow enough that a notebook does not shrink them much.
        _, ax = style.figure(width=min(15.0, max(10.0, 1.35 * ncols)), height=1.6 + 1.3 * max(y.values(), default=1))
    else:
        style.apply()
    fig = ax.figure
    pos = _positions(g, lanes, y, depth)
    ax.set_xlim(-0.7, ncols - 0.3)
    ax.set_ylim(max(y.values(), default=0) + 0.9, -0.9)  # first lane on top
    boxes = {}
    for n in g['nodes']:
        face = style.color(role_of(n['lane'], lanes))
        boxes[n['id']] = ax.text(*pos[n['id']], stage_label(n['name'], plot=True), ha='center', va='center',
                                 fontsize=style.MIN_FONT_PT,
                                 color='black' if n['kind'] == 'copy' or face == style.color('cpu') else 'white',
                                 bbox={'boxstyle': 'round,pad=0.3', 'fc': face, 'ec': '0.3', 'lw': 0.6}, zorder=3)
    middle = max(y.values(), default=0) / 2
    if label_edges is None:
        label_edges = len(g['edges']) <= 40
    for e in g['edges']:
        (x1, y1), (x2, y2) = pos[e['src']], pos[e['dst']]
        # An arrow skipping columns would cross the boxes between: bend it away from its row.
        rad = 0.0 if x2 - x1 <= 1 else (0.2 if y1 <= middle else -0.2)
        ax.annotate('', xy=(x2, y2), xytext=(x1, y1), zorder=1,
                    # Clipped to the two boxes, so every arrowhead shows whatever a box's width.
                    arrowprops={'arrowstyle': '-|>', 'lw': 1.0, 'color': '0.35', 'shrinkA': 1, 'shrinkB': 1,
                                'patchA': boxes[e['src']].get_bbox_patch(), 'patchB': boxes[e['dst']].get_bbox_patch(),
                                'linestyle': '--' if e['kind'] == 'copy' else '-',
                                'connectionstyle': f'arc3,rad={rad}'})
        if label_edges:
            # Midpoint of the arc, worked out in display units as matplotlib's arc3 does.
            (d1x, d1y), (d2x, d2y) = ax.transData.transform([(x1, y1), (x2, y2)])
            mid = ((d1x + d2x) / 2 + 0.5 * rad * (d2y - d1y), (d1y + d2y) / 2 - 0.5 * rad * (d2x - d1x))
            xm, ym = ax.transData.inverted().transform(mid)
            if rad == 0 and y1 == y2:  # beside a short arrow between two boxes, away from the arcs
                ym += -0.32 if y1 <= middle else 0.32
            ax.text(xm, ym, _edge_label(e), fontsize=style.MIN_FONT_PT,
                    ha='center', va='center', color='0.15', zorder=2,
                    bbox={'boxstyle': 'round,pad=0.1', 'fc': 'white', 'ec': 'none', 'alpha': 0.85})
    device_of = {n['lane']: n['device'] for n in g['nodes']}
    handles = [Patch(color=style.color(role_of(lane, lanes)), label=_legend_label(lane, device_of[lane]))
               for lane in lanes]
    if any(n['kind'] == 'copy' for n in g['nodes']):
        handles.append(Patch(fc=style.color('link'), ec='0.3', label=style.plot_text('graph.legend_copy')))
    ax.legend(handles=handles, loc='upper center', bbox_to_anchor=(0.5, -0.01), ncol=min(len(handles), 4),
              frameon=False)
    ax.set_axis_off()
    if title:
        ax.set_title(title, loc='left')
    return fig


def draw_schedule(r, ax=None, title=None, predicted=None, critical_path=True):
    """A StepSchedule (or exercise 5's events) as a timeline in the lanes' colours (13.3.3). Returns the Figure."""
    events = r.events if hasattr(r, 'events') else list(r)
    ids = list(dict.fromkeys(e['lane'] for e in events))
    lanes = [x for x in ids if not x.startswith('link:') and x != SERVER]
    # A link's row says what its copies moved ('weights in', 'rows in'): two links between the same ends stay apart.
    label = {x: link_row(x, [_stage_of(e['name']) for e in events if e['lane'] == x], plot=True)
             if x.startswith('link:') else lane_name(x, plot=True) for x in ids}
    rows = {label[x]: role_of(x, lanes) for x in ids}
    # 'fc1 fwd [lane 0]' keeps its lane in brackets, translated, so the timeline can drop it from the bar.
    # A link's bar is named '<stage> [<its row>]', which the timeline shortens to the stage (and keeps unique).
    shown = [dict(e, lane=label[e['lane']], role=e.get('role') or role_of(e['lane'], lanes),
                  name=f"{stage_label(_stage_of(e['name']), plot=True)} [{label[e['lane']]}]"
                  if e['lane'].startswith('link:') else box_name(e['name'], plot=True))
             for e in events]
    path = set(getattr(r, 'critical_path', ())) if critical_path else set()
    marked = [s['name'] for e, s in zip(events, shown) if e['name'] in path]
    fig = draw_timeline(shown, ax=ax, title=title, predicted=predicted, rows=rows, highlight=marked,
                        legend_names=_legend_names(events))
    fit_bar_names(ax if ax is not None else fig.axes[0])
    return fig


def _stage_of(box: str) -> str:
    """A box's stage: 'rows in [link:cpu->lane 0]' -> 'rows in'."""
    name, sep, _ = box.rpartition(' [')
    return name if sep else box


def _legend_names(events) -> dict:
    """The server's colour named as the server; the copies named for what they cross: devices, or lanes (13.3.3)."""
    names = {'cpu': style.plot_text('graph.server')}
    kinds = {e['across'] for e in events if e.get('across')}
    if kinds == {'lanes'}:
        names['link'] = style.plot_text('graph.role.copy_lanes')
    elif kinds == {'lanes', 'devices'}:
        names['link'] = style.plot_text('graph.role.copy_mixed')
    return names  # copies between devices keep the shared name, style.role.link
