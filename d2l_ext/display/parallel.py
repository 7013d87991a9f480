"""13.3.0 and 13.3.1 in pictures (every repeat a dot, prediction hatched, guess a diamond) and verdict lines."""
from __future__ import annotations

from ..frameworks import framework
from ..i18n import catalogue, t
from ..lanes import Lane
from . import style, verdict
from .repeats import plot_repeats
from .tables import html, text

VARIANTS = ('baseline', 'control', 'one_thread', 'two_threads', 'one_lane', 'two_streams', 'one_core')  # .variant.<v>
ANSWERS = ('no', 'mxnet_unclear', 'yes')  # exercise 1's answer about MXNet: parallel.answer.<answer>


def variant_name(area: str, key: str, fields: dict | None = None) -> str:
    """A row's name in the plot language: '<area>.variant.<key>' (`fields` filled) if catalogued, else the key."""
    return style.plot_text(name, **fields or {}) if (name := f'{area}.variant.{key}') in catalogue('en') else key


def lanes_table(lanes_by_framework: dict):
    """This machine's lanes, a row per lane: its number, the hardware; no index column, the same each run (nbval)."""
    import pandas as pd
    df = pd.DataFrame([{t('parallel.col.lane'): i, t('parallel.col.what'): lane.label}
                       for lanes in lanes_by_framework.values() for i, lane in enumerate(lanes)])
    return type('T', (), dict(frame=df, _repr_html_=lambda _: html(df, classes=None), __repr__=lambda _: text(df)))()


def unmeasurable(label: str, busy: float | None) -> str | None:
    """The graders' 'cannot measure here' line where others kept over LOAD_SHARE of the cores busy, else None."""
    from ..grading.measurable import LOAD_SHARE
    return None if busy is None or busy <= LOAD_SHARE else t(
        'grading.line.unmeasurable', label=label, why=t('grading.unmeasurable.load', busy=busy, limit=LOAD_SHARE))


def _busy(result) -> float:  # others' share of the cores, sampled once right after `result` was measured, kept on it
    from ..grading.measurable import others_busy
    result.busy = others_busy() if getattr(result, 'busy', None) is None else result.busy
    return result.busy


def _plot_label(lane: dict) -> str:
    return style.plot_lane(Lane.from_dict(lane), lane['framework'])


def plot_parallel(result, ax=None, title=None, guess=None, predicted=None, products=False):
    """Every repeat of each lane alone, together and the baseline where timed; `predicted`
    hatched (else result.expected), `guess` a diamond (together's or {'together': .., 'baseline': ..})."""
    counts = getattr(result, 'iters', None) if products else None
    names = [style.plot_text('parallel.alone_row', lane=_plot_label(lane), iters=k) if counts else
             _plot_label(lane) for lane, k in zip(result.lanes, counts or result.lanes)]
    names += [variant_name('parallel', 'together')]
    values = [m.repeated() for m in (*result.lane_times, result.together)]
    rows = {'together': names[-1]}
    if getattr(result, 'baseline', None) is not None:
        lane = result.baseline_lane
        both = style.plot_text('parallel.variant.both_products', lane=_plot_label(lane), products=' + '.join(
            map(str, counts))) if lane and counts else lane and style.plot_text('parallel.variant.both_jobs',
                                                                                 lane=_plot_label(lane))
        names.append(style.plot_text('parallel.variant.baseline', name=both or style.plot_text(
            'parallel.variant.all_cores', cores=result.baseline_cores)))
        values, rows['baseline'] = [*values, result.baseline.repeated()], names[-1]
    predicted, guess = ({rows[k]: v for k, v in (x if isinstance(x, dict) else {'together': x}).items()} for x in (
        {'together': result.expected} if predicted is None else predicted, guess))
    return plot_repeats(dict(zip(names, values)), ax=ax, title=title or style.plot_text(
        'parallel.plot_title', framework=framework(result.framework).display), halves=True, predicted=predicted,
        guess=guess)


