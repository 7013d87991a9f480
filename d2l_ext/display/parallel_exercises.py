"""13.3.1's exercises 1 and 2 in sentences and pictures: products issued together on one lane, and small products.

Each `*_text`/`*_lines` function returns sentences chosen by the measured numbers and the repeats' spread
(results.chance_gap, the package's one chance test); each plot returns the Figure.
"""
from __future__ import annotations

from ..frameworks import framework
from ..i18n import t
from ..lanes import Lane
from ..parallel.exercises import VARIANTS
from ..results import Measurement, chance_gap
from . import style
from .gaps import ONCE, _sentences, small_ops_text
from .parallel import _shown, above_two, plot_variants, variant_name


def _is_control(r) -> bool:
    """Exercise 1: a run on its framework's in-order engine (the registry's control_engine), the control."""
    return r.engine is not None and r.engine == framework(r.framework).control_engine


def _engine(r, text=t) -> str:
    """The engine's name; `text=style.plot_text` inside figures, so it follows the figure's language."""
    return text('parallel.eager') if r.engine == 'eager' else r.engine


def independence_text(r, control=None) -> str:
    """Exercise 1: the numbers, then whether the framework overlapped one run's products by itself.

    `control`: the same framework's in-order run (its control_engine: MXNet's NaiveEngine); concurrency is
    claimed only when issued together also beat the control's one at a time beyond NOISE.
    """
    # a thread count only where it was set (a framework running CPU work in the calling thread); an engine's
    # own worker threads are not that number, so a queued framework's line names none
    threaded = r.threads and not framework(r.framework).cpu_queued
    key = 'parallel.independence.summary' if threaded else 'parallel.independence.summary_gpu'
    head = t(key, framework=_shown(r.framework), engine=_engine(r), lane=Lane.from_dict(r.lane).label,
             threads=r.threads, iters=r.iters, size=r.size, single=r.times['one_at_a_time'].median,
             together=r.times['issued_together'].median, ratio=r.ratio)
    key = _independence_key(r, control)
    together = r.times['issued_together'].median
    single = r.times['one_at_a_time'].median
    fields = dict(ratio=r.ratio, together=together, diff=abs(single - together),
                  spread=chance_gap(r.times['one_at_a_time'], r.times['issued_together']))
    if key == 'parallel.independence.control_not_beaten':
        fields.update(control=control.times['one_at_a_time'].median, control_engine=_engine(control))
    text = t(key, **fields)
    if above_two(r.ratio):  # one lane, two ways of issuing the same products: not two lanes against one
        text = _sentences(text, t('parallel.above_two.independence', ratio=r.ratio, iters=r.iters,
                                  lane=Lane.from_dict(r.lane).label))
    return head + '\n' + text


def independence_lines(runs) -> str:
    """Exercise 1's runs, each beside its framework's in-order control (its control_engine) where one ran (13.3.1)."""
    controls = {r.framework: r for r in runs if _is_control(r)}
    return '\n'.join(independence_text(r, None if _is_control(r) else controls.get(r.framework))
                      for r in runs)


def _beyond_spread(a: Measurement, b: Measurement) -> bool:
    """The medians of a and b differ by more than chance allows (results.chance_gap, the package's one test)."""
    return abs(a.median - b.median) > chance_gap(a, b)


def _independence_key(r, control=None) -> str:
    """Exercise 1's sentence, chosen by what the two variants differ in and by the repeats' spread (13.3.1)."""
    # Within the repeats' spread the two ways are not told apart, whatever the ratio. GPU lane: 'one at a time'
    # also waits after each product, so a gain is the skipped waits. CPU: only an engine that queues CPU work
    # (registry's cpu_queued), beating the in-order control (control_engine) too beyond the spread, shows products
    # run at the same time; without that control nothing here tests a cause.
    single, together = r.times['one_at_a_time'], r.times['issued_together']
    if not _beyond_spread(single, together):
        return 'parallel.independence.within_spread'
    if together.median > single.median:
        return 'parallel.independence.slower'
    if getattr(r, 'kind', 'cpu') == 'gpu':
        return 'parallel.independence.gpu_waits'
    if framework(r.framework).cpu_queued and not _is_control(r) and control is not None:
        base = control.times['one_at_a_time']
        if together.median < base.median and _beyond_spread(together, base):
            return 'parallel.independence.overlapped'
        return 'parallel.independence.control_not_beaten'
    return 'parallel.independence.untested'


