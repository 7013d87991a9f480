"""13.3.4's bucket sweep: DDP's step time against its bucket size beside the per-call overhead + bandwidth model,
and the sentence that sets the model's fastest sizes beside the measured ones (d2l_ext.results.told_apart).

Used by the lesson's exercise and by the bucket panel (display.allreduce_panel); it needs nothing from
display.allreduce, so the two never import each other.
"""
from __future__ import annotations

from ..i18n import t
from . import allreduce_sums as sums
from . import style


def _fastest(result, sizes=None) -> tuple:
    """The DDP size with the lowest median (of `sizes`), its median in ms as printed, and the other sizes not told
    apart from it (results.fastest_buckets: the one test)."""
    rivals = [v for v in result.ddp_versions() if sizes is None or v.bucket_mb in sizes]
    best = min(rivals, key=lambda v: v.median)
    d = sums.places(best.median)
    others = [mb for mb in result.fastest_buckets(sizes) if mb != best.bucket_mb]
    return best, sums.fmt(sums.shown(best.median, d), d), others


def bucket_text(result, sizes=None) -> str:
    """13.3.4: the bucket sizes the model predicts fastest beside the measured fastest (one size, its median), the
    sizes not told apart from it, and how far apart the measured and the model's are in the sweep."""
    sizes = sorted(sizes or {v.bucket_mb for v in result.ddp_versions()})
    model = result.prediction.best_buckets(sizes)
    rivals = [v for v in result.ddp_versions() if v.bucket_mb in sizes]
    best, ms, others = _fastest(result, sizes)
    listed = t('allreduce.sep_list').join
    fields = dict(model=listed(f'{mb:g}' for mb in model), fastest=f'{best.bucket_mb:g}', ms=ms)
    if len(others) + 1 == len(rivals) > 1:
        return t('allreduce.buckets.text_same', **fields)
    if not others:
        return t('allreduce.buckets.text', **fields, where=_sweep_distance(sizes, [best.bucket_mb], model))
    shared = [mb for mb in others if mb in model]  # a size the model names, not told apart from the fastest
    where = t('allreduce.buckets.shared_tied', mb=listed(f'{mb:g}' for mb in shared)) if shared and \
        best.bucket_mb not in model else _sweep_distance(sizes, [best.bucket_mb], model)
    return t('allreduce.buckets.text_tied', **fields, others=listed(f'{mb:g}' for mb in others), where=where)


def _sweep_distance(sizes, fastest, model) -> str:
    """How far the measured fastest lie from the model's fastest in the sweep: the closest pair, named by size.

    A size in both lists; two sizes next to each other in the sweep (no size swept between them); or how many
    positions apart they are. The sweep itself is listed, so 'next to each other' can be read off it.
    """
    pairs = sorted((abs(sizes.index(a) - sizes.index(b)), a, b) for a in fastest for b in model)
    apart, a, b = pairs[0]
    sweep = t('allreduce.sep_list').join(f'{mb:g}' for mb in sizes)
    if apart == 0:
        return t('allreduce.buckets.shared', mb=f'{a:g}')
    key = 'allreduce.buckets.neighbours' if apart == 1 else 'allreduce.buckets.apart'
    return t(key, measured=f'{a:g}', model=f'{b:g}', steps=apart, sweep=sweep)


def plot_buckets(results, sizes=None, ax=None):
    """13.3.4: DDP's step time against its bucket size (every repeat of every run), the model's line beside it.

    results: one AllreduceResult or several (the panel's runs); the model is the last run's. sizes: the
    bucket sizes to draw the model at (default: those measured). (a) and the flat control, measured,
    are drawn as horizontal lines; the size from which one bucket holds the whole gradient is marked.
    """
    results = results if isinstance(results, list | tuple) else [results]
    last, ms = results[-1], 1e3
    p = last.prediction
    measured = [(v.bucket_mb, x) for r in results for v in r.ddp_versions() for x in v.step_times]
    grid = sorted(set(sizes or ()) | {mb for mb, _ in measured})
    if ax is None:
        _, ax = style.figure(height=3.8)
    else:
        style.apply()
    model = [p.for_version('ddp', mb) * ms for mb in grid]
    ax.plot(grid, model, '--', marker='s', color=style.color('predicted'), zorder=2,
            label=style.plot_text('allreduce.buckets.model', alpha=p.per_call * ms, gbps=p.bus_bandwidth / 1e9))
    ax.scatter([mb for mb, _ in measured], [x * ms for _, x in measured], color=style.color('measured'), s=40,
               alpha=0.8, zorder=3, label=style.plot_text('allreduce.buckets.measured'))
    for vid, dash in (('serial', ':'), ('flat', '-.')):
        if last.has(vid):
            ax.axhline(last.version(vid).median * ms, ls=dash, color='grey', lw=1.2,
                       label=style.plot_text(f'allreduce.buckets.{vid}'))
    whole = p.gradient_bytes / 2 ** 20  # from this many MiB on, one bucket holds every gradient
    if grid and grid[-1] >= whole:
        ax.axvline(whole, color='black', lw=0.8)
        ax.annotate(style.plot_text('allreduce.buckets.one'), (whole, 0.02), xycoords=('data', 'axes fraction'),
                    xytext=(4, 0), textcoords='offset points', fontsize=style.MIN_FONT_PT)
    ax.set_xscale('log')
    ax.set_xticks(grid, [f'{mb:g}' for mb in grid])
    ax.minorticks_off()
    lines = [last.version(vid).median * ms for vid in ('serial', 'flat') if last.has(vid)]  # drawn: in view
    ax.set_ylim(0, max(model + [x * ms for _, x in measured] + lines) * 1.15)
    ax.set_xlabel(style.plot_text('allreduce.buckets.xlabel'))
    ax.set_ylabel(style.plot_text('allreduce.buckets.ylabel'))
    best = p.best_buckets(grid)
    n = len(p.groups('ddp', best[0]))
    sizes_shown = style.plot_text('allreduce.sep_list').join(f'{mb:g}' for mb in best)
    if measured:
        best_v, ms, others = _fastest(last)
        listed = style.plot_text('allreduce.sep_list').join
        key = 'title_same' if len(others) + 1 == len(last.ddp_versions()) > 1 else \
            'title_tied' if others else 'title'
        title = style.plot_text(f'allreduce.buckets.{key}', model=sizes_shown, buckets=n,
                                fastest=f'{best_v.bucket_mb:g}', ms=ms, others=listed(f'{mb:g}' for mb in others))
    else:
        title = style.plot_text('allreduce.buckets.title_model', model=sizes_shown, buckets=n)
    ax.set_title(title, loc='left')
    ax.legend(loc='upper left', bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    return ax.figure
