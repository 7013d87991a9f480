"""13.3.3's pictures and printed lines: the recorded graph (a row per lane, a column per dependency depth), the step
timed three ways, exercise 5's DAG. A measuring cell draws one figure and prints at most two lines (verdict.py)."""
from __future__ import annotations

from functools import partial

from ..depgraph import layout, recording
from ..depgraph.dag import ALONE_REPEATS, DAG_VARIANTS, dag_graph
from ..depgraph.model import SERVER
from ..depgraph.recording import CONTROL, WAYS  # noqa: F401 (WAYS: the keys graph.variant.<way>)
from ..depgraph.runs import unread_lanes
from ..i18n import t
from ..results import quartiles
from ..timing import Measurement
from . import style, tables, verdict
from .fonts import plot_lane
from .repeats import plot_repeats
from .timeline import BAR_HEIGHT, _text_colour, draw_timeline

# The keys graph.stage.<stage>: the worked step's stages, a half ('lane step') and the one-device step ('whole step').
STAGES = ('copy_in', 'fc1_fwd', 'relu', 'fc2_fwd', 'loss', 'fc2_bwd', 'relu_bwd', 'fc1_bwd',
          'grad_copy', 'sum', 'update', 'lane_step', 'whole_step', 'sum_update')
STAGE_OF = {stage.replace('_', ' '): stage for stage in STAGES}  # 'fc1 fwd' -> 'fc1_fwd'
ROW_ORDER = (CONTROL, 'one_device', 'split', 'in_turn')  # the figure's rows (below the two-device model)
READY_GREY, HANDOFF = '#8C8C8C', 'black'  # ex. 5: idle, inputs ready; the step: timer outside its parts (waits: empty)
ONE_DEVICE_ROLE, SERVER_ROLE = style.lane_role(2), 'gpu'  # hues of their own (green: no GPU is green here)
_ms = partial(verdict.num, unit='ms')  # '2.16 ms'


def lane_name(lane: str, plot: bool = False, kinds=None) -> str:
    """A row id as a learner reads it: 'lane 0' / '计算资源 0', or 'GPU' / 'CPU' where `kinds` differ, in a plot with
    `kinds` the plot language's lane name ('lane 0' / 'CPU 0', hardware named); the server."""
    say, i = style.plot_text if plot else t, lane[5:]
    if lane.startswith('lane ') and i.isdigit():
        return say(f'graph.kind.{kinds[int(i)]}') if len(set(kinds or ())) > 1 else say(('graph.lane_plot_gpu' if (
            kinds[0] == 'gpu') else 'graph.lane_plot_cpu') if plot and kinds else 'graph.lane', i=i)
    return say('graph.server') if lane == SERVER else lane


def stage_label(name: str, plot: bool = False) -> str:
    """A stage of the worked step as a learner reads it ('fc1 fwd' -> 'fc1 前向'); a learner's own as itself."""
    stage = STAGE_OF.get(name)
    return (style.plot_text if plot else t)(f'graph.stage.{stage}') if stage else name


def role_of(lane: str) -> str:
    """Colour role of a row: copies are transfers, the server is the CPU, 'lane N' is lane N."""
    return style.lane_role(int(lane[5:])) if lane.startswith('lane ') and lane[5:].isdigit() else (
        'link' if lane.startswith('link:') else SERVER_ROLE)


def machine_line(lanes) -> str:  # one line: which device each lane is ('lane 0: CPU, 1 of 2 cores · lane 1: ...')
    return t('graph.lanes_line', lanes=t('graph.lanes_sep').join(
        t('graph.lane_is', lane=lane_name(f'lane {i}'), label=lane.label) for i, lane in enumerate(lanes)))


