"""13.3.3's step as recorded on a GPU machine, for readers without one: its caption and its figure.

Every sentence and title is generated from the recording it describes (machine, versions, date,
sizes, repeats, the measured overlap beside its prediction), in the reader's language; the
figure draws the representative repeat's busy intervals and every repeat's time.
"""
from __future__ import annotations

from ..depgraph import recording
from ..i18n import t
from ..results import Measurement, quartiles, told_apart
from . import style
from .graph_draw import fit_bar_names
from .graph_names import lane_name
from .timeline import draw_timeline

# The recording's event names (ids) -> the catalogue keys that name them in a figure.
STAGES = {name: f'graph.recorded.stage.{stage}' for name, stage in (
    ('copy in', 'copy_in'), ('lane step', 'lane_step'), ('grad copy', 'grad_copy'), ('sum', 'sum'),
    ('update', 'update'), ('whole step', 'whole_step'))}

# Names short enough for a narrow bar, used where the full one does not fit (the legend names the copies in full).
SHORT = (('copy in', 'graph.recorded.short.copy_in'), ('grad copy', 'graph.recorded.short.grad_copy'),
         ('lane step', 'graph.recorded.short.lane_step'), ('whole step', 'graph.recorded.short.whole_step'))
ONE = 'one device'  # the one-device step's row id in a recording's events
# Exercise 5's ways in recording.DAG_IDS' order, each with its catalogue key (written out, so the keys can be checked).
DAG_ROWS = (('one_lane', 'graph.dag_variant.0'), ('planned', 'graph.dag_variant.1'),
            ('all_cores', 'graph.dag_variant.2'))


def device_text(desc: dict, rec: dict, plot: bool = False) -> str:
    """A recorded lane's device as a reader reads it: 'GPU 0', 'CPU (15 of 16 cores)', 'CPU lane 1 (1 of 2 cores)'."""
    say = style.plot_text if plot else t
    cores = rec['machine'].get('cpu_cores')
    if desc['kind'] == 'gpu':
        return say('core.lane_gpu_label', index=desc['index'])
    if desc['threads'] >= cores:
        return say('core.lane_cpu_all_label', cores=cores)
    if any(lane['kind'] == 'gpu' for lane in rec['lanes']):
        return say('core.lane_cpu_label', threads=desc['threads'], cores=cores)
    return say('core.lane_cpu_share_label', number=desc['index'], threads=desc['threads'], cores=cores)


def _variant(v: str, plot: bool = False) -> str:
    return (style.plot_text if plot else t)(f'graph.variant.{v}')


def where_text(rec: dict) -> str:
    """Where, when and with what the recording was made."""
    m, v = rec['machine'], rec['machine'].get('versions', {})
    fields = dict(cores=m.get('cpu_cores'), torch=v.get('torch'), python=v.get('python'), date=m.get('date', '')[:10])
    if not recording.is_gpu(rec):
        return t('graph.recorded.where_cpu', **fields)
    return t('graph.recorded.where', gpus=gpus_text(rec), driver=m.get('driver'), cuda=m.get('cuda'), **fields)


def gpus_text(rec: dict, plot: bool = False) -> str:
    """The recording's GPUs as every lesson names a machine's GPUs (core.gpus): 'NVIDIA H200 x1', '1 块 NVIDIA H200'."""
    gpus = rec['machine'].get('gpus') or []
    return (style.plot_text if plot else t)('core.gpus', name=gpus[0], count=len(gpus)) if gpus else ''


def run_text(rec: dict, run: dict) -> str:
    """One batch size: the warm-up left out, the three medians and ranges, and which way took longer."""
    s, sizes = recording.summary(run), rec['sizes']
    lines = [t('graph.recorded.run', batch=run['batch'], repeats=run['repeats'], warmup=run.get('warmup', 0),
               **sizes)]
    lines += [t('graph.recorded.row', variant=_variant(v), ms=s['median'][v] * 1e3, lo=min(run['times'][v]) * 1e3,
                hi=max(run['times'][v]) * 1e3, every=_ms_list(run['times'][v])) for v in recording.VARIANTS]
    # the ratio of the two medians as the rows print them (3 places in ms), so a reader dividing them gets it
    split, one = (_ms(s['median'][v]) for v in ('split', 'one_device'))
    ratio = split / one if one else s['split_over_one']
    lines.append(t('graph.recorded.split_slower', ratio=ratio) if ratio >= 1
                 else t('graph.recorded.split_faster', ratio=1 / ratio))
    return '\n'.join(lines)


