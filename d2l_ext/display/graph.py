"""13.3.3's text and pictures: the recorded graph, its schedule, the timed step and exercise 5.

Tables come from each result's `to_frame()`; this module writes the sentences around them (from
the measured numbers) and draws the graph: one row per lane, columns by dependency depth, the
lane colours of display.style, so a lane has one colour in the graph, the plan and the timeline.
"""
from __future__ import annotations

from ..i18n import language, t
from ..lanes import label_of
from ..results import NOISE, close
from .graph_draw import (
    _legend_names,
    draw_dag,
    draw_graph,
    draw_schedule,
    draw_step_timing,
    fit_bar_names,
    verdict,
    verdicts,
)
from .graph_names import (
    SERVER,
    STAGES,
    box_name,
    fmt_bytes,
    lane_name,
    lanes_text,
    stage_label,
    variant_label,
)

# The figures and the names live in display.graph_draw and display.graph_names; the lesson reads them from here.
__all__ = ['SERVER', 'STAGES', '_legend_names', 'at_once_text', 'box_name', 'dag_model_text', 'dag_text',
           'draw_dag', 'draw_graph', 'draw_schedule', 'draw_step_timing', 'fit_bar_names', 'guess_text',
           'lane0_twice_text', 'lane_name', 'machine_text', 'overlap_text', 'predicted_apart_text', 'rates_text',
           'schedule_text', 'schedule_vs_step_text', 'stage_label', 'step_timing_text', 'summary_text',
           'thread_test_follows', 'thread_test_text', 'verdict', 'verdicts', 'versus_text']
KS = ('copy', 'data')  # edge kinds of graph_summary: the keys graph.edge.<k>


def summary_text(g, title='graph') -> str:
    """graph_summary as a few readable lines (deterministic) (13.3.3)."""
    from ..depgraph.tracer import graph_summary
    s = graph_summary(g)
    kinds = t('graph.sep_clause').join(t('graph.edge_count', count=v, kind=t('graph.edge.' + k))
                                       for k, v in s['edges'].items())
    return t('graph.summary', title=title, nodes=s['nodes'], edges=sum(s['edges'].values()), kinds=kinds,
             lanes=t('graph.sep_list').join(lane_name(x) for x in s['lanes']),
             devices=t('graph.sep_list').join(label_of(d, language()) for d in s['devices']),
             copies=s['copies'], bytes=f"{s['bytes_copied']:,}", size=fmt_bytes(s['bytes_copied']),
             flops=f"{s['flops']:,}")


def _ms(seconds: float, d: int = 2) -> float:
    """`seconds` in ms as printed with `d` places: a difference or ratio beside it is taken from this."""
    return round(seconds * 1e3, d) + 0.0


def _over(a: float, b: float) -> float:
    """a / b (nan when b is 0)."""
    return a / b if b else float('nan')


def _floor(r) -> tuple[float, float, str]:
    """What no schedule can beat, as its two parts: the critical path (seconds), and the busiest row (a lane, the
    server or a link) running its boxes in turn (seconds, and that row's id). The floor is the larger of the two."""
    busy = {}
    for e in r.events:
        busy[e['lane']] = busy.get(e['lane'], 0.0) + e['end'] - e['start']
    row = max(busy, key=busy.get, default='')
    return r.critical_path_s, busy.get(row, 0.0), row


def schedule_text(r, path=True) -> str:
    """A schedule's three numbers, its speedup and bound, and (path=True) the critical path's boxes (13.3.3).

    The bound's floor is printed as both its parts, the critical path and the busiest lane's boxes in turn, the
    larger named as the floor (so the number is not read as the smaller part's).
    """
    key = 'graph.schedule_numbers_measured' if r.costs == 'measured' else 'graph.schedule_numbers'
    crit, lane, row = _floor(r)
    floor = max(crit, lane)
    serial, total, least = (_ms(x, 3) for x in (r.serial_total, r.total, floor))  # as printed: 3 places
    line = t(key, serial=r.serial_total * 1e3, total=r.total * 1e3, path=r.critical_path_s * 1e3,
             repeats=r.repeats) + '\n' + t('graph.schedule_speedup', speedup=_over(serial, total),
                                           bound=_over(serial, least), floor=floor * 1e3, crit=crit * 1e3,
                                           lane=lane * 1e3, row=lane_name(row))
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
    key = (('graph.vs.threads_slow' if quiet else 'graph.vs.threads_slow_busy') if slow
           else 'graph.vs.threads_faster' if test['one'] < test['all'] else 'graph.vs.threads_fine')
    return t(key, one=test['one'] * 1e3, all=test['all'] * 1e3, threads=test['threads'])