def draw_graph(g, ax=None, title=None, highlight=(), missing=None):  # title: a key; missing: default changed
    """A (coarse) dependency graph -> the Figure: copies are dashed arrows, each copy's box names its bytes;
    `highlight`: node ids outlined (a critical path); `missing`: a graph whose edges g lacks are drawn red, dashed."""
    from matplotlib.artist import Artist
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    pos = layout.positions(g, y := layout.rows(g))
    ncols = 1 + max((p[0] for p in pos.values()), default=0)
    _, ax = style.figure(width=min(15.0, max(9.0, 1.35 * ncols)), height=1.6 + 1.3 * max(y.values(), default=1)) if (
        ax is None) else (style.apply(), ax)
    ax.set_xlim(-0.7, ncols - 0.3)
    ax.set_ylim(max(y.values(), default=0) + 0.9, -0.9)  # first lane on top
    boxes, highlight = {}, set(highlight)
    title = title or ('graph.title_changed' if missing else 'graph.title_graph')
    for n in g['nodes']:  # a copy's box names the bytes it moves: once per copy, not on each of its arrows
        face, marked, b = style.color(role_of(n['lane'])), n['id'] in highlight, n.get('bytes') or 0
        size = f'{b / 2**20:.1f} MiB' if b >= 2**20 else f'{b / 2**10:.0f} KiB' if b >= 1024 else f'{b} B'
        boxes[n['id']] = ax.text(*pos[n['id']], stage_label(n['name'], plot=True) + (
                                 f'\n{size}' if n['kind'] == 'copy' and b else ''), ha='center', va='center',
                                 fontsize=style.MIN_FONT_PT,
                                 color='black' if n['kind'] == 'copy' else 'white',
                                 bbox={'boxstyle': 'round,pad=0.3', 'fc': face, 'ec': 'black' if marked else '0.3',
                                       'lw': 2.5 if marked else 0.6}, zorder=3)
    ax.add_artist(fresh := Artist())  # drawn first (zorder 0): each box's outline where this draw puts it, so arrows
    fresh.draw = lambda r: [b.update_bbox_position_size(r) for b in boxes.values()]  # end at it (tight bbox moves all)
    middle, have = max(y.values(), default=0) / 2, {(e['src'], e['dst']) for e in g['edges']}
    lost = [dict(e, kind='missing') for e in (missing or {}).get('edges', ())
            if (e['src'], e['dst']) not in have and e['src'] in pos and e['dst'] in pos]
    for e in g['edges'] + lost:
        (x1, y1), (x2, y2) = pos[e['src']], pos[e['dst']]
        rad = 0.0 if x2 - x1 <= 1 else (0.2 if y1 <= middle else -0.2)  # a long arrow bends away from the boxes
        ax.annotate('', xy=(x2, y2), xytext=(x1, y1), zorder=1,
                    arrowprops={'arrowstyle': '-|>', 'lw': 2.5 if e['kind'] == 'missing' else 1.0, 'color': 'red' if e[
                                'kind'] == 'missing' else '0.35', 'shrinkA': 1, 'shrinkB': 1,
                                'patchA': boxes[e['src']].get_bbox_patch(), 'patchB': boxes[e['dst']].get_bbox_patch(),
                                'linestyle': '-' if e['kind'] == 'data' else '--',
                                'connectionstyle': f'arc3,rad={rad}'})
    device_of = {n['lane']: n.get('device', '') for n in g['nodes']}  # a lane's legend entry names its device
    kinds = ['gpu' if str(device_of.get(f'lane {i}')).startswith('cuda') else 'cpu' for i in range(2)]
    named = {lane: lane_name(lane, plot=True, kinds=kinds) for lane in y if not lane.startswith('link:')}
    handles = [Patch(color=style.color(role_of(lane)), label=style.plot_text('graph.lane_device', lane=name, device=(
        plot_lane(device_of[lane]))) if device_of[lane] and lane != SERVER and plot_lane(device_of[lane]) not in name
        else name) for lane, name in named.items()]
    if any(n['kind'] == 'copy' for n in g['nodes']):
        cpu = '_cpu' if all(str(d).startswith('cpu') for d in device_of.values()) else ''  # copies stay on the CPU
        handles.append(Patch(fc=style.color('link'), ec='0.3', label=style.plot_text(f'graph.legend_copy{cpu}')))
    handles += [Line2D([], [], color='red', ls='--', lw=2.5, label=style.plot_text('graph.legend_missing'))][:len(lost)]
    handles += [Line2D([], [], ls='', marker='s', markersize=12, markerfacecolor='white', markeredgecolor='black',
                       markeredgewidth=2.5, label=style.plot_text('graph.legend_path'))][:bool(highlight)]
    ax.legend(handles=handles, loc='upper center', bbox_to_anchor=(0.5, -0.01), ncol=min(len(handles), 4), frameon=0)
    ax.set_axis_off()
    ax.set_title(style.plot_text(title), loc='left')
    return ax.figure


