"""13.3.3's text and pictures: the recorded graph, its schedule, the timed step and exercise 5.

Tables come from each result's `to_frame()`; this module writes the sentences around them (from
the measured numbers) and draws the graph: one row per lane, columns by dependency depth, the
lane colours of display.style, so a lane has one colour in the graph, the plan and the timeline.
"""
from __future__ import annotations

from ..i18n import language, t
from ..lanes import label_of
from ..results import NOISE, chance_gap, close
from . import style
from .timeline import draw_timeline

KS = ('copy', 'data')  # edge kinds of graph_summary: the keys graph.edge.<k>
SERVER = 'cpu (parameter server)'  # the server's row id in the graphs (depgraph.model.SERVER)


def lane_name(lane: str, plot: bool = False) -> str:
    """What a learner reads for a row id: 'lane 0' -> 'lane 0' / '执行路 0', the server, a link 'a -> b'."""
    say = style.plot_text if plot else t
    if lane.startswith('lane ') and lane[5:].isdigit():
        return say('graph.lane', i=lane[5:])
    if lane == SERVER:
        return say('graph.server')
    if lane.startswith('link:'):
        a, _, b = lane[5:].partition('->')
        return say('graph.link', src=lane_name(a, plot), dst=lane_name(b, plot))
    return lane


def _role(lane: str, rows: list[str]) -> str:
    """Colour role of a row: links are transfers, the server is the CPU, 'lane N' is lane N, others by position."""
    if lane.startswith('link:'):
        return 'link'
    if lane == SERVER:
        return 'cpu'
    if lane.startswith('lane ') and lane[5:].isdigit():
        return style.lane_role(int(lane[5:]))
    others = [x for x in rows if x != SERVER]
    return style.lane_role(others.index(lane)) if lane in others else 'idle'


def _fmt_bytes(b: int) -> str:
    return f'{b / 2**20:.1f} MiB' if b >= 2**20 else f'{b / 2**10:.0f} KiB' if b >= 2**10 else f'{b} B'


def summary_text(g, title='graph') -> str:
    """graph_summary as a few readable lines (deterministic) (13.3.3)."""
    from ..depgraph.tracer import graph_summary
    s = graph_summary(g)
    kinds = t('graph.sep_clause').join(t('graph.edge_count', count=v, kind=t('graph.edge.' + k))
                                       for k, v in s['edges'].items())
    return t('graph.summary', title=title, nodes=s['nodes'], edges=sum(s['edges'].values()), kinds=kinds,
             lanes=t('graph.sep_list').join(lane_name(x) for x in s['lanes']),
             devices=t('graph.sep_list').join(label_of(d, language()) for d in s['devices']),
             copies=s['copies'], bytes=f"{s['bytes_copied']:,}", size=_fmt_bytes(s['bytes_copied']),
             flops=f"{s['flops']:,}")


def stage_label(name: str, plot: bool = False) -> str:
    """A stage id of the worked step as a learner reads it ('fc1 fwd' -> 'fc1 前向'); a learner's own as itself."""
    say = style.plot_text if plot else t
    names = {'weight copy': 'weight_copy', 'fc1 fwd': 'fc1_fwd', 'relu': 'relu', 'fc2 fwd': 'fc2_fwd', 'loss': 'loss',
             'fc2 bwd': 'fc2_bwd', 'relu bwd': 'relu_bwd', 'fc1 bwd': 'fc1_bwd', 'grad copy': 'grad_copy',
             'sum': 'sum', 'update': 'update'}
    stage = names.get(name)
    return say(f'graph.stage.{stage}') if stage else name


STAGES = ('weight_copy', 'fc1_fwd', 'relu', 'fc2_fwd', 'loss', 'fc2_bwd', 'relu_bwd', 'fc1_bwd', 'grad_copy', 'sum',
          'update')  # the keys graph.stage.<stage>, one per stage of the worked step