def thread_test_follows(plan, timing) -> bool:
    """Whether schedule_vs_step_text prints the thread test: the schedule longer than the measured step by more
    than NOISE, and the boxes outside the lanes timed again on one thread (13.3.3). The timing cell's sentences read
    it, so a sentence before the schedule says whether a test of a cause follows."""
    from ..depgraph.runs import TOGETHER
    m = timing.measurements.get(TOGETHER)
    return bool(plan is not None and m is not None and m.median > 0 and plan.total > m.median
                and not close(plan.total, m.median) and getattr(plan, 'thread_test', None))


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
    apart = m.median > 0 and not close(plan.total, m.median)
    far = m.median > 0 and not 1 / NOT_ADDITIVE <= plan.total / m.median <= NOT_ADDITIVE
    gap = dict(ms=plan.total * 1e3, ratio=plan.total / m.median if m.median > 0 else float('nan'),
               step=m.median * 1e3, diff=abs(m.median - plan.total) * 1e3)
    if apart and plan.total > m.median:  # too long: the thread test bears on it (slow boxes outside the lanes)
        if thread_test_follows(plan, timing):
            lines.append(thread_test_text(plan, quiet=quiet or not known))  # no shares measured: the test stands alone
        lines.append(t('graph.vs.not_additive' if far else 'graph.vs.apart', **gap))
    elif apart:  # too short: the thread test could only lengthen it, so it is left out; the gap, no cause
        lines.append(t('graph.vs.shorter_far' if far else 'graph.vs.shorter', **gap))
    at_once = at_once_text(rates, timing)
    if at_once:
        lines.append(at_once)
    if not known:
        return '\n'.join(lines)
    lines.append(t('graph.vs.others', **{k: t('graph.vs.unknown') if x is None else f'{x:.0%}'
                                          for k, x in zip(('boxes', 'rates', 'step'), shares)}))
    if len(known) == len(shares) and max(known) - min(known) >= UNEVEN:
        lines.append(t('graph.vs.uneven', gap=max(known) - min(known)))
    elif quiet:  # 'at most 0%' reads oddly: all shares that print as 0% are said as such
        lines.append(t('graph.vs.quiet' if f'{max(known):.0%}' != f'{0:.0%}' else 'graph.vs.quiet_none',
                       top=max(known)))
    return '\n'.join(lines)


def at_once_text(rates, timing) -> str:
    """Both lanes' boxes at once as the rates timed them beside the span of the halves in the recorded step (13.3.3).

    The same boxes timed twice: printed only when the two are more than NOISE apart, with the numbers and no cause.
    """
    together, o = getattr(rates, 'together', None), timing.overlap
    if not together or o is None or not o.intervals:
        return ''
    span = max(b for _, b in o.intervals) - min(a for a, _ in o.intervals)
    if span <= 0 or close(together, span):
        return ''
    return t('graph.vs.at_once_twice', rates=together * 1e3, span=span * 1e3, ratio=together / span)


def machine_text(lanes) -> str:
    """Versions, cores, GPUs and this notebook's two lanes, in a few lines: the first cell of 13.3.3."""
    from .machine import machine_line
    head = machine_line()
    return '\n'.join([head] + [t('graph.lane_line', lane=lane_name(f'lane {i}'), name=lane.name,
                                      explanation=lane.explanation) for i, lane in enumerate(lanes)])