def _ms(seconds: float) -> float:
    """`seconds` in ms as this caption prints it (3 places): differences and ratios are taken from these."""
    return round(seconds * 1e3, 3) + 0.0


def _ms_list(times) -> str:
    return t('graph.recorded.sep').join(f'{x * 1e3:.3f}' for x in times)


DRAWN = ('one_device', 'split')  # the ways the timeline draws, each from one repeat


def drawn_text(run: dict) -> str:
    """Which repeat each drawn way is: its number, its wall-clock time beside the median, its bars' span.

    The same repeat timed twice (the wall clock around the call, its bars on the lanes' clocks): where the bars
    cover less than 1 - NOISE of the wall clock, a line gives the difference in numbers, without a cause.
    """
    import statistics

    from ..results import NOISE
    lines, gaps = [], []
    for v in DRAWN:
        i, times, events = recording.drawn_repeat(run, v), run['times'][v], run['events'][v]
        median = statistics.median(times)
        key = 'graph.recorded.drawn_median' if times[i] == median else 'graph.recorded.drawn_other'
        span = max(e['end'] for e in events) - min(e['start'] for e in events)
        lines.append(t(key, variant=_variant(v), repeat=i + 1, repeats=len(times), ms=times[i] * 1e3,
                       median=median * 1e3, span=span * 1e3))
        if times[i] > 0 and span < (1 - NOISE) * times[i]:
            wall, bars = _ms(times[i]), _ms(span)  # as printed above, so the gap subtracts as printed
            gaps.append(t('graph.recorded.drawn_gap', variant=_variant(v), ms=wall, span=bars,
                          gap=round(wall - bars, 3), share=bars / wall))
    return '\n'.join(lines + gaps)


ONE_STEP = {'rose': 'graph.recorded.one_step.rose', 'fell': 'graph.recorded.one_step.fell',
            'same': 'graph.recorded.one_step.same'}  # one device from one batch size to the next (one_device_by_batch)


def one_device_by_batch(rec: dict) -> list[str]:
    """One device's time from each recorded batch size to the next: 'rose', 'fell' or 'same' (not told apart).

    Each pair of neighbouring sizes is judged by results.told_apart (medians further apart than the larger IQR and
    the middle halves of the repeats apart); sizes in increasing order.
    """
    runs = sorted(rec['runs'], key=lambda r: r['batch'])
    ms = [Measurement('', r['times'][recording.VARIANTS[0]]) for r in runs]
    return ['same' if not told_apart(a, b) else 'rose' if b.median > a.median else 'fell' for a, b in zip(ms, ms[1:])]


def one_device_flat_text(rec: dict) -> str:
    """One device's time over every recorded batch size, where it did not rise at every step: each size's median and
    middle half of the repeats, and from each size to the next whether it rose, fell or was not told apart.

    Numbers only: the recording does not test why. Empty when it rose at every step (or one size was recorded).
    """
    steps = one_device_by_batch(rec)
    if all(s == 'rose' for s in steps):
        return ''
    runs = sorted(rec['runs'], key=lambda r: r['batch'])
    ms = [Measurement('', r['times'][recording.VARIANTS[0]]) for r in runs]
    items = [t('graph.recorded.one_item', batch=r['batch'], ms=m.median * 1e3, q1=quartiles(m)[0] * 1e3,
               q3=quartiles(m)[1] * 1e3) for r, m in zip(runs, ms)]
    said = [t(ONE_STEP[s], a=a['batch'], b=b['batch']) for s, a, b in zip(steps, runs, runs[1:])]
    return t('graph.recorded.one_by_batch', items=t('graph.sep_clause').join(items),
             steps=t('graph.sep_clause').join(said))