def _measurements(run: dict) -> dict:  # each way's Measurement (the control where it was run)
    return {v: Measurement(v, run['times'][v]) for v in run['times']}


def _halves(run: dict) -> dict:  # {(lane, way): its half's Measurement}, lane 0's both ways first
    return {(k, w): Measurement(w, [h[k] for h in run['halves'][w] if len(h) == 2]) for k in ('lane 0', 'lane 1')
            for w in ('in_turn', 'split')}


def _run_and_kinds(rec: dict):  # (the run to show, each lane's kind) from record_step's recording, or (a run, None)
    return (rec, None) if 'runs' not in rec else (recording.pick_run(rec), [lane['kind'] for lane in rec['lanes']])


def step_lines(rec: dict, guess_ms=None, ask: bool = True) -> str:
    """The guess line (none without a guess, or with `ask=False`) and one verdict line."""
    m, guess = _measurements(run := _run_and_kinds(rec)[0]), None if guess_ms is None else float(guess_ms) / 1e3
    return verdict.lines(verdict.guess(guess if ask else None, recording.predict_split(run), m['split'].median, 'ms'),
                         verdict.line(t('graph.short.split'), m['split'], _best(m)[1], m[_best(m)[0]], unit='ms'))


def _best(m: dict, say=t) -> tuple[str, str]:  # the faster one-device row (all cores or one-thread control), name
    best = min((k for k in ('one_device', CONTROL) if k in m), key=lambda k: m[k].median)
    return best, say('graph.best.one_thread' if best == CONTROL else 'graph.dag_variant.2' if (
        CONTROL in m) else 'graph.short.one_device')


def inputs_line(rec: dict) -> str:  # the guess's inputs, printed before it: one after the other and its halves
    run, kinds = _run_and_kinds(rec)
    ser, half = Measurement('', run['times']['in_turn']), recording.halves_summary(run)['in_turn']
    best, said = _best(m := _measurements(run))  # the baseline too: cell 10 works the model against it
    return t('graph.inputs_line', ser=_ms(ser.median), n=len(ser.times), halves=t('graph.lanes_sep').join(
        t('graph.lane_is', lane=lane_name(k, kinds=kinds), label=_ms(v)) for k, v in half.items()), base=said,
        one=_ms(m[best].median))