def box_name(box: str, plot: bool = False) -> str:
    """A coarse node id as a learner reads it: 'fc1 fwd [lane 0]' -> 'fc1 前向 [执行路 0]' in Chinese."""
    name, sep, lane = box.rpartition(' [')
    if sep and lane.endswith(']'):
        return f'{stage_label(name, plot)} [{lane_name(lane[:-1], plot)}]'
    return stage_label(box, plot)


def _floor(r) -> float:
    """What no schedule can beat: the critical path, or the busiest resource's tasks in turn (seconds)."""
    busy = {}
    for e in r.events:
        busy[e['lane']] = busy.get(e['lane'], 0.0) + e['end'] - e['start']
    return max([r.critical_path_s, *busy.values()])


def schedule_text(r, path=True) -> str:
    """A schedule's three numbers, its speedup and bound, and (path=True) the critical path's boxes (13.3.3)."""
    key = 'graph.schedule_numbers_measured' if r.costs == 'measured' else 'graph.schedule_numbers'
    floor = _floor(r)
    line = t(key, serial=r.serial_total * 1e3, total=r.total * 1e3, path=r.critical_path_s * 1e3,
             repeats=r.repeats) + '\n' + t('graph.schedule_speedup', speedup=r.serial_total / r.total,
                                           bound=r.serial_total / floor, floor=floor * 1e3)
    if path:
        line += '\n' + t('graph.critical_path_is', path=' → '.join(box_name(b) for b in r.critical_path))
    return line


UNEVEN = 0.25  # other programs' shares this far apart (of the whole machine): the numbers are not comparable
QUIET = 0.10  # at most this share everywhere: other programs cannot explain a gap between the numbers
NOT_ADDITIVE = 1.5  # the schedule this many times the measured step (or 1/this): boxes timed apart do not add up
SLOWER = 2.0  # all cores this many times one thread's time: the split over the cores slowed the boxes


def thread_test_text(plan, slow_only=False, quiet=True) -> str:
    """The boxes outside the lanes on one thread vs all cores, timed right after: did the split slow them? (13.3.3)

    quiet=False (other programs were busy while the boxes were timed): the numbers are given, no cause named.
    """
    test = getattr(plan, 'thread_test', None)
    if not test:
        return ''
    slow = test['one'] * SLOWER <= test['all']
    if slow_only and not slow:
        return ''
    key = ('graph.vs.threads_slow' if quiet else 'graph.vs.threads_slow_busy') if slow else 'graph.vs.threads_fine'
    return t(key, one=test['one'] * 1e3, all=test['all'] * 1e3, threads=test['threads'])


def schedule_vs_step_text(plan, rates, timing) -> str:
    """The schedule, the closed form and the measured step side by side, each saying what it measured (13.3.3).

    Beside them, the share of the cores other programs used while each was timed (depgraph.sharing);
    a sentence about that share is printed only when the shares decide it (far apart, or all small).
    """
    from ..depgraph.runs import TOGETHER
    m = timing.measurements[TOGETHER]
    lines = [t('graph.vs.title'), t('graph.vs.schedule', ms=plan.total * 1e3)]
    if TOGETHER in timing.predicted:
        lines.append(t('graph.vs.closed', ms=timing.predicted[TOGETHER] * 1e3))
    lines.append(t('graph.vs.measured', ms=m.median * 1e3, repeats=len(m.times), lo=min(m.times) * 1e3,
                   hi=max(m.times) * 1e3))
    shares = [plan.others_busy, getattr(rates, 'others_busy', None), timing.others_busy]
    known = [x for x in shares if x is not None]
    quiet = len(known) == len(shares) and max(known) <= QUIET  # only then may a sentence name a cause
    test = thread_test_text(plan, quiet=quiet or not known)  # no shares measured: the test stands alone
    if test:
        lines.append(test)
    if m.median > 0 and not 1 / NOT_ADDITIVE <= plan.total / m.median <= NOT_ADDITIVE:
        lines.append(t('graph.vs.not_additive', ms=plan.total * 1e3, ratio=plan.total / m.median))
    if not known:
        return '\n'.join(lines)
    lines.append(t('graph.vs.others', **{k: t('graph.vs.unknown') if x is None else f'{x:.0%}'
                                          for k, x in zip(('boxes', 'rates', 'step'), shares)}))
    if len(known) == len(shares) and max(known) - min(known) >= UNEVEN:
        lines.append(t('graph.vs.uneven', gap=max(known) - min(known)))
    elif quiet:
        lines.append(t('graph.vs.quiet', top=max(known)))
    return '\n'.join(lines)