def plot_book_slides():
    """d2l's slides (parallel.BOOK_SLIDES, one timing each): GPU1, GPU2, their sum, together; bars, values at ends."""
    from ..parallel import BOOK_SLIDES as s
    values = {'GPU1': s['GPU1'], 'GPU2': s['GPU2'], style.plot_text('parallel.book_sum'): s['GPU1'] + s['GPU2'],
              style.plot_text('parallel.book_both'): s['GPU1 & GPU2']}
    _, ax = style.figure(height=1.4 + 0.55 * len(values))
    ax.bar_label(ax.barh(list(values), list(values.values()), height=0.5, color=style.color('measured'), alpha=0.6),
                 [verdict.num(v, 's', 4) for v in values.values()], padding=4)
    ax.set(ylim=(len(values) - 0.5, -0.5), xlim=(0, 1.2 * max(values.values())), xlabel=style.plot_text(
        'style.time_axis', unit=style.unit_text('s')))
    return ax.set_title(style.plot_text('parallel.book_title'), loc='left').figure


def alone_line(rows) -> str:
    """What 13.3.1's learner predicts together from, printed before the guess: each lane's median alone (lane_rows)."""
    return t('parallel.alone_line', repeats=len(rows.cmp[rows.names[0]].times), lanes=t('parallel.sep').join(
        t('parallel.lane_alone', lane=lane.label, iters=k, time=verdict.num(m))
        for lane, k, m in zip(rows.lanes, rows.iters, rows.alone)))


def plot_lanes_run(rows, guess: float | None = None, baseline: float | None = None):
    """13.3.1's rows (lane_rows): the guess line, together vs the baseline by the rule; every repeat; guesses."""
    names, cmp, predicted = rows.names, rows.cmp, max(rows.alone)
    print(verdict.lines(verdict.guess(guess, predicted, cmp[names[2]].median), unmeasurable(
        t('parallel.claim'), _busy(rows)) or verdict.line(t('parallel.name.together'), cmp[names[2]], names[3],
                                                           cmp[names[3]])))
    both = {v: x for v, x in zip(('baseline', 'control'), (rows.whole, rows.control)) if x}
    jobs = [style.plot_text('parallel.variant.both_jobs', lane=style.plot_lane(x)) for x in both.values()]
    labels = [*(style.plot_lane(lane) for lane in rows.lanes), variant_name('parallel', 'together'),
              *(style.plot_text(f'parallel.variant.{variant}', name=job) for variant, job in zip(both, jobs))]
    return legend_below(plot_repeats(cmp, predicted={names[2]: predicted}, halves=True, labels=dict(zip(names, labels)),
                               guess={names[2]: guess, names[3]: baseline}, predicted_label=variant_name('parallel', (
        'expected.floor' if rows.control else 'expected.separate')), title=style.plot_text(
        'parallel.repeats_title', repeats=len(cmp[names[2]].times))))


def legend_below(fig, more: dict | None = None, y: float = -0.22):  # beside the axis it squeezes the plot (and a far
    lg = fig.axes[0].get_legend()  # repeat's arrowhead at the axis's end is not the legend's); `more`: {label: handle}
    kept = {**dict(zip((x.get_text() for x in lg.texts), lg.legend_handles)), **(more or {})}
    return lg.axes.legend(kept.values(), kept, ncol=2, loc='upper center', bbox_to_anchor=(0.5, y)).figure


def _bound(c, b, unit, saved: str = '') -> str:  # r = the baseline b's speed over one core's (c): one-core lanes
    r = c.median / b.median  # save at most 1 - r/2; `saved`: the share two lanes saved, measured, beside it
    return t('parallel.answer.line', line=t('parallel.answer.control', c=verdict.num(c.median, unit), b=verdict.num(
        b.median, unit), r=f'{r:.2f}', most=f'{100 - 50 * r:.0f}%'.replace('-', '−')) + (saved and t(
            'parallel.answer.measured', pct=saved)))


