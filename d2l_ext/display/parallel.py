"""13.3.0 and 13.3.1 in pictures (every repeat a dot, the prediction hatched, the guess a diamond), each with at most
one verdict line (display.verdict): lanes, repeats, exercises."""
from __future__ import annotations

from ..frameworks import framework
from ..i18n import catalogue, t
from ..lanes import Lane
from ..parallel.exercises import VARIANTS
from ..results import Measurement
from . import style, verdict
from .repeats import plot_repeats


def variant_name(area: str, key: str) -> str:
    """A row's name in the plot language: '<area>.variant.<key>' where the catalogue has it, else the key."""
    full = f'{area}.variant.{key}'
    return style.plot_text(full) if full in catalogue('en') else key


def lanes_table(lanes_by_framework: dict):
    """This machine's lanes as a table, one row per lane number: framework, what the lane is (13.3.0, 13.3.1)."""
    import pandas as pd
    rows = [{t('parallel.col.lane'): i, t('parallel.col.framework'): framework(fw).display, t('parallel.col.what'):
             lane.label} for fw, lanes in lanes_by_framework.items() for i, lane in enumerate(lanes)]
    return pd.DataFrame(rows).set_index(t('parallel.col.lane'))  # the same HTML and text each run (nbval)


# -- one verdict line --------------------------------------------------------------------------

def serial(result) -> Measurement:
    """One after the other in each repeat: the lanes' times alone added up, repeat by repeat (interleaved runs)."""
    return Measurement(t('parallel.name.serial'), [sum(ts) for ts in zip(*(m.repeated() for m in result.lane_times))])


def unmeasurable(label: str, busy: float | None) -> str | None:
    """The graders' 'cannot measure here' line where others kept over LOAD_SHARE of the cores busy, else None."""
    from ..grading.measurable import LOAD_SHARE
    return None if busy is None or busy <= LOAD_SHARE else t(
        'grading.line.unmeasurable', label=label, why=t('grading.unmeasurable.load', busy=busy, limit=LOAD_SHARE))


def claim_lines(together, serial_m, baseline_label: str | None, baseline, busy: float | None = None) -> str:
    """The book's claim and the fair test, a verdict line each (together vs one after the other, vs `baseline` where
    timed); one `unmeasurable` line instead where others kept the cores busy."""
    if baseline is not None and unmeasurable(t('parallel.claim'), busy):
        return unmeasurable(t('parallel.claim'), busy)
    pairs = [(name, m) for name, m in [(t('parallel.name.serial'), serial_m), (baseline_label, baseline)] if m]
    unit = verdict.unit_for(together.median, *(m.median for _, m in pairs))  # one unit for all the lines
    return '\n'.join(verdict.line(t('parallel.name.together'), together, name, m, unit) for name, m in pairs)


# -- pictures ------------------------------------------------------------------------------------

def _plot_label(lane: dict) -> str:
    return style.plot_lane(Lane.from_dict(lane), lane['framework'])


def plot_parallel(result, ax=None, title=None, guess: float | None = None, predicted: float | None = None,
                  products: bool = False):
    """Every repeat of each lane alone, one after the other (the lanes' sums), all together (`predicted` hatched,
    else result.expected; `guess` a diamond) and the baseline, one device doing both, where timed ('baseline: ');
    `products`: each lane's row and a GPU baseline's name its products ('1440 + 26 products', 13.3.0)."""
    counts = getattr(result, 'iters', None) if products else None
    names = [style.plot_text('parallel.timeline_row', lane=_plot_label(lane), iters=k) if counts else
             _plot_label(lane) for lane, k in zip(result.lanes, counts or result.lanes)]
    names += [variant_name('parallel', 'one_after_other'), variant_name('parallel', 'together')]
    values = [m.repeated() for m in result.lane_times] + [serial(result).repeated(), result.together.repeated()]
    together = names[-1]
    if getattr(result, 'baseline', None) is not None:
        lane = result.baseline_lane
        both = style.plot_text('parallel.variant.both_products', lane=_plot_label(lane), products=' + '.join(
            map(str, counts))) if lane and counts else lane and style.plot_text('parallel.variant.both_jobs',
                                                                                 lane=_plot_label(lane))
        names.append(style.plot_text('parallel.variant.baseline', name=both or style.plot_text(
            'parallel.variant.all_cores', cores=result.baseline_cores)))
        values.append(result.baseline.repeated())
        together = names[-2]
    return plot_repeats(dict(zip(names, values)), ax=ax, title=title or style.plot_text(
        'parallel.plot_title', framework=framework(result.framework).display), halves=True,
        predicted={together: result.expected if predicted is None else predicted}, guess=guess and {together: guess})


def plot_lanes_run(cmp, lanes, whole, together: float, guess: float | None = None):
    """13.3.1's five rows (lanes alone, one after the other, together, `whole` doing both): every repeat, `together`
    hatched, `guess` a diamond."""
    names = list(cmp)
    labels = [*(style.plot_lane(lane) for lane in lanes), variant_name('parallel', 'one_after_other'),
              variant_name('parallel', 'together'), style.plot_text('parallel.variant.baseline', name=style.plot_text(
                  'parallel.variant.both_jobs', lane=style.plot_lane(whole)))]
    return plot_repeats(cmp, predicted={names[3]: together}, guess={names[3]: guess}, halves=True,
                        labels=dict(zip(names, labels)), title=style.plot_text('parallel.repeats_title',
                                                                                repeats=len(cmp[names[3]].times)))