def _lanes(n: int) -> str:
    """'lane 0 + lane 1': the lanes as the graphs name them (machine_text says which device each is)."""
    return ' + '.join(lane_name(f'lane {i}') for i in range(n))


def machine_text(lanes) -> str:
    """Versions, cores, GPUs and this notebook's two lanes, in a few lines: the first cell of 13.3.3."""
    from .machine import machine_line
    head = machine_line()
    return '\n'.join([head] + [t('graph.lane_line', lane=lane_name(f'lane {i}'), name=lane.name,
                                      explanation=lane.explanation) for i, lane in enumerate(lanes)])


def _variant_label(variant: str, plot: bool = False) -> str:
    return (style.plot_text if plot else t)(f'graph.variant.{variant}')


def rates_text(r) -> str:
    """The lanes' measured rates the prediction uses: each lane alone, both at once, lane 0's whole device (13.3.3)."""
    whole = t('graph.rates.whole_gpu' if r.kind == 'gpu' else 'graph.rates.whole_cpu', all=r.all_cores * 1e3,
              cores=r.cores)
    fields = dict(t0=r.alone[0] * 1e3, t1=r.alone[1] * 1e3, both=r.together * 1e3, rate=r.rate,
                  ideal=r.ideal_rate, slowdown=r.slowdown, whole=whole)
    if r.slowdown < 1:  # at once beat the no-slowdown bound: judged by the one noise test, then said
        key = 'graph.rates_at_bound' if close(r.slowdown, 1.0) else 'graph.rates_above'
        return t(key, noise=NOISE, **fields)
    return t('graph.rates', **fields)


def guess_text(guess, s, variant=None) -> str:
    """The learner's guess beside the closed form and the measured median, or a request for the guess (13.3.3)."""
    from ..depgraph.runs import TOGETHER
    variant = variant or TOGETHER
    fields = {'variant': _variant_label(variant), 'predicted': s.predicted.get(variant, float('nan')) * 1e3,
              'measured': s.measurements[variant].median * 1e3}
    if guess is None:
        return t('graph.guess_missing') + '\n' + t('graph.guess_none', **fields)
    return t('graph.guess_line', guess=float(guess), **fields)


def overlap_text(s) -> str:
    """The two halves' overlap as an interval fraction, its prediction, and the wall-clock difference (13.3.3)."""
    from ..depgraph.runs import APART, TOGETHER
    o, m = s.overlap, s.medians()
    if o is None or o.fraction is None or APART not in m or TOGETHER not in m:
        return ''
    saved_pred = s.predicted[APART] - s.predicted[TOGETHER] if APART in s.predicted and TOGETHER in s.predicted \
        else float('nan')
    busy = [b - a for a, b in o.intervals]
    return t('graph.overlap_line', fraction=o.fraction, predicted=o.predicted, t0=busy[0] * 1e3, t1=busy[1] * 1e3,
             runs=getattr(o, 'runs', 3), saved=(m[APART] - m[TOGETHER]) * 1e3, saved_pred=saved_pred * 1e3)


def versus_text(faster: str, slower: str, same: str, mine, other) -> str:
    """13.3.3: `mine` against `other` (Measurements): faster, slower, or not told apart (within the larger IQR)."""
    gap = chance_gap(mine, other)
    fields = {'ratio': other.median / mine.median, 'inv': mine.median / other.median, 'gap': gap * 1e3,
              'mine': mine.median * 1e3, 'other': other.median * 1e3}  # milliseconds
    if abs(other.median - mine.median) <= gap:
        return t(same, **fields)
    return t(faster if mine.median < other.median else slower, **fields)