def overlap_text(rec: dict, run: dict) -> str:
    """The drawn repeat's halves, their overlap beside its prediction, the wall-clock saving beside its prediction."""
    s = recording.summary(run)
    halves = s['halves']
    lines = [t('graph.recorded.halves', batch=run['batch'], lane0=lane_name('lane 0'), lane1=lane_name('lane 1'),
               t0=halves.get('lane 0', float('nan')) * 1e3, t1=halves.get('lane 1', float('nan')) * 1e3)]
    alone = _alone(run)
    if alone:  # each lane's boxes with no other half running: exercise 2's t0 and t1
        lines.append(t('graph.recorded.alone', rows=run['batch'] // 2, lane0=lane_name('lane 0'),
                       lane1=lane_name('lane 1'), repeats=len(run['halves']['in_turn']), **alone))
    if s['overlap'] is not None:
        lines.append(t('graph.recorded.overlap', fraction=s['overlap'], lane=lane_name(s['shorter']),
                       low=s['overlap_min'], high=s['overlap_max'], repeats=run['repeats'],
                       predicted=s['predicted_overlap'], in_turn=s['overlap_in_turn']))
    if s['first'] is not None:
        lines.append(t('graph.recorded.starts', first=lane_name(s['first']), offset=s['start_offset'] * 1e3))
    gap_said = False
    if s['saved_predicted'] is not None:
        # from the medians as the rows print them (3 places in ms): 3.966 - 3.196 = 0.770
        saved = round(_ms(s['median']['in_turn']) - _ms(s['median']['split']), 3) + 0.0
        lines.append(t('graph.recorded.saved', saved=saved, predicted=_ms(s['saved_predicted'])))
        more = saved_more_text(s)
        if more:
            lines.append(more)
            gap_said = s['in_turn_gap'] is not None
    if s['in_turn_gap'] is not None and not gap_said:
        lines.append(t('graph.recorded.gap', gap=s['in_turn_gap'] * 1e3))
    ratios = _slowdown(run)
    if ratios:
        lines.append(t('graph.recorded.slowdown', lane0=lane_name('lane 0'), lane1=lane_name('lane 1'), **ratios))
    lines.append(t('graph.recorded.checked', error=s['error'], tolerance=s['tolerance']))
    return '\n'.join(lines)


def saved_more_text(s: dict) -> str:
    """A saving beyond its prediction (more than NOISE above): by how much, how much of that the median gap
    between the halves in turn covers, and what is left that the recording does not account for (numbers only)."""
    from ..results import NOISE
    saved, predicted, gap = s['saved'], s['saved_predicted'], s['in_turn_gap']
    if not predicted or predicted <= 0 or saved <= (1 + NOISE) * predicted:
        return ''
    # every number from those printed before it (3 places in ms), so each subtraction works as printed
    saved = round(_ms(s['median']['in_turn']) - _ms(s['median']['split']), 3) if 'median' in s else _ms(saved)
    predicted = _ms(predicted)
    excess, fields = round(saved - predicted, 3) + 0.0, {'ratio': saved / predicted}
    if gap is None:
        return t('graph.recorded.saved_more', excess=excess, **fields)
    gap = _ms(gap)
    if gap < excess:
        return t('graph.recorded.saved_more_gap', excess=excess, gap=gap, rest=round(excess - gap, 3) + 0.0,
                 **fields)
    return t('graph.recorded.saved_more_covered', excess=excess, gap=gap, **fields)


def _alone(run: dict) -> dict:
    """{'t0', 't1'}: each lane's median busy time (ms) with the halves in turn, the other lane idle; {} if unknown."""
    import statistics
    out = {}
    for i in (0, 1):
        busy = [h[f'lane {i}'] for h in run['halves']['in_turn'] if f'lane {i}' in h]
        if not busy:
            return {}
        out[f't{i}'] = statistics.median(busy) * 1e3
    return out