def lanes_answer(rows, guess: float | None = None) -> str:
    """13.3.1's answer: together vs max(t1, t2) and the guess; vs the baseline; on CPU the control's bound, 1 - r/2."""
    if gone := unmeasurable(t('parallel.claim'), _busy(rows)):
        return verdict.answer(gone)
    m = [rows.cmp[name] for name in rows.names]
    unit, slow = verdict.unit_for(*(x.median for x in m)), max(rows.alone)
    said = [t('parallel.answer.line', line=verdict.vs_model(t('parallel.name.together'), m[2].median, t(
        'parallel.name.floor' if rows.control else 'parallel.name.model'), slow, unit)), guess is not None and t(
            'parallel.answer.line', line=verdict.guess(float(guess), slow, m[2].median)), t(
            'parallel.answer.vs_baseline', by=verdict.by(m[2], m[3]))]
    return verdict.answer(*filter(None, said), rows.control and _bound(m[4], m[3], unit) or '')


def plot_variants(result, ax=None, title=None, halves: bool = True):
    """Any result with a `times` dict (exercise 2, the sync run): every repeat of each variant, its middle half."""
    return plot_repeats({variant_name(result.area, name, vars(result)): m.repeated() for name, m in
                         result.times.items()}, ax=ax, title=title, unit='auto', halves=halves)


def _ways(r):
    return r.times['issued_together'], r.times['one_at_a_time']


def _engine(r, text=t) -> str:  # on a CPU 'PyTorch (threads per product: 1)'; 'MXNet (engine threads: 2)'
    name, n, w = framework(r.framework).display, r.threads * (r.engine == 'eager'), getattr(r, 'workers', 0)
    e = text('parallel.threads', n=n) if n else text('parallel.workers', n=w) if w else r.engine
    return name if e in ('eager', 'ThreadedEnginePerDevice') else text('parallel.run_of', engine=e, framework=name)


def independence_answer(runs) -> str:
    """Exercise 1's answer: MXNet's control; MXNet vs its one at a time (the guess's unit), PyTorch's one vs MXNet's."""
    unit = 's' if max(max(m.repeated()) for x in runs for m in _ways(x)) >= 1 else 'ms'  # the figure's unit
    pairs = [*map(_ways, runs)]  # each run's two ways; with MXNet, last: PyTorch one at a time, MXNet together
    pairs += [(pairs[0][1], pairs[1][0])] if len(runs) > 2 else []
    said = [dict(a=verdict.num(x.median, unit), b=verdict.num(y.median, unit), x=verdict.num(y.median / x.median, 'x'),
                 by=verdict.by(x, y) if verdict.compare(x, y) == 'same' else verdict.word(x, y))  # the ratio: the unit
            for x, y in pairs]
    q, faster = min(1, len(runs) - 1), [verdict.compare(*_ways(x)) == 'faster' for x in runs]  # q: MXNet, else PyTorch
    answer = 'no' if not faster[q] else 'mxnet_unclear' if len(runs) > 2 and faster[2] else 'yes'
    last = t(f'parallel.answer.{answer}', name=framework(runs[q].framework).display, **said[q])
    across = len(runs) > 2 and t('parallel.answer.across', torch=_engine(runs[0]), **said[3])  # PyTorch vs MXNet
    own = len(runs) > 2 and t(f"parallel.answer.{'yes' if faster[0] else 'no'}",  # PyTorch's own answer too (r30)
                              name=framework(runs[0].framework).display, **said[0])
    gone = unmeasurable(t('parallel.claim_engine'), _busy(runs[0]))  # the control's line, then MXNet's and PyTorch's
    return verdict.answer(gone) if gone else verdict.lines(len(runs) > 2 and t('parallel.answer.naive', **said[2]),
                                                           verdict.answer(own or '', last, across or ''))


def plot_independence(runs, guess: float | None = None):
    """Exercise 1 on one axis; hatched: one at a time over the products run at once; `guess` a diamond."""
    times, predicted, guessed, r = {}, {}, {}, runs[min(1, len(runs) - 1)]
    _busy(runs[0])  # sampled right after the runs, for the worked answer
    if line := verdict.guess(guess, r.at_once, _ways(r)[1].median / _ways(r)[0].median, 'x'):
        print(line)
    for run in runs:
        name = framework(run.framework).display + ' NaiveEngine' * (run.engine == 'NaiveEngine')  # one line a row
        one, both = (style.plot_text('parallel.independence_row', framework=name, way=variant_name(run.area, k))
                     for k in ('one_at_a_time', 'issued_together'))
        times.update({one: _ways(run)[1].repeated(), both: _ways(run)[0].repeated()})
        guessed[both] = _ways(run)[1].median / guess if guess and run is r else None  # the model: MXNet's engine only
        predicted.update({both: _ways(run)[1].median / run.at_once} if run.framework == 'mxnet' else {})
    title = style.plot_text('parallel.independence_title', iters=runs[0].iters, size=runs[0].size) + '\n' + \
        style.plot_text('parallel.sep').join(_engine(run, style.plot_text) for run in runs[:2])  # NaiveEngine: its rows
    return legend_below(plot_repeats(times, unit='auto', halves=True, predicted=predicted, guess=guessed, title=title,
                                     predicted_label=style.plot_text('parallel.model.at_once')), y=-0.14)