def draw_step_timing(s, ax=None, title=None):
    """Every repeat of each way to run the step, its prediction beside, the fastest named in the title (13.3.3)."""
    from .repeats import plot_repeats
    times = {_variant_label(k, plot=True): m.times for k, m in s.measurements.items()}
    predicted = {_variant_label(k, plot=True): v for k, v in s.predicted.items() if k in s.measurements}
    fastest = min(s.measurements, key=lambda k: s.measurements[k].median)
    if ax is None:
        _, ax = style.figure(height=2.2 + 0.8 * len(times))
    return plot_repeats(times, ax=ax, predicted=predicted, unit='auto',
                        title=title or style.plot_text('graph.title_step', variant=_variant_label(fastest, plot=True)))


def step_timing_text(s) -> str:
    """Sentences stating what time_step measured, beside its predictions and their assumption (13.3.3)."""
    lines = [t('graph.step_title', batch=s.batch, lanes=_lanes(len(s.lanes)),
               repeats=len(next(iter(s.measurements.values())).times))]
    for k, m in s.measurements.items():
        pred = t('graph.step_row_predicted', ms=s.predicted[k] * 1e3) if k in s.predicted else ''
        lines.append('  ' + t('graph.step_row', variant=_variant_label(k), ms=m.median * 1e3, repeats=len(m.times),
                              predicted=pred))
    from ..depgraph.runs import APART, ONE_DEVICE, TOGETHER
    if s.speedup is not None:  # the sentence follows the noise test, not the ratio alone
        lines.append(versus_text('graph.step_faster', 'graph.step_slower', 'graph.step_same',
                                 s.measurements[TOGETHER], s.measurements[APART]))
    if s.vs_one_device is not None:
        lines.append(versus_text('graph.split_faster', 'graph.split_slower', 'graph.split_same',
                                 s.measurements[TOGETHER], s.measurements[ONE_DEVICE]))
    ratios = [t('graph.ratio_item', variant=_variant_label(k), ratio=m.median / s.predicted[k])
              for k, m in s.measurements.items() if s.predicted.get(k)]
    if ratios:
        lines.append(t('graph.measured_over_predicted', ratios=t('graph.sep_semicolon').join(ratios)))
    overlap = overlap_text(s)
    return '\n'.join(lines + ([overlap] if overlap else []))


def dag_text(r) -> str:
    """Exercise 5's model in products (the same everywhere) and the plan's split (13.3.3)."""
    m = r.model
    lines = [t('graph.dag_tasks', tasks=len(r.dag), n=r.n, lanes=_lanes(len(r.lanes))),
             dag_model_text(m)]
    counts = t('graph.sep_clause').join(t('graph.dag_count', count=len(r.order[label]), lane=lane_name(f'lane {i}'))
                       for i, label in enumerate(r.lanes))
    lines.append(t('graph.dag_split_speeds' if r.speeds else 'graph.dag_split', counts=counts))
    for label in r.forced:  # the planner alone would have left this lane idle
        lines.append(t('graph.dag_forced', lane=lane_name(f'lane {r.lanes.index(label)}')))
    p = r.predicted
    if p:  # lanes of different speeds: the plan's length in seconds, before the run
        from ..depgraph.dag import DAG_VARIANTS as V
        ratio = p[V[0]] / p[V[1]]
        key = 'graph.dag_predicted' if ratio >= 1 else 'graph.dag_predicted_slower'  # below 1: worded as longer
        lines.append(t(key, one=p[V[0]] * 1e3, planned=p[V[1]] * 1e3, ratio=ratio, inv=1 / ratio))
        if ratio < 1:
            lines.append(t('graph.dag_predicted_loss'))
    from ..depgraph.dag import DAG_VARIANTS
    one, whole = r.measurements.get(DAG_VARIANTS[0]), r.measurements.get(DAG_VARIANTS[2])
    planned = r.measurements.get(DAG_VARIANTS[1])
    if one is not None and planned is not None:
        lines.append(versus_text('graph.dag_faster', 'graph.dag_slower', 'graph.dag_same', planned, one))
    if one is not None and whole is not None:  # the sentence follows the numbers: on a busy machine all cores can lose
        key = 'graph.dag_all_cores_faster' if whole.median < one.median else 'graph.dag_all_cores_slower'
        lines.append(t(key, ratio=one.median / whole.median, inv=whole.median / one.median))
    return '\n'.join(lines)