def rates_text(r) -> str:
    """The lanes' measured rates the prediction uses: each lane alone, both at once, lane 0's whole device (13.3.3).

    Lanes that do not slow each other take as long as the longer lane alone, not less: where the pair took less,
    the sentence says so with the test as computed (the milliseconds below the longer lane, beside NOISE of it)
    and that this run does not test why.
    """
    whole = t('graph.rates.whole_gpu' if r.kind == 'gpu' else 'graph.rates.whole_cpu', all=r.all_cores * 1e3,
              cores=r.cores)
    # every ratio and gap from the milliseconds as printed (2 places), so a reader's arithmetic gives the same
    t0, t1, both = (round(x * 1e3, 2) for x in (*r.alone, r.together))
    longer = max(t0, t1)
    fields = dict(t0=t0, t1=t1, both=both, rate=(t0 + t1) / both if both else r.rate,
                  ideal=(t0 + t1) / longer if longer else r.ideal_rate,
                  slowdown=both / longer if longer else r.slowdown, whole=whole)
    if both < longer:  # shorter than the longer lane alone: the test (within NOISE of it or not) said with its ms
        key = 'graph.rates_at_bound' if close(both, longer) else 'graph.rates_above'
        line = t(key, noise=NOISE, longer=longer, gap=longer - both, limit=NOISE * longer, **fields)
    else:
        line = t('graph.rates', **fields)
    twice = lane0_twice_text(r)
    return line + ('\n' + twice if twice else '')


def lane0_twice_text(r) -> str:
    """Lane 0's boxes timed twice, alone on its lane and on its whole device (the one-device prediction's base).

    Numbers only, when the two are more than NOISE apart: on a GPU (the same device both times) either way, on
    a CPU when all the cores took longer than lane 0's share of them. This run does not test why.
    """
    alone, whole = r.alone[0], r.all_cores
    if alone <= 0 or whole <= 0 or close(alone, whole) or (r.kind != 'gpu' and whole < alone):
        return ''
    key = 'graph.rates.twice_gpu' if r.kind == 'gpu' else 'graph.rates.all_cores_slower'
    return t(key, alone=alone * 1e3, all=whole * 1e3, ratio=whole / alone, cores=r.cores)


def guess_text(guess, s, variant=None) -> str:
    """The learner's guess beside the closed form and the measured median, or a request for the guess (13.3.3)."""
    from ..depgraph.runs import TOGETHER
    variant = variant or TOGETHER
    fields = {'variant': variant_label(variant), 'predicted': s.predicted.get(variant, float('nan')) * 1e3,
              'measured': s.measurements[variant].median * 1e3}
    if guess is None:
        return t('graph.guess_missing') + '\n' + t('graph.guess_none', **fields)
    return t('graph.guess_line', guess=float(guess), **fields)


LOW_OVERLAP = NOISE  # halves that overlapped at most this share of the shorter one's busy time: next to no overlap


def overlap_text(s) -> str:
    """The two halves' overlap as an interval fraction, its prediction, and the wall-clock difference (13.3.3).

    When the halves hardly overlapped (LOW_OVERLAP) but two lanes together beat another way (told apart, as the
    verdicts say), a second line gives the halves' intervals and says that this run's overlap does not explain it.
    """
    from ..depgraph.runs import APART, ONE_DEVICE, TOGETHER
    o, m = s.overlap, s.medians()
    if o is None or o.fraction is None or APART not in m or TOGETHER not in m:
        return ''
    saved_pred = s.predicted[APART] - s.predicted[TOGETHER] if APART in s.predicted and TOGETHER in s.predicted \
        else float('nan')
    busy = [b - a for a, b in o.intervals]
    # both differences from the numbers step_timing_text prints (2 places in ms), so they subtract as printed
    saved = round(_ms(m[APART]) - _ms(m[TOGETHER]), 2) + 0.0
    if saved_pred == saved_pred:  # not nan
        saved_pred = (round(_ms(s.predicted[APART]) - _ms(s.predicted[TOGETHER]), 2) + 0.0) / 1e3
    line = t('graph.overlap_line', fraction=o.fraction, predicted=o.predicted, t0=busy[0] * 1e3, t1=busy[1] * 1e3,
             runs=getattr(o, 'runs', 3), saved=saved, saved_pred=saved_pred * 1e3)
    v = verdicts(s)  # the ways together beat by the verdicts the sentences print: where a line says it saved
    below = [k for k in (APART, ONE_DEVICE) if k in m and v[TOGETHER, k].outcome == 'faster']
    if o.fraction > LOW_OVERLAP or not below:
        return line
    # Together beat another way while the recorded halves hardly overlapped: say so, with the intervals.
    (a0, b0), (a1, b1) = sorted(o.intervals)
    others = t('graph.sep_and').join(t('graph.overlap_below_item', variant=variant_label(k), ms=m[k] * 1e3)
                                     for k in below)
    return line + '\n' + t('graph.overlap_unexplained', a0=a0 * 1e3, b0=b0 * 1e3, a1=a1 * 1e3, b1=b1 * 1e3,
                           fraction=o.fraction, mine=m[TOGETHER] * 1e3, others=others)