def _slowdown(run: dict) -> dict:
    """{'r0', 'r1'}: each half's median busy time with the halves together over its median in turn."""
    import statistics
    out = {}
    for i in (0, 1):
        lane = f'lane {i}'
        together = [h[lane] for h in run['halves']['split'] if lane in h]
        alone = [h[lane] for h in run['halves']['in_turn'] if lane in h]
        if not together or not alone:
            return {}
        out[f'r{i}'] = statistics.median(together) / statistics.median(alone)
    return out


def recorded_text(rec: dict | None, batch=None) -> str:
    """The caption of a recording: where and when, the lanes, every batch's medians, the drawn run's overlap (13.3.3).

    With no recording, one line saying that none is shipped yet.
    """
    if rec is None:
        return t('graph.recorded.none')
    lanes = t('graph.recorded.sep').join(
        t('graph.recorded.lane_item', lane=lane_name(f'lane {i}'), device=device_text(d, rec))
        for i, d in enumerate(rec['lanes']))
    lines = [where_text(rec), t('graph.recorded.lanes', lanes=lanes, one=device_text(rec['one_device'], rec)),
             t('graph.recorded.clock_note')]
    lines += [run_text(rec, run) for run in rec['runs']]
    flat = one_device_flat_text(rec)
    if flat:
        lines.append(flat)
    run = recording.pick_run(rec, batch)
    lines += [overlap_text(rec, run), drawn_text(run)]
    if rec.get('dag'):  # exercise 5, in recordings that have it
        lines.append(dag_text(rec['dag']))
    return '\n'.join(lines)


def dag_text(d: dict) -> str:
    """Exercise 5 as recorded: the plan's split and why, its prediction, every way's median and range (13.3.3)."""
    import statistics
    lines = [t('graph.rec_dag.title', tasks=d['tasks'], n=d['n'], repeats=d['repeats'])]
    for v, key in DAG_ROWS:
        if v in d['times']:
            ts = d['times'][v]
            lines.append(t('graph.rec_dag.row', variant=t(key), ms=statistics.median(ts) * 1e3,
                           lo=min(ts) * 1e3, hi=max(ts) * 1e3, every=_ms_list(ts)))
    counts = t('graph.sep_clause').join(t('graph.dag_count', count=c, lane=lane_name(f'lane {i}'))
                                        for i, c in enumerate(d['counts']))
    lines.append(t('graph.dag_split_speeds' if d['speeds'] else 'graph.dag_split', counts=counts))
    lines += [t('graph.dag_forced', lane=lane_name(f'lane {i}')) for i in d['forced']]
    from ..results import Measurement
    from .graph import dag_beside_text, dag_breakdown_text, dag_predicted_lines, versus_text
    planned, one = (Measurement(v, d['times'][v]) for v in ('planned', 'one_lane'))
    p = d.get('predicted')
    if p:
        lines += dag_predicted_lines(p['one_lane'], p['planned'])
        lines.append(dag_beside_text(p['one_lane'], p['planned'], one, planned))
    if d.get('breakdown'):  # recordings from 2026-12-04 on
        lines.append(dag_breakdown_text(d['breakdown']['lanes'], d['breakdown']['span'], gpu=0 in d['threads']))
    lines.append(versus_text('graph.dag', planned, one))
    lines.append(t('graph.rec_dag.checked', error=max(d['errors'].values())))
    return '\n'.join(lines)


def title(rec: dict, run: dict) -> str:
    """The figure's title, from the recording: GPU, date, batch, repeats, the overlap beside its prediction."""
    s = recording.summary(run)
    fields = dict(date=rec['machine'].get('date', '')[:10], batch=run['batch'], repeats=run['repeats'],
                  warmup=run.get('warmup', 0),
                  fraction=s['overlap'] if s['overlap'] is not None else float('nan'),
                  predicted=s['predicted_overlap'], lane=lane_name(s['shorter'], plot=True) if s['shorter'] else '')
    if recording.is_gpu(rec):
        return style.plot_text('graph.recorded.title', gpu=gpus_text(rec, plot=True), **fields)
    return style.plot_text('graph.recorded.title_cpu', **fields)


