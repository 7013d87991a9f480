"""13.3.1's exercises 1 and 2 in sentences and pictures: products issued together on one lane, and small products.

Each `*_text`/`*_lines` function returns sentences chosen by the measured numbers and by results.told_apart (the
package's one test of two ways' repeats, worded by display.apart); each plot returns the Figure.
"""
from __future__ import annotations

from ..frameworks import framework
from ..i18n import t
from ..lanes import Lane
from ..parallel.exercises import VARIANTS
from ..results import NOISE, told_apart
from ..results import close as _close
from . import style
from .apart import apart
from .gaps import ONCE, _sentences, once_text, small_ops_text, within
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
    single, together = r.times['one_at_a_time'], r.times['issued_together']
    fields = dict(ratio=r.ratio, together=together.median, apart=apart(single, together, 's', medians=False).clause)
    if key in ('parallel.independence.control_not_beaten', 'parallel.independence.overlapped'):
        base = control.times['one_at_a_time']
        fields.update(control=base.median, control_engine=_engine(control),
                      control_apart=apart(base, together, 's', medians=False).clause)
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


def _independence_key(r, control=None) -> str:
    """Exercise 1's sentence, chosen by what the two variants differ in and by results.told_apart (13.3.1)."""
    # Not told apart: the two ways are not told apart, whatever the ratio. GPU lane: 'one at a time' also waits
    # after each product, so a gain is the skipped waits. CPU: only an engine that queues CPU work (registry's
    # cpu_queued), beating the in-order control (control_engine) too, told apart, shows products run at the same
    # time; without that control nothing here tests a cause.
    single, together = r.times['one_at_a_time'], r.times['issued_together']
    if not told_apart(single, together):
        return 'parallel.independence.not_apart'
    if together.median > single.median:
        return 'parallel.independence.slower'
    if getattr(r, 'kind', 'cpu') == 'gpu':
        return 'parallel.independence.gpu_waits'
    if framework(r.framework).cpu_queued and not _is_control(r) and control is not None:
        base = control.times['one_at_a_time']
        if together.median < base.median and told_apart(together, base):
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


def small_ops_winner(r) -> tuple[str, list[str]]:
    """Exercise 2: the way with the lowest median, and the ways not told apart from it (results.told_apart).

    Only a way told apart from every other (medians beyond the larger IQR and middle halves apart) is named the
    fastest. Returns (lowest, [ways not told apart from it]).
    """
    fastest = min(r.times, key=lambda k: r.times[k].median)
    tied = [k for k in r.times if k != fastest and not told_apart(r.times[fastest], r.times[k])]
    return fastest, tied


def _small_ops_names(r) -> dict[str, str]:
    """Exercise 2's ways (parallel.exercises.VARIANTS) that ran, named in the current language."""
    return {v: t(f'parallel.variant.{v}') for v in VARIANTS if v in r.times}


def _small_ops_head(r) -> str:
    """Exercise 2's first sentence, chosen by told_apart: the fastest way, or the ways not told apart from it.

    Each comparison is said with its numbers (display.apart, both medians: the head gives only the fastest's), so
    a reader can check it against the dots.
    """
    fastest, tied = small_ops_winner(r)
    names = _small_ops_names(r)
    against = tied or [k for k in r.times if k != fastest]
    pairs = t('parallel.speed.sep').join(
        t('parallel.small_ops.pair', variant=names[k], apart=apart(r.times[fastest], r.times[k], 'ms').clause)
        for k in sorted(against, key=lambda k: r.times[k].median))
    fields = dict(products=r.products, size=r.size, variant=names[fastest], ms=r.times[fastest].median * 1e3,
                  ratio=r.times['one_lane'].median / r.times[fastest].median, pairs=pairs)
    if tied:
        return t('parallel.small_ops.tied', **fields)
    return t('parallel.small_ops.fastest_base' if fastest == 'one_lane' else 'parallel.small_ops.winner', **fields)


def issue_text(r) -> str:
    """Exercise 2 on a GPU: the time to issue one product (how it was timed) beside one lane's whole time per product.

    Numbers only, chosen by the NOISE test: about as long, or which took longer and by how much; no cause is named.
    """
    per = r.times['one_lane'].median / r.products
    issue = r.launch_per_product
    key = ('parallel.small_ops.issue_close' if _close(issue, per, of=per) else
           'parallel.small_ops.issue_longer' if issue > per else 'parallel.small_ops.issue_shorter')
    fields = dict(products=r.products, launch_us=issue * 1e6, per_us=per * 1e6, noise=NOISE,
                  within=within(issue, per, 'lane_per'),
                  ratio=max(issue, per) / min(issue, per))
    text = t(key, **fields)
    if 'batched' in r.times:
        text = _sentences(text, t('parallel.small_ops.batched_per', batched_us=r.times['batched'].median
                                  / r.products * 1e6))
    return text


def small_ops_lines(r) -> str:
    """Exercise 2's sentences: the fastest way by told_apart, then the numbers of each kind of lane.

    GPU: issue_text and the ways that launch once (gaps.once_text); CPU: gaps.small_ops_text's numbers.
    A way that launches once for all the products is set against one lane making a call per product on the same
    device: not two lanes against one, so 2x is no bound for it (said where its ratio is above 2).
    """
    names = _small_ops_names(r)
    fastest, tied = small_ops_winner(r)
    text = small_ops_text(r)
    head, _, rest = text.partition('\n')
    old = t('parallel.small_ops.fastest', variant=names[fastest], ratio=r.times['one_lane'].median /
            r.times[fastest].median, products=r.products, size=r.size)
    head = head.replace(old, _small_ops_head(r)) if old in head else _sentences(_small_ops_head(r), head)
    base = r.times['one_lane'].median / r.times[fastest].median
    for way in ONCE:
        if way == fastest and not tied and above_two(base):
            head = _sentences(head, t('parallel.above_two.small_ops', ratio=base, products=r.products,
                                      variant=names[way]))
    if r.kind == 'gpu':  # the issue time said with how it was timed, numbers only
        rest = _sentences(issue_text(r), once_text(r, names))
    return '\n'.join(x for x in (head, rest) if x)


def plot_small_ops(r, ax=None):
    """Exercise 2: every repeat of each way on one device; the title names the fastest only where told apart."""
    fastest, tied = small_ops_winner(r)
    device = style.plot_lane(r.device)  # 'cuda:0' -> 'GPU 0', 'cpu' -> 'CPU': a device id is not a title
    if tied:
        title = style.plot_text('parallel.small_ops.title_tied', device=device, ways=style.plot_text(
            'parallel.speed.sep').join(variant_name('parallel', k) for k in [fastest, *tied]))  # names hold commas
    else:
        title = style.plot_text('parallel.small_ops.title', device=device, variant=variant_name('parallel', fastest))
    return plot_variants(r, ax=ax, title=title)