HEADS = ('graph.step', 'graph.split', 'graph.dag', 'graph.dag_all_cores')  # versus_text's key families
OUTCOMES = ('faster', 'slower', 'tied')  # graph_draw.Verdict.outcome: the last part of each key


def versus_text(head: str, mine, other, verdict_made=None, **fields) -> str:
    """13.3.3: `mine` against `other` (Measurements): faster or slower only when told apart (results.told_apart).

    `head`: a key family ('graph.step'); its keys <head>_faster, <head>_slower and <head>_tied hold only the head and
    the conclusion, and display.apart's clause (both parts of the test, in order, with the numbers) fills {clause}.
    verdict_made: the comparison already made (graph_draw.verdicts), so a figure's title reads the same one.
    """
    v = verdict_made or verdict(mine, other)
    return t(f'{head}_{v.outcome}', clause=v.clause(), **v.fields, **fields)


def step_timing_text(s, plan=None) -> str:
    """Sentences stating what time_step measured, beside its predictions and their assumption (13.3.3).

    plan: the schedule printed after (schedule_step), so a prediction off its measurement says whether the one test
    of a cause in this run, the thread test, follows (thread_test_follows).
    """
    lines = [t('graph.step_title', batch=s.batch, lanes=lanes_text(len(s.lanes)),
               repeats=len(next(iter(s.measurements.values())).times))]
    for k, m in s.measurements.items():
        pred = t('graph.step_row_predicted', ms=s.predicted[k] * 1e3) if k in s.predicted else ''
        lines.append('  ' + t('graph.step_row', variant=variant_label(k), ms=m.median * 1e3, repeats=len(m.times),
                              predicted=pred))
    from ..depgraph.runs import APART, ONE_DEVICE, TOGETHER
    v = verdicts(s)  # made once: draw_step_timing's title reads the same verdicts
    if s.speedup is not None:  # the sentence follows the noise test, not the ratio alone
        lines.append(versus_text('graph.step', s.measurements[TOGETHER], s.measurements[APART], v[TOGETHER, APART]))
    if s.vs_one_device is not None:
        lines.append(versus_text('graph.split', s.measurements[TOGETHER], s.measurements[ONE_DEVICE],
                                 v[TOGETHER, ONE_DEVICE]))
    ratios = [t('graph.ratio_item', variant=variant_label(k), ratio=m.median / s.predicted[k])
              for k, m in s.measurements.items() if s.predicted.get(k)]
    if ratios:
        lines.append(t('graph.measured_over_predicted', ratios=t('graph.sep_semicolon').join(ratios)))
    off = predicted_apart_text(s, plan)
    if off:
        lines.append(off)
    overlap = overlap_text(s)
    return '\n'.join(lines + ([overlap] if overlap else []))


def predicted_apart_text(s, plan=None) -> str:
    """The ways whose median is further from its prediction than NOISE and than its repeats' IQR, numbers only.

    It ends by saying whether a cause is tested: the thread test below the schedule where it follows (plan given and
    thread_test_follows) and a prediction is above its measurement (the one gap that test bears on), else that this
    run does not test why.
    """
    off = {k: m for k, m in s.measurements.items()
           if s.predicted.get(k) and not close(m.median, s.predicted[k]) and abs(m.median - s.predicted[k]) > m.iqr}
    if not off:
        return ''
    items = [t('graph.predicted_apart_item', variant=variant_label(k), ms=m.median * 1e3,
               predicted=s.predicted[k] * 1e3, iqr=m.iqr * 1e3, ratio=m.median / s.predicted[k])
             for k, m in off.items()]
    # the thread test can only show boxes counted too slow: a cause of a prediction above its measurement alone
    above = any(m.median < s.predicted[k] for k, m in off.items())
    key = 'graph.predicted_apart_tested' if above and thread_test_follows(plan, s) else 'graph.predicted_apart'
    return t(key, noise=NOISE, items=t('graph.sep_semicolon').join(items))