def timeline_events(rec: dict, run: dict) -> tuple[list[dict], dict]:
    """The representative repeat's split step and one-device step as timeline events, and their rows {label: role}."""
    rows, role_of = {}, {}
    for i, desc in enumerate(rec['lanes']):
        label = style.plot_text('graph.recorded.row_lane', lane=lane_name(f'lane {i}', plot=True),
                                device=device_text(desc, rec, plot=True))
        rows[label], role_of[f'lane {i}'] = style.lane_role(i), label
    server = lane_name(rec.get('server', 'cpu (parameter server)'), plot=True)
    rows[server], role_of[rec.get('server', 'cpu (parameter server)')] = 'cpu', server
    one = style.plot_text('graph.recorded.row_one', device=device_text(rec['one_device'], rec, plot=True))
    rows[one], role_of[ONE] = style.lane_role(0), one  # lane 0's device, with all of it
    events = []
    for v in ('split', 'one_device'):
        for e in run['events'][v]:
            copy = e['name'] in ('copy in', 'grad copy')
            events.append({'lane': role_of[e['lane']], 'start': e['start'], 'end': e['end'],
                           'name': style.plot_text(STAGES[e['name']]),
                           'role': 'link' if copy else None})
    return events, rows


def draw_recorded(rec: dict | None, batch=None):
    """The recorded step for readers without a GPU: one repeat's busy intervals above every repeat's time (13.3.3).

    Returns the Figure, or None when there is no recording (recorded_text says so).
    """
    if rec is None:
        return None
    from .repeats import plot_repeats
    run = recording.pick_run(rec, batch)
    fig, (top, bottom) = style.figure(nrows=2, height=7.5)
    events, rows = timeline_events(rec, run)
    draw_timeline(events, ax=top, rows=rows, title=style.plot_text('graph.recorded.title_timeline'),
                  legend_names={'link': style.plot_text('graph.recorded.legend_copy'),
                                'cpu': style.plot_text('graph.recorded.legend_server')})
    legend = top.get_legend()
    if legend is not None:  # below the timeline, so both panels keep the figure's width
        top.legend(handles=legend.legend_handles, loc='upper left', bbox_to_anchor=(0.0, -0.22), frameon=False,
                   ncol=len(legend.legend_handles))
    times = {_variant(v, plot=True): run['times'][v] for v in recording.VARIANTS}
    plot_repeats(times, ax=bottom, unit='auto', title=style.plot_text('graph.recorded.title_repeats'))
    _ring_drawn(bottom, run)
    fig.suptitle(title(rec, run), x=0.01, ha='left')
    fit_bar_names(top, short={style.plot_text(STAGES[name]): style.plot_text(key) for name, key in SHORT})
    return fig


def _ring_drawn(ax, run: dict) -> None:
    """Ring, among every repeat's dots, the repeat each drawn way's bars come from, and name the ring in the legend."""
    from matplotlib.lines import Line2D

    from .repeats import ROW_SPREAD
    scale = style.time_unit(max(max(ts) for ts in run['times'].values()))[1]  # plot_repeats' unit='auto'
    for y, v in enumerate(recording.VARIANTS):
        if v in DRAWN:
            i, n = recording.drawn_repeat(run, v), len(run['times'][v])
            row_y = y - 0.3 + ROW_SPREAD * i / (n - 1) if n > 1 else y - 0.15  # where plot_repeats put the dot
            ax.scatter([run['times'][v][i] * scale], [row_y], s=160, facecolors='none', edgecolors='black',
                       linewidths=1.5, zorder=5)
    legend = ax.get_legend()
    ring = Line2D([], [], ls='', marker='o', markersize=11, markerfacecolor='none', markeredgecolor='black',
                  markeredgewidth=1.5)
    ax.legend(handles=[*legend.legend_handles, ring],
              labels=[*(x.get_text() for x in legend.texts), style.plot_text('graph.recorded.legend_drawn')],
              loc='upper left', bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
