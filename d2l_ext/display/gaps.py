"""13.3.0 and 13.3.1: a prediction beside its measurement, and a gap explained only by a measured test.

The tests: the repeats' own range (run-to-run spread) and each lane's time per product measured while
every lane was busy (d2l_ext.parallel.sharing). Where neither explains a gap, the sentence gives the
numbers and says that nothing measured tests a cause: no interference, overhead or noise is assumed.
Small products (13.3.1): each size's time per product beside the time the largest size's rate gives,
and exercise 2's ways of running many small products, each named a fix only where it measured faster.
"""
from __future__ import annotations

import statistics

from ..frameworks import framework
from ..i18n import language, t
from ..lanes import Lane
from ..parallel.exercises import VARIANTS
from ..parallel.sharing import product_seconds, slowdowns
from ..results import NOISE, close

KINDS = ('cpu', 'gpu')  # exercise 2's lane kind: the keys parallel.small_ops.<kind>
ONCE = ('batched', 'cuda_graph')  # exercise 2's ways that launch once for all the products


def _sentences(*parts: str) -> str:
    """Sentences in a row: a space between them in English, none in Chinese (every text of 13.3.0 and 13.3.1)."""
    return ('' if language() == 'zh' else ' ').join(p for p in parts if p)


BASES = ('prediction', 'slower', 'sum', 'book', 'lane_per')  # within()'s named bases: parallel.within.base.<base>


def within(a: float, b: float, base: str | None = None) -> str:
    """The NOISE test's own percentage beside 'within 10%', its base named: '9.5% apart (a share of the larger),
    within 10%'.

    `base` None: the larger of the two (results.close's test); else `b` is the base, named by
    parallel.within.base.<base> (BASES): the tests that take a ratio to one value (|a/b - 1|).
    """
    pct = abs(a - b) / (max(a, b) if base is None else b)
    shown = f'{pct:.1%}'
    if pct <= NOISE and shown == f'{NOISE:.1%}':  # 9.97% is not printed as 10.0% beside "within 10%"
        shown = f'{pct:.2%}'
    if base is None:
        return t('parallel.within.larger', pct=shown, noise=NOISE)
    return t('parallel.within.of', pct=shown, noise=NOISE, base=t(f'parallel.within.base.{base}'))


# what a prediction is made from: the keys parallel.source.<source>, the label every prediction of 13.3.0/13.3.1
# carries ('alone': each lane's timed medians alone; 'rates': rates measured alone; 'rates_both': rates measured
# while both lanes ran, a rate cell; 'side_by_side': again, at the times per product in the timeline)
SOURCES = ('alone', 'rates', 'rates_both', 'side_by_side')


def source_label(source: str, capital: bool = False) -> str:
    """What a prediction is made from, in the current language ('predicted from each lane's time alone').

    `capital`: its first letter in capitals, where it opens a sentence (no change in Chinese).
    """
    text = t(f'parallel.source.{source}')
    return text[:1].upper() + text[1:] if capital else text


def speed_text(result, alone: list[float], labels: list[str] | None = None, alone_from: str = 'medians') -> str:
    """Each lane's seconds per product while every lane was busy (from the timeline) against the lane alone.

    `alone_from` names where `alone` was measured: 'medians' (the lanes' timed repeats) or 'rates' (a rate cell).
    """
    together = product_seconds(result)
    ratios = slowdowns(together, alone)
    names = labels or result.lanes
    lanes = [t('parallel.speed.lane', lane=name, together=s * 1e3, alone=a * 1e3, ratio=r)
             for name, s, a, r in zip(names, together, alone, ratios) if s is not None and r is not None]
    key = 'parallel.speed.head_rates' if alone_from == 'rates' else 'parallel.speed.head'
    return t(key, lanes=t('parallel.speed.sep').join(lanes)) if lanes else ''


def gap_text(what: str, predicted: float, repeats: list[float], shared: float | None = None,
             source: str = 'alone') -> str:
    """A prediction beside its measurement (median of `repeats`); a gap beyond NOISE is explained only by a test.

    `source` (SOURCES) labels what the prediction is made from. Tested here: the repeats' own range (run-to-run
    spread) and, where given, `shared`: the prediction made again at the time per product measured while every lane
    was busy (labelled 'side_by_side'). Neither explains it: the numbers, and no cause.
    """
    measured = statistics.median(repeats)
    fields = dict(what=what, predicted=predicted, measured=measured, ratio=measured / predicted, noise=NOISE,
                  low=min(repeats), high=max(repeats), shared=shared or 0.0, source=source_label(source),
                  Shared_source=source_label('side_by_side', capital=True), within=within(measured, predicted),
                  within_shared=within(measured, shared) if shared else '')
    if close(measured, predicted):
        key = 'parallel.gap.agrees'
    elif min(repeats) <= predicted <= max(repeats):
        key = 'parallel.gap.spread'
    elif shared is not None and close(measured, shared) and not close(shared, predicted):
        key = 'parallel.gap.shared'
    else:
        key = 'parallel.gap.open'
    return t(key, **fields)