def dag_text(r) -> str:
    """Exercise 5's model in products, the plan's split, its prediction beside the measured times (13.3.3)."""
    from ..depgraph.dag import DAG_VARIANTS as V
    lines = [t('graph.dag_tasks', tasks=len(r.dag), n=r.n, lanes=lanes_text(len(r.lanes))), dag_model_text(r.model)]
    counts = t('graph.sep_clause').join(t('graph.dag_count', count=len(r.order[label]), lane=lane_name(f'lane {i}'))
                                        for i, label in enumerate(r.lanes))
    lines.append(t('graph.dag_split_speeds' if r.speeds else 'graph.dag_split', counts=counts))
    lines += [t('graph.dag_forced', lane=lane_name(f'lane {r.lanes.index(label)}')) for label in r.forced]
    one, planned, whole = (r.measurements.get(v) for v in V)
    if r.predicted:  # lanes of different speeds: the plan's length in seconds, before the run
        lines += dag_predicted_lines(r.predicted[V[0]], r.predicted[V[1]])
    elif one is not None and planned is not None:  # equal lanes: the plan's products at one lane's time per product
        lines.append(t('graph.dag_per_product', one=one.median * 1e3, serial=r.model['serial'],
                       per=one.median / r.model['serial'] * 1e3, planned=r.model['planned'],
                       ms=r.predicted_ms()[V[1]] * 1e3, measured=planned.median * 1e3))
    if r.predicted and one is not None and planned is not None:
        lines.append(dag_beside_text(r.predicted[V[0]], r.predicted[V[1]], one, planned))
    b = r.breakdown()
    if b is not None:
        lines.append(dag_breakdown_text([b[0][label] for label in r.lanes], b[1], gpu=0 in r.threads))
    if one is not None and planned is not None:
        # the verdict draw_dag's title states
        lines.append(versus_text('graph.dag', planned, one, verdicts(r)[V[1], V[0]]))
    if one is not None and whole is not None:  # the sentence follows the verdict: on a busy machine all cores can lose
        lane0 = (t('core.lane_cpu_share_label', number=0, threads=r.threads[0], cores=r.cores)
                 if r.threads and r.cores else label_of(r.lanes[0], language()))
        # both times, judged by the one test (told apart or not), the workload named
        lines.append(versus_text('graph.dag_all_cores', whole, one, verdicts(r)[V[2], V[0]], tasks=len(r.dag),
                                 lane=lane0))
    return '\n'.join(lines)


def dag_predicted_lines(one: float, planned: float) -> list[str]:
    """Exercise 5 on lanes of different speeds: the prediction from one product timed on each lane (seconds in)."""
    ratio = _over(_ms(one), _ms(planned))  # from the two as printed (2 places in ms)
    key = 'graph.dag_predicted' if ratio >= 1 else 'graph.dag_predicted_slower'  # below 1: worded as longer
    lines = [t(key, one=one * 1e3, planned=planned * 1e3, ratio=ratio, inv=_over(_ms(planned), _ms(one)))]
    return lines + ([t('graph.dag_predicted_loss')] if ratio < 1 else [])


def dag_beside_text(one: float, planned: float, one_m, planned_m) -> str:
    """Exercise 5's two predictions (seconds) beside the two measured medians (Measurements), in milliseconds."""
    rows = [t('graph.dag_vs_row', variant=t(key), predicted=p * 1e3, measured=m.median * 1e3)
            for key, p, m in (('graph.dag_variant.0', one, one_m), ('graph.dag_variant.1', planned, planned_m))]
    return t('graph.dag_vs', rows=t('graph.sep_semicolon').join(rows))


def dag_breakdown_text(lanes: list[dict], span: float, gpu: bool) -> str:
    """The plan traced once: per lane, seconds running its tasks, fetching inputs, waiting for them (13.3.3)."""
    items = [t('graph.dag_breakdown_lane', lane=lane_name(f'lane {i}'), tasks=b['tasks'], products=b['products'] * 1e3,
               copies=b['copies'] * 1e3, waiting=b['waiting'] * 1e3) for i, b in enumerate(lanes)]
    key = 'graph.dag_breakdown_gpu' if gpu else 'graph.dag_breakdown'
    return t(key, span=span * 1e3, lanes=t('graph.sep_semicolon').join(items))


def dag_model_text(model: dict) -> str:
    """Exercise 5's prediction in products, before running: serial, the plan on two lanes, the critical path."""
    return t('graph.dag_model', serial=model['serial'], planned=model['planned'], path=model['critical_path'],
             floor=model['floor'], lanes=model['lanes'], bound=model['serial'] / model['floor'])