def plot_independence(runs):
    """Exercise 1: one panel per framework and engine, every repeat of one-at-a-time and issued-together."""
    fig, _ = style.figure(nrows=len(runs), height=max(2.8, 2.6 * len(runs)))
    for ax, r in zip(fig.axes, runs):
        plot_variants(r, ax=ax, title=style.plot_text('parallel.independence.title', framework=_shown(r.framework),
                                                      engine=_engine(r, style.plot_text), ratio=r.ratio))
    return fig


def small_ops_winner(r) -> tuple[str, list[str], float]:
    """Exercise 2: the way with the lowest median, the ways not told apart from it, and the spread used.

    The package's one chance test (results.chance_gap): a way whose median lies within the larger IQR of it and
    the lowest is not told apart from the lowest; only a way beyond every other's spread is named the fastest.
    Returns (lowest, [ways within its spread], the largest of those spreads, or the smallest gap's spread).
    """
    fastest = min(r.times, key=lambda k: r.times[k].median)
    others = [k for k in r.times if k != fastest]
    gaps = {k: chance_gap(r.times[fastest], r.times[k]) for k in others}
    tied = [k for k in others if r.times[k].median - r.times[fastest].median <= gaps[k]]
    nearest = min(others, key=lambda k: r.times[k].median, default=None)
    spread = max((gaps[k] for k in tied), default=gaps[nearest] if nearest else 0.0)
    return fastest, tied, spread


def _small_ops_names(r) -> dict[str, str]:
    """Exercise 2's ways (parallel.exercises.VARIANTS) that ran, named in the current language."""
    return {v: t(f'parallel.variant.{v}') for v in VARIANTS if v in r.times}


def _small_ops_head(r) -> str:
    """Exercise 2's first sentence, chosen by the spread test: the fastest way, or the ways not told apart."""
    fastest, tied, spread = small_ops_winner(r)
    names = _small_ops_names(r)
    fields = dict(products=r.products, size=r.size, variant=names[fastest], ms=r.times[fastest].median * 1e3,
                  ratio=r.times['one_lane'].median / r.times[fastest].median, spread_ms=spread * 1e3)
    if tied:
        return t('parallel.small_ops.tied', others=t('parallel.small_ops.or').join(
            t('parallel.small_ops.way', variant=names[k], ms=r.times[k].median * 1e3) for k in tied), **fields)
    return t('parallel.small_ops.fastest_base' if fastest == 'one_lane' else 'parallel.small_ops.fastest',
             **fields)


def small_ops_lines(r) -> str:
    """Exercise 2's sentences: the fastest way by the spread test, then gaps.small_ops_text's numbers.

    A way that launches once for all the products is set against one lane making a call per product on the same
    device: not two lanes against one, so 2x is no bound for it (said where its ratio is above 2).
    """
    text = small_ops_text(r)
    head, _, rest = text.partition('\n')
    fastest, tied, _ = small_ops_winner(r)
    base = r.times['one_lane'].median / r.times[fastest].median
    names = _small_ops_names(r)
    old = t('parallel.small_ops.fastest', variant=names[fastest], ratio=base, products=r.products, size=r.size)
    head = head.replace(old, _small_ops_head(r)) if old in head else _sentences(_small_ops_head(r), head)
    for way in ONCE:
        if way == fastest and not tied and above_two(base):
            head = _sentences(head, t('parallel.above_two.small_ops', ratio=base, products=r.products,
                                      variant=names[way]))
    return '\n'.join(x for x in (head, rest) if x)


def plot_small_ops(r, ax=None):
    """Exercise 2: every repeat of each way on one device; the title names the fastest only beyond the spread."""
    fastest, tied, _ = small_ops_winner(r)
    device = style.plot_lane(r.device)  # 'cuda:0' -> 'GPU 0', 'cpu' -> 'CPU': a device id is not a title
    if tied:
        title = style.plot_text('parallel.small_ops.title_tied', device=device, ways=style.plot_text(
            'parallel.speed.sep').join(variant_name('parallel', k) for k in [fastest, *tied]))  # names hold commas
    else:
        title = style.plot_text('parallel.small_ops.title', device=device, variant=variant_name('parallel', fastest))
    return plot_variants(r, ax=ax, title=title)