def plot_variants(result, ax=None, title=None, predicted=None):
    """Any result with a `times` dict (exercise 2, the sync run): every repeat of each variant, its middle half."""
    times = {variant_name(result.area, name): m.repeated() for name, m in result.times.items()}
    predicted = {variant_name(result.area, k): v for k, v in (predicted or {}).items()}
    return plot_repeats(times, ax=ax, title=title, predicted=predicted or None, unit='auto', halves=True)


# -- exercises 1 and 2 ---------------------------------------------------------------------------

def plot_independence(runs):
    """Exercise 1 on one axis, so the frameworks compare too: every repeat of one-at-a-time and issued-together."""
    one = len({r.size for r in runs}) == 1  # one size: named in the title, else in each row
    times = {style.plot_text('parallel.independence_row', framework=framework(r.framework).display if one else
                             f'{framework(r.framework).display} {r.size}', way=variant_name(r.area, k)): m.repeated()
             for r in runs for k, m in r.times.items()}
    return plot_repeats(times, unit='auto', halves=True, title=style.plot_text(
        'parallel.independence_title', iters=runs[0].iters, size=runs[0].size if one else 'n'))


def independence_lines(runs) -> str:
    """Exercise 1: each framework's verdict line (PyTorch's, then MXNet's engine where timed), issued together
    against one at a time; then the worked answer: PyTorch's two ways differ only in where they wait (its code), then
    MXNet's measured share."""
    ways = [(r.times['issued_together'], r.times['one_at_a_time']) for r in runs]
    lines = [t('parallel.run_of', framework=framework(r.framework).display, line=verdict.line(
        t('parallel.variant.issued_together'), a, t('parallel.variant.one_at_a_time'), b),
        engine=t('parallel.eager') if r.engine == 'eager' else r.engine) for r, (a, b) in zip(runs, ways)]
    said = [dict(a=verdict.num(a.median, verdict.unit_for(a.median, b.median)), gain=verdict.num(
        1 - a.median / b.median, '%'), b=verdict.num(b.median, verdict.unit_for(a.median, b.median))) for a, b in ways]
    answer = [t('parallel.answer.torch', **said[0])]
    if len(runs) > 1:
        way = 'faster' if verdict.compare(*ways[1]) == 'faster' else 'same'
        answer.append(t(f'parallel.answer.mxnet_{way}', **said[1]))
    return '\n'.join([*lines, verdict.answer(*answer)])


def small_ops_line(r, busy: float | None = None) -> str:
    """Exercise 2: on a CPU one caller with half the cores, else one call (torch.bmm), then a second caller (two
    threads, or two CUDA streams), each against one caller with the whole device; then the worked answer with their
    numbers (half the cores first, then the second caller, then bmm), naming no cause. Others keeping the cores busy:
    bmm's line, the graders' line as answer."""
    second = 'two_streams' if 'two_streams' in r.times else 'two_threads'
    ts, name = r.times, {variant: t(f'parallel.variant.{variant}') for variant in VARIANTS}
    ms = {k: verdict.num(m.median, 'ms') for k, m in ts.items()}
    cpu = 'one_half' in ts
    if cpu and unmeasurable(t('parallel.claim_small'), busy):  # bmm's line still judged; the answer: the graders'
        return '\n'.join([verdict.line(name['batched'], ts['batched'], name['one_lane'], ts['one_lane']),
                          verdict.answer(unmeasurable(t('parallel.claim_small'), busy))])
    lines = [verdict.line(name[a], ts[a], name['one_lane'], ts['one_lane'])
             for a in ('one_half' if cpu else 'batched', second)]
    gain = 'yes' if verdict.compare(ts[second], ts['one_lane']) == 'faster' else 'no'
    half = [t('parallel.small.half', half=ms['one_half'], one=ms['one_lane'], by=verdict.by(
        ts['one_half'], ts['one_lane']))] if cpu else []
    return '\n'.join([*lines, verdict.answer(*half, t(f"parallel.small.{'' if cpu else 'gpu_'}{gain}", two=ms[second]),
                                             t('parallel.small.bmm', bmm=ms['batched'], by=verdict.by(
                                                 ts['batched'], ts['one_lane'])))])


def plot_small_ops(r, ax=None):
    """Exercise 2: every repeat of each way of running many small products on one device."""
    fig = plot_variants(r, ax=ax, title=style.plot_text('parallel.small_ops_title', products=r.products,
                                                        size=r.size, device=style.plot_lane(r.device)))
    ax = fig.axes[0]
    ax.set_xscale('log')  # a log axis: one slow repeat must not squash the rest
    ax.set_xlim(ax.dataLim.x0 / 2, ax.dataLim.x1 * 4)  # room for the median's value on the right
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    ax.xaxis.set_major_locator(LogLocator(subs=(1, 2, 5) if ax.dataLim.x1 < 100 * ax.dataLim.x0 else (1,)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f'{v:g}'))
    ax.xaxis.set_minor_formatter(NullFormatter())
    return fig