def dag_model_text(model: dict) -> str:
    """Exercise 5's prediction in products, before running: serial, the plan on two lanes, the critical path."""
    return t('graph.dag_model', serial=model['serial'], planned=model['planned'], path=model['critical_path'],
             floor=model['floor'], lanes=model['lanes'], bound=model['serial'] / model['floor'])


def draw_dag(r, title=None):
    """Exercise 5: the plan (which lane runs each task) above the measured run, its prediction dashed (13.3.3)."""
    from ..depgraph.dag import DAG_VARIANTS, dag_graph
    fig, (top, bottom) = style.figure(nrows=2, height=8.5)
    draw_graph(dag_graph(r), ax=top, label_edges=False, title=style.plot_text('graph.title_dag_plan'),
               rows=[f'lane {i}' for i in range(len(r.lanes))])
    rows = {lane_name(f'lane {i}', plot=True): f'lane {i}' for i in range(len(r.lanes))}
    shown = [dict(e, lane=lane_name(f"lane {r.lanes.index(e['lane'])}", plot=True)) for e in r.trace]
    # Lanes of different speeds: the plan's modelled length in seconds. Equal lanes: its length in
    # products, at the time per product the one-lane run measured here.
    per_product = r.measurements[DAG_VARIANTS[0]].median / r.model['serial']
    predicted = r.predicted[DAG_VARIANTS[1]] if r.predicted else r.model['planned'] * per_product
    key = 'graph.title_dag_run' if r.speedup >= 1 else 'graph.title_dag_run_slower'  # worded by direction
    draw_timeline(shown, ax=bottom, rows=rows, predicted=predicted,
                  title=title or style.plot_text(key, ratio=r.speedup, inv=1 / r.speedup))
    return fig


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
        return _fmt_bytes(e['bytes'])
    if len(e['shapes']) == 1:
        return '×'.join(str(s) for s in e['shapes'][0]) or 'scalar'
    return style.plot_text('graph.n_tensors', n=len(e['shapes']))


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
        face = style.color(_role(n['lane'], lanes))
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
    handles = [Patch(color=style.color(_role(lane, lanes)), label=lane_name(lane, plot=True)
                     + (f' ({device_of[lane]})' if device_of[lane] and lane != SERVER else '')) for lane in lanes]
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
    rows = {lane_name(x, plot=True): _role(x, lanes) for x in ids}
    # 'fc1 fwd [lane 0]' keeps its lane in brackets, translated, so the timeline can drop it from the bar.
    shown = [dict(e, lane=lane_name(e['lane'], plot=True), role=e.get('role') or _role(e['lane'], lanes),
                  name=box_name(e['name'], plot=True))
             for e in events]
    path = set(getattr(r, 'critical_path', ())) if critical_path else set()
    marked = [s['name'] for e, s in zip(events, shown) if e['name'] in path]
    return draw_timeline(shown, ax=ax, title=title, predicted=predicted, rows=rows, highlight=marked,
                         legend_names=_legend_names(events))


def _legend_names(events) -> dict:
    """The server's colour named as the server; the copies named for what they cross: devices, or lanes (13.3.3)."""
    names = {'cpu': style.plot_text('graph.server')}
    kinds = {e['across'] for e in events if e.get('across')}
    if kinds == {'lanes'}:
        names['link'] = style.plot_text('graph.role.copy_lanes')
    elif kinds == {'lanes', 'devices'}:
        names['link'] = style.plot_text('graph.role.copy_mixed')
    return names  # copies between devices keep the shared name, style.role.link