def _pair(r) -> tuple[str, str, int]:  # exercise 2's judged row, its control (first row), the model's speed-up (1x)
    return ('two_threads', 'one_thread', 1) if r.kind == 'cpu' else ('two_streams', 'one_lane', 1)


def _share_by(a, b) -> str:  # verdict.by, a share even from 3x faster on: exercise 2's one unit form (its bound's)
    return t('verdict.faster_by', pct=f'{1 - a.median / b.median:.0%}') if verdict.compare(a, b) == 'faster' and (
        3 * a.median <= b.median) else verdict.by(a, b)


def small_ops_answer(r) -> str:
    """Exercise 2's answer: two lanes (GPU: streams) vs the baseline; on a CPU vs one core by the rule, then r by
    medians and the main section's bound 1 - r/2 beside the share two lanes saved; bmm."""
    (a, b, _), ts = _pair(r), r.times
    named = {variant: t(f'parallel.variant.{variant}', **vars(r)) for variant in (a, b)}
    ms = {k: verdict.num(m.median, 'ms') for k, m in ts.items()}
    gone = r.kind == 'cpu' and unmeasurable(t('parallel.claim_small'), _busy(r))  # a GPU's rows do not wait for cores
    said = [t('parallel.small.line', a=named[a], ma=ms[a], b=named[b], mb=ms[b], by=_share_by(ts[a], ts[b])),
            t('parallel.small.bmm', bmm=ms['batched'], by=_share_by(ts['batched'], ts[b]))]
    if 'one_core' in ts:  # the control: two cores vs one by the rule, then r by medians and the bound, 1 - r/2
        v = 100 * (1 - ts[a].median / ts[b].median)
        saved = t('verdict.unit.%', value=verdict.sig(v, 2) if abs(v) < 10 else f'{v:.0f}').replace('-', '−')
        said[1:1] = [t('parallel.small.control', b=ms[b], c=ms['one_core'], by=_share_by(ts[b], ts['one_core'])),
                     r.threads == 1 and _bound(ts['one_core'], ts[b], 'ms', saved)]
    return verdict.answer(*([gone] if gone else filter(None, said)))


def small_ops_baseline(r) -> str:  # exercise 2's number to predict from, before the guess: in ms, the figure's unit
    return t('parallel.guess.baseline', line=verdict.num(r.times[_pair(r)[1]].median, 'ms'))


def plot_small_ops(r, guess_ms: float | None = None, ax=None):
    """Exercise 2 in ms: every repeat, the control first; hatched: the judged row `ways` times as fast; `guess_ms`."""
    (a, b, ways), ts, row = _pair(r), r.times, variant_name('parallel', _pair(r)[0], vars(r))
    _busy(r)  # others' load sampled right after the run, for the worked answer
    guess = None if guess_ms is None else float(guess_ms) / 1e3
    if line := verdict.guess(guess, ts[b].median / ways, ts[a].median, 'ms'):
        print(line)
    named = {variant_name('parallel', f'{k}_cpu' if r.kind == 'cpu' and k == 'batched' else k, vars(r)): m.repeated()
             for k, m in ts.items()}  # on a CPU the bmm row says its thread and core, as the others
    return legend_below(plot_repeats(named, ax=ax, unit='ms', halves=True, predicted={row: ts[b].median / ways}, guess={
        row: guess}, predicted_label=style.plot_text('parallel.model.split'), title=style.plot_text(
        'parallel.small_ops_title', products=r.products, size=r.size, device=style.plot_lane(r.device))))