def _timeline_events(run: dict, kinds=None) -> tuple[list[dict], dict, dict, list]:
    """The median repeats of 'together' and the verdict's one-device way (_best) as events -> (events, {row: role}, the
    legend's {colour: text}, the bars drawn over them [(row, start, end, colour)]: waits empty, the rest black)."""
    lane, server = [lane_name(f'lane {i}', True, kinds) for i in range(2)], style.plot_text('graph.server')
    best, one = _best(_measurements(run), style.plot_text)  # the one-device row named as in the verdict line
    name = {'lane 0': lane[0], 'lane 1': lane[1], SERVER: server, 'one device': one}
    rows = {lane[0]: style.lane_role(0), server: SERVER_ROLE, lane[1]: style.lane_role(1), one: ONE_DEVICE_ROLE}
    split, events = run['events']['split'], []
    for v in ('split', best):
        events += [{'lane': name[e['lane']], 'start': e['start'], 'end': e['end'], 'name': stage_label(e['name'], True),
                    'role': 'link' if e['name'] in ('copy in', 'grad copy') else None} for e in run['events'][v]]
    _, (began, ended), handoffs = recording.timeline_spans(run, best)
    waits = [(r, a['end'], b['start']) for r, ev in ((r, [e for e in split if e['lane'] == f'lane {r // 2}']) for r in (
        0, 2)) for a, b in zip(ev, ev[1:]) if b['start'] > a['end']]  # a lane (row 0, 2) idle between its boxes
    keys = {style.color('link'): 'graph.legend_copy_box', style.color(SERVER_ROLE): 'graph.legend_server', HANDOFF: (
        'graph.legend_handoff'), 'white': 'graph.legend_wait', style.color(ONE_DEVICE_ROLE): 'graph.stage.whole_step'}
    return events, rows, {c: style.plot_text(k) for c, k in keys.items()}, [(*w, 'white') for w in [
        *waits, (1, began, ended)]] + [(*h, HANDOFF) for h in handoffs]