def prediction_text(predicted: dict[str, float], measured: dict[str, list[float]],
                    shared: dict[str, float] | None = None, sources: dict[str, str] | None = None) -> str:
    """Every prediction beside its measurement, one line per variant, each gap explained only by a test (13.3.1).

    `sources`: what each variant's prediction is made from (SOURCES; default 'alone'), said in its line.
    """
    shared, sources = shared or {}, sources or {}
    return '\n'.join(gap_text(name, p, list(measured[name]), shared.get(name), sources.get(name, 'alone'))
                     for name, p in predicted.items() if name in measured)


def per_product_text(results) -> str:
    """Each size's time per product on the first lane alone, beside the time at the largest size's rate (13.3.1).

    The rate (FLOP per second) is the largest size's own; a product of n x n matrices is 2n^3 FLOP. The
    difference is stated as a number: no cause (the call, the threads, the wait) is tested here.
    """
    lines = []
    for r in results:
        pts = sorted(r.points, key=lambda p: p.size)
        per = [p.lane_times[0].median / p.iters[0] for p in pts]
        rate = 2 * pts[-1].size ** 3 / per[-1]
        sizes = t('parallel.speed.sep').join(
            t('parallel.per_product.size', size=p.size, ms=s * 1e3, rated=2 * p.size ** 3 / rate * 1e3,
              ratio=s * rate / (2 * p.size ** 3)) for p, s in zip(pts[:-1], per[:-1]))
        lines.append(t('parallel.per_product.line', framework=framework(r.framework).display,
                       lane=Lane.from_dict(pts[0].lanes[0]).label, large=pts[-1].size, ms=per[-1] * 1e3,
                       gflops=rate / 1e9, sizes=sizes))
    return '\n'.join(lines)


def small_ops_text(r) -> str:
    """Exercise 2: which way was fastest; launch-bound on a GPU only when issue time, lane time and bmm show it.

    A way that launches once (bmm, a CUDA Graph) is named a fix only when it measured faster than one lane.
    """
    base = r.times['one_lane'].median
    fastest = min(r.times, key=lambda k: r.times[k].median)
    names = {v: t(f'parallel.variant.{v}') for v in VARIANTS if v in r.times}
    ratio = base / r.times[fastest].median
    head = t('parallel.small_ops.fastest', variant=names[fastest], ratio=ratio, products=r.products, size=r.size)
    # lanes side by side on a CPU gain at most one core each: a larger ratio says the one-lane row was disturbed
    # (a batched product saves calls as well, so it is not bounded by the cores)
    if r.kind == 'cpu' and fastest in ('two_threads', 'two_streams') and ratio > max(r.cores, 1) * (1 + NOISE):
        one = r.times['one_lane'].repeated()
        head = _sentences(head, t('parallel.small_ops.suspect', cores=r.cores, ratio=ratio,
                                  base=names['one_lane'], low=min(one) * 1e3, high=max(one) * 1e3))
    per = base / r.products
    batched = r.times['batched'].median / r.products if 'batched' in r.times else None
    key = f'parallel.small_ops.{r.kind}'
    if r.kind == 'gpu' and not (batched is not None and batched * (1 + NOISE) < r.launch_per_product
                                and per <= r.launch_per_product * (1 + NOISE)):
        key = 'parallel.small_ops.gpu_open'  # launch-bound is said only when these numbers show it
    rate = getattr(r, 'rate_flops', 0.0)
    text = t(key, launch_us=r.launch_per_product * 1e6, cores=r.cores, size=r.size, per_us=per * 1e6,
             batched_us=(batched or 0.0) * 1e6, rated_us=2 * r.size ** 3 / rate * 1e6 if rate else 0.0,
             large=getattr(r, 'rate_size', 0), gflops=rate / 1e9)
    return head + '\n' + _sentences(text, once_text(r, names) if r.kind == 'gpu' else '')


def once_text(r, names) -> str:
    """The ways that launch once, each per product against one lane: a fix only where it measured faster."""
    base = r.times['one_lane'].median
    parts = []
    for v in ONCE:
        if v in r.times:
            m = r.times[v].median
            key = 'parallel.small_ops.once_faster' if m * (1 + NOISE) < base else 'parallel.small_ops.once_not'
            parts.append(t(key, variant=names[v], us=m / r.products * 1e6, ratio=base / m))
    return t('parallel.small_ops.once', ways=t('parallel.speed.sep').join(parts)) if parts else ''