def draw_step(rec: dict, guess_ms=None, title=None):
    """Every repeat of each way and half, together's prediction hatched; below, the median repeats' timelines."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    run, kinds = _run_and_kinds(rec)
    fig, first = style.figure(height=11.5)
    first.remove()  # on top, under the printed verdict, its rows' repeats and boxes; below, the timelines
    top, bottom = (fig.add_subplot(c) for c in fig.add_gridspec(2, 1, height_ratios=(5, 4)))
    best, said = _best(_measurements(run), style.plot_text)
    rows = {v: m for v, m in sorted(_measurements(run).items(), key=lambda x: ROW_ORDER.index(x[0]))}
    labels = {way: style.plot_text(f'graph.variant.{way}') for way in rows}  # together beside one device
    if one := rec.get('one_device'):  # which device, how many cores
        labels['one_device'] = style.plot_text('graph.one_device_row', device=style.plot_text(
            'graph.kind.gpu') if one['kind'] == 'gpu' else style.plot_text('graph.cpu_cores', n=one['threads']))
    labels[best] = style.plot_text('graph.baseline_row', row=labels[best])  # the verdict's one-device row
    for lane in ('lane 0', 'lane 1'):  # each half's busy time, both ways
        for way in ('in_turn', 'split'):
            rows[f'{lane} {way}'], labels[f'{lane} {way}'] = _halves(run)[lane, way], style.plot_text(
                'graph.half_row', lane=lane_name(lane, True, kinds), way=style.plot_text(f'graph.short.{way}'))
    guess, predicted = {} if guess_ms is None else {'split': float(guess_ms) / 1e3}, recording.predict_split(run)
    turn, ms = recording.halves_summary(run)['in_turn'], (lambda s: verdict.sig(s * 1e3))
    labels['split'] = style.plot_text(f"graph.predicted_{'plus' if len(set(kinds or ())) > 1 else 'from'}", lane=(
        lane_name(max(turn, key=turn.get), True, kinds)), half=ms(max(turn.values())), shorter=ms(min(turn.values())),
        rest=ms(recording.parts(run)[-1][1]), wall=ms(rows['in_turn'].median), way=labels['split'])  # GPU+CPU: plus
    plot_repeats(rows, ax=top, unit='ms', labels=labels, predicted={'split': predicted}, guess=guess,
                 title=style.plot_text('graph.title_dag_run', n=len(run['times']['split'])), halves=True)
    events, rows, legend, bars = _timeline_events(run, kinds)
    draw_timeline(events, ax=bottom, rows=rows, title=style.plot_text('graph.title_timeline', one=said, split=(
        style.plot_text('graph.short.split'))))  # the two ways it draws
    wall = {v: run['times'][v][run['drawn'][v]] for v in ('split', best)}
    scale = style.time_unit(max(e['end'] for e in events))[1]
    bottom.barh([r for r, *_ in bars], [(b - a) * scale for _, a, b, _ in bars], height=BAR_HEIGHT, left=[
        a * scale for _, a, _, _ in bars], color=[c for *_, c in bars], ec='0.3', lw=0.8, zorder=2)
    bottom.vlines([wall['split'] * scale, wall[best] * scale], [-0.45, 2.55], [2.45, 3.45], colors='0.2',
                  linestyles='--', linewidth=1.5, zorder=4)  # each way's timer: together's rows, then one device's
    bottom.set_xlim(0, max(bottom.get_xlim()[1], max(wall.values()) * scale * 1.02))
    timers = Line2D([], [], color='0.2', ls='--', label=style.plot_text('graph.legend_timers'))
    for ax, handles in ((top, top.get_legend().legend_handles), (bottom, [  # below each panel: the full width for boxes
            *(Patch(fc=c, ec='0.3', label=text) for c, text in legend.items()), timers])):
        ax.legend(handles=handles, loc='upper center', bbox_to_anchor=(0.5, -0.12), ncol=2, frameon=False)
    if title:
        fig.suptitle(title, x=0.01, ha='left')
    return fig


def _parts(here: dict) -> tuple:
    """(the run, its parts, predicted and measured together, the overlap predicted and measured, each part's name)."""
    run, kinds = _run_and_kinds(here)
    pct = [verdict.num(run['predicted_overlap'], '%'), verdict.num(recording.halves_summary(run)['overlap'] or 0, '%')]
    name = {'rest': t('graph.part.rest'), 'split': t('graph.short.split'), 'apart': t('graph.part.overlap'), **{
        f'lane {i}': t('graph.part.half', lane=lane_name(f'lane {i}', kinds=kinds)) for i in range(2)}}
    return run, recording.parts(run), recording.predict_split(run), _measurements(run)['split'].median, pct, name


def _pct(share: float, key: str = 'verdict.unit.%') -> str:  # 0.063 -> '6.3%' (or '6.3 points', key graph.unit.points)
    return t(key, value=verdict.sig(share * 100, 2))


def _longer(a, b) -> str:  # the rule's word for a time part, a against b: 'longer', 'shorter', 'no clear difference'
    return {'faster': t('graph.time.shorter'), 'slower': t('graph.time.longer')}.get(verdict.compare(a, b)) or (
        verdict.word(a, b))


def _signed(d: float, unit: str = 'ms') -> str:  # '+0.089 ms', '−15 points' (d a difference of shares)
    return verdict.signed(_ms(abs(d)) if unit == 'ms' else _pct(abs(d), 'graph.unit.points'), negative=d < 0)


def split_table(here: dict):
    """Exercise 2's table: each part of together (medians; halves: grey boxes, the rule) beside its prediction."""
    import pandas as pd
    run, parts, predicted, together, pct, name = _parts(here)
    h, over = _halves(run), (recording.halves_summary(run)['overlap'] or 0) - run['predicted_overlap']
    h.update({('rest', w): Measurement(w, x) for w, x in recording.rest_repeats(run).items()})  # assumption 3
    box = {k: [t('graph.box', median=_ms(m.median), lo=verdict.sig(quartiles(m)[0] * 1e3), hi=_ms(quartiles(m)[1]))
               for m in (h[k, 'in_turn'], h[k, 'split'])] for k in ('lane 0', 'lane 1')}  # each half's grey boxes
    rows = [[a or '', name[k], *(pct if k == 'apart' else box[k] if a == 1 else (_ms(p), _ms(x))), _signed(over, '%')
             if k == 'apart' else t('graph.lane_is', lane=_signed(x - p), label=_longer(h[k, 'split'], h[k, (
                 'in_turn')])) if a in (1, 3) else _signed(x - p)] for k, p, x, a in [
                     *parts, ('split', predicted, together, 0)]]
    return pd.DataFrame(rows, columns=[t(f'graph.col.{c}') for c in ('assumption', 'part', 'predicted', 'measured',
                                                                      'rule')])


def split_answer(here: dict, guess=None) -> None:
    """Exercise 2's worked answer: split_table; the guess (assumption 1 failed?) beside this run's; each assumption
    by the rule, with the table's number for it."""
    from IPython.display import HTML, display
    display(HTML(tables.html(split_table(here))))
    run, parts, _, _, pct, name = _parts(here)
    hv = _halves(run)  # assumption 1 by the one rule: each half together against one after the other
    moved = [k for k in ('lane 0', 'lane 1') if verdict.compare(hv[k, 'split'], hv[k, 'in_turn']) != 'same']
    k, p, x, _ = max((q for q in parts if q[0] in moved), key=lambda q: abs(q[2] - q[1]), default=parts[0])
    big = t('graph.lane_is', lane=f'{name[k]} {_signed(x - p)}', label=_longer(hv[k, 'split'], hv[k, 'in_turn']))
    one = t('graph.answer.failed', big=big) if moved else t('graph.answer.held', d0=_signed(parts[0][2] - parts[0][
        1]), d1=_signed(parts[1][2] - parts[1][1]))
    turn, split = (Measurement(w, x) for w, x in recording.rest_repeats(run).items())  # the word only: d is the table's
    three = t('graph.answer.rest', d=_signed(parts[3][2] - parts[3][1]), by=_longer(split, turn))
    print(*[t('graph.guess', guess=guess, got=bool(moved))][:guess is not None], verdict.answer(
        one, t('graph.answer.overlap', pct=pct[1], assumed=pct[0]), three), sep='\n')


def step_answer(rec: dict) -> None:
    """Cell 13's worked answer: together against the graph's estimate (verdict.vs_model); what the step one after the
    other is made of: its other time beside the two halves (the inputs line's, exercise 2's table's)."""
    run = _run_and_kinds(rec)[0]
    (_, h0, *_), (_, h1, *_), _, (_, rest, *_) = recording.parts(run)
    than = 'more' if rest > max(h0, h1) else 'less' if rest < min(h0, h1) else 'between'
    print(verdict.answer(t('graph.answer.fit', fit=verdict.vs_model(t('graph.short.split'), _measurements(run)[
        'split'].median, t('graph.model'), recording.predict_split(run), 'ms')), t(
            'graph.answer.made_of', rest=_ms(rest), than=t(f'graph.than.{than}'), h0=_ms(h0), h1=_ms(h1))))


def wrong_sum_answer(g, caught: bool, guess=None):
    """Exercise 1's worked answer: the guess (graph changed?, caught?) beside this run's; which lanes' gradients the
    recorded `sum` reads; did float64 catch it?"""
    unread = unread_lanes(g)
    graph = t('graph.answer.unread', lane=lane_name(unread[0])) if unread else t('graph.answer.reads_both')
    print(*[t('graph.guess', guess=guess, got=(bool(unread), caught))][:guess is not None], verdict.answer(
        graph, t(f"graph.answer.{'caught' if caught else 'passed'}")), sep='\n')


def show_step(rec: dict, guess_ms=None, title=None, ask: bool = True):  # step_lines printed, draw_step's figure
    return print(step_lines(rec, guess_ms, ask)) or draw_step(rec, guess_ms, title)


def show_recorded(rec: dict | None, guess_ms=None):
    """The recorded GPU run as show_step draws a run here, titled where and when; one line when none is shipped."""
    return print(t('graph.no_recording')) if rec is None else show_step(rec, guess_ms, style.plot_text(
        'graph.recorded_title', gpu=', '.join(dict.fromkeys(rec['machine'].get('gpus') or ['CPU'])),
        date=rec['machine'].get('date', '')[:10]), ask=False)


def dag_line(model: dict, alone: dict) -> str:
    """Each lane's time per task alone, all tasks in order (the plan's task times: the answer's, as the cell asks)."""
    one = len(set(alone.values())) == 1  # identical lanes: one time, the median over both (task_times)
    return t('graph.dag_alone', n=f"{model['serial']:g}", r=ALONE_REPEATS * (1 + one), each=_ms(next(iter(
        alone.values()))) if one else t('graph.lanes_sep').join(t('graph.dag_each', lane=lane_name(f'lane {i}'), took=(
            _ms(s))) for i, s in enumerate(alone.values())))


def draw_dag(dag, lanes, title='graph.title_dag', path=False):  # as the equal-lanes plan places it (path: outlined)
    return draw_graph(g := dag_graph(dag, lanes), title=title, highlight=g['path'] if path else ())


def _dag_base(ex):
    """(two lanes planned, the faster baseline: one lane in order or one device with all its cores, its name)."""
    v = min((DAG_VARIANTS[k] for k in (0, 2) if DAG_VARIANTS[k] in ex.measurements), key=lambda v: ex.measurements[
        v].median)
    return ex.measurements[DAG_VARIANTS[1]], ex.measurements[v], _dag_label(ex, v, t)


def _dag_label(ex, v, say) -> str:  # a DAG way's name; CPU lanes' 'one lane, in order' is one device on one thread
    return say('graph.best.one_thread' if v == DAG_VARIANTS[0] and DAG_VARIANTS[2] in ex.measurements else
               f'graph.dag_variant.{DAG_VARIANTS.index(v)}')


def dag_lines(ex, guess_ms=None) -> str:
    """The guess line (with a guess); planned's verdict against the faster baseline."""
    (planned, base, name), predicted = _dag_base(ex), ex.predicted_ms()
    return verdict.lines(verdict.guess(None if guess_ms is None else float(guess_ms) / 1e3, predicted[DAG_VARIANTS[
        1]], planned.median, 'ms'), verdict.line(t('graph.dag_short.planned'), planned, name, base, unit='ms'))


def dag_answer(ex, guess=None) -> None:
    """Exercise 3's answer (the guess first): at least how many task times (the critical path, outlined; one lane runs
    at least half of the tasks); correct?; each lane's time per task in the drawn run (the figure's rows) and alone;
    planned against the hatched estimate (vs_model)."""
    from IPython.display import display
    display(draw_dag(ex.dag, ex.lanes, path=True))
    path, n, kinds, per = ex.model['critical_path'], len(ex.dag), ['gpu' if k == 0 else 'cpu' for k in ex.threads], (
        ex.per_task())
    bound = f'{max(path, -(-n // 2)):g}'  # a lane runs at least half of the tasks
    said = [t('graph.answer.bound', bound=bound, path=f'{path:g}', half=-(-n // 2), n=n), t('graph.answer.dag_correct'),
            *[t('graph.answer.dag_run', each=t('graph.lanes_sep').join(t('graph.dag_each_alone', lane=lane_name(
                f'lane {i}', kinds=kinds), took=_ms(p[0]), alone=_ms(1 / ex.speeds[lb])) for i, (lb, p) in enumerate(
                    zip(ex.lanes, per or []))))][:bool(per)]]  # each lane's boxes, as the figure's rows; alone
    if ex.predicted_ms():  # the hatched bar: the plan at the lanes' times alone, timed before the run
        fit = verdict.vs_model(t('graph.dag_short.planned'), ex.measurements[DAG_VARIANTS[1]].median, t(
            'graph.model_dag'), ex.predicted_ms()[DAG_VARIANTS[1]], 'ms')
        said.append(t('graph.answer.fit', fit=fit[:1].upper() + fit[1:]))  # a sentence of its own
    print(*[t('graph.guess_tasks', guess=guess, path=bound)][:guess is not None], verdict.answer(*said), sep='\n')


def show_dag(ex, guess_ms=None):
    """Guess and verdict lines; each way's repeats, predictions, guess; the run: tasks, waits (darker: inputs ready)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    print(dag_lines(ex, guess_ms))  # the guess line, if any; the verdict
    labels, base = {k: _dag_label(ex, k, style.plot_text) for k in ex.measurements}, _dag_base(ex)[1]
    labels.update({k: style.plot_text('graph.baseline_row', row=v) for k, v in labels.items() if ex.measurements[
        k] is base})  # the verdict's baseline, so labelled
    guess = {} if guess_ms is None else {DAG_VARIANTS[1]: float(guess_ms) / 1e3}
    fig, axes = style.figure(nrows=2 if ex.trace else 1, height=8.0 if ex.trace else None, width=12.0)  # room for names
    top = axes[0] if ex.trace else axes
    plot_repeats(ex.measurements, ax=top, unit='ms', labels=labels, predicted=ex.predicted_ms() or {}, guess=guess,
                 title=style.plot_text('graph.title_dag_run', n=len(ex.measurements[DAG_VARIANTS[1]].times)),
                 halves=True, predicted_label=style.plot_text('graph.legend_replay'))
    below = {'loc': 'upper center', 'bbox_to_anchor': (0.5, -0.22), 'ncol': 4, 'frameon': False}  # axes full width
    top.legend(handles=top.get_legend().legend_handles, **below)
    if ex.trace:
        kinds = ['gpu' if threads == 0 else 'cpu' for threads in ex.threads]
        row = {lane: lane_name(f'lane {i}', True, kinds) for i, lane in enumerate(ex.lanes)}
        events = [{'lane': row[e['lane']], 'start': e['start'], 'end': e['end'], 'name': '', 'role': style.lane_role(
            ex.lanes.index(e['lane']))} for e in ex.trace] + [{'lane': row[ex.lanes[i]], 'start': a, 'end': b, 'name': (
                ''), 'role': 'idle'} for i, a, b, r in ex.waits() if not r]
        ready = [(i, a, b) for i, a, b, r in ex.waits() if r]  # between tasks: waiting for inputs, then idle with them
        per = {i: verdict.num(took, 'ms') for i, (took, *_) in enumerate(ex.per_task() or [])}  # each lane's speed
        draw_timeline(events, ax=axes[1], rows={row[lane]: style.lane_role(i) for i, lane in enumerate(ex.lanes)},
                      row_labels={row[lane]: style.plot_text('graph.dag_row', lane=row[lane], took=per.get(i, '?'))
                                  for i, lane in enumerate(ex.lanes)},  # its time alone: the printed line, the answer
                      title=style.plot_text(f"graph.title_dag_trace.{'traced' if 'gpu' in kinds else 'median'}"))
        scale = style.time_unit(max(e['end'] for e in events))[1]
        for i, a, b in ready:  # darker: the task's inputs were there, the lane had not started it
            axes[1].barh(i, (b - a) * scale, left=a * scale, height=BAR_HEIGHT, color=READY_GREY, zorder=2)
        for e, i in ((e, ex.lanes.index(e['lane'])) for e in ex.trace):  # every task named, across its narrow bar
            axes[1].text((e['start'] + e['end']) / 2 * scale, i, e['name'], rotation=90, ha='center', va='center',
                         fontsize=style.MIN_FONT_PT, color=_text_colour(style.color(style.lane_role(i))), zorder=4)
        x, ax = ex.trace_wall * scale, axes[1]  # where the timer stopped
        ax.axvline(x, color='0.2', linestyle='--', linewidth=1.5, zorder=4)
        ax.set_xlim(0, max(ax.get_xlim()[1], x * 1.02))
        ax.legend(handles=[Patch(color=style.color('idle'), label=style.plot_text('graph.legend_waiting')), Patch(
            color=READY_GREY, label=style.plot_text('graph.legend_ready')), Line2D([], [], color='0.2', ls='--', label=(
                style.plot_text('graph.legend_timer_stops', wall=verdict.num(ex.trace_wall, 'ms'))))], **below)
    return fig
