"""13.3.1's pictures and sentences: every repeat beside its expectation, lane timelines, speedup against size.

Each plot takes a typed result from d2l_ext.parallel (or plain times), draws with the common
visual language (display.style, display.repeats, display.timeline) and returns the Figure. Each
`*_text` function returns a sentence chosen by the measured numbers, so the notebook never
states a result the output below it contradicts.
"""
from __future__ import annotations

import statistics

from ..i18n import t
from . import style
from .repeats import plot_repeats
from .timeline import draw_timeline

NAMES = {'torch': 'PyTorch', 'mxnet': 'MXNet'}
NOISE = 0.1  # on a shared 2-core machine, medians within 10% of each other are "about the same"


def variant_name(area: str, key: str) -> str:
    """A row's name in the plot language: '<area>.variant.<key>' where the catalogue has it, else the key."""
    from ..i18n import catalogue
    full = f'{area}.variant.{key}'
    return style.plot_text(full) if full in catalogue('en') else key


def repeats_of(times) -> list[float]:
    """Every repeat of a Times (just its median for recordings made before repeats were kept)."""
    return list(times.times) or [times.median]


def machine_text(lanes=()) -> str:
    """Versions, cores and GPUs, then what each lane is (if given): the first lines of 13.3.1."""
    from ..lanes import describe_lanes
    from .machine import machine_line
    head = machine_line()
    return '\n'.join([head, describe_lanes(list(lanes))] if lanes else [head])


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= NOISE * max(a, b)


def _sentences(*parts: str) -> str:
    """Sentences in a row: a space between them in English, none in Chinese."""
    from ..i18n import language
    return ('' if language() == 'zh' else ' ').join(parts)


# -- sentences chosen by the numbers -------------------------------------------------------------

def book_text(alone: list[float], both: float) -> str:
    """The book's 'both' cell against the sum and the slower lane alone (13.3.1)."""
    total, slower = sum(alone), max(alone)
    key = ('parallel.book.like_max' if _close(both, slower) else 'parallel.book.like_sum' if _close(both, total)
           else 'parallel.book.between')
    return t(key, both=both, total=total, slower=slower)


def no_wait_text(times: dict[str, list[float]]) -> str:
    """No wait against waiting for every lane (and the book's synchronize() where it ran) (13.3.1)."""
    med = {name: statistics.median(ts) for name, ts in times.items()}
    fields = dict(no_wait=med['no_wait'], waited=med['every_device'])
    text = t('parallel.no_wait.same' if med['no_wait'] > 0.5 * med['every_device'] else 'parallel.no_wait.queued',
             **fields)
    if 'book_synchronize' in med and med['book_synchronize'] < (1 - NOISE) * med['every_device']:
        text = _sentences(text, t('parallel.no_wait.book_short', book=med['book_synchronize'],
                                  waited=med['every_device']))
    return text


def expectation_text(e) -> str:
    """The expectation's rule, with its assumption, as one sentence (13.3.1, 13.3.2 exercise 3)."""
    return t(f'parallel.expect.{e.rule}', seconds=e.seconds, cores=e.cores, threads=e.threads, ways=e.ways)


def verdict_text(alone: list[float], serial: float, together: float, baseline: float | None = None) -> str:
    """Together against one after the other and, where measured, one lane with all cores doing both jobs."""
    text = t('parallel.verdict.serial', together=together, serial=serial, speedup=serial / together,
             slower=max(alone))
    if baseline is not None:
        key = ('parallel.verdict.base_same' if _close(together, baseline) else
               'parallel.verdict.base_beaten' if together < baseline else 'parallel.verdict.base_lost')
        ratio = together / baseline if key.endswith('lost') else baseline / together  # always 'x as fast', above 1
        text = _sentences(text, t(key, baseline=baseline, ratio=ratio))
    return text


def summary_text(r) -> str:
    """One ParallelResult in two sentences: what was measured, and what the hardware lets us expect."""
    return '\n'.join([t('parallel.summary', framework=NAMES[r.framework], serial=r.serial_sum,
                        together=r.together.median, speedup=r.speedup, expected_speedup=r.expected_speedup),
                      expectation_text(r.expectation)])


def scaling_text(results) -> str:
    """The measured curve in words: speedup at the smallest and largest size, and where it peaked (13.3.1)."""
    lines = []
    for r in results:
        pts = sorted(r.points, key=lambda p: p.size)
        best = max(pts, key=lambda p: p.speedup)
        steps = [b.speedup - a.speedup for a, b in zip(pts, pts[1:])]
        if all(_close(p.speedup, pts[0].speedup) for p in pts):
            shape = 'flat'
        elif all(s > -NOISE for s in steps) and pts[-1].speedup > pts[0].speedup:
            shape = 'rises'
        elif all(s < NOISE for s in steps) and pts[-1].speedup < pts[0].speedup:
            shape = 'falls'
        else:
            shape = 'uneven'
        lines.append(t(f'parallel.scaling.{shape}', framework=NAMES[r.framework], small=pts[0].size,
                       small_speedup=pts[0].speedup, large=pts[-1].size, large_speedup=pts[-1].speedup,
                       best=best.size, best_speedup=best.speedup))
    return '\n'.join(lines)


def _engine(r) -> str:
    return t('parallel.eager') if r.engine == 'eager' else r.engine


def independence_text(r) -> str:
    """Exercise 1: the numbers, then whether the framework overlapped one run's products by itself."""
    head = t('parallel.independence.summary', framework=NAMES[r.framework], engine=_engine(r), lane=r.lane,
             threads=r.threads, iters=r.iters, size=r.size, single=r.times['one_at_a_time'].median,
             together=r.times['issued_together'].median, ratio=r.ratio)
    key = ('parallel.independence.overlapped' if r.ratio > 1 + NOISE else
           'parallel.independence.slower' if r.ratio < 1 - NOISE else 'parallel.independence.in_order')
    return head + '\n' + t(key, ratio=r.ratio)


def small_ops_text(r) -> str:
    """Exercise 2: which way was fastest, and why, from the measured launch time per product."""
    base = r.times['one_lane'].median
    fastest = min(r.times, key=lambda k: r.times[k].median)
    head = t('parallel.small_ops.fastest', variant=t(f'parallel.variant.{fastest}'),
             ratio=base / r.times[fastest].median, products=r.products, size=r.size)
    return head + '\n' + t(f'parallel.small_ops.{r.kind}', launch_us=r.launch_per_product * 1e6, cores=r.cores,
                           size=r.size)


# -- pictures ------------------------------------------------------------------------------------

def plot_parallel(result, ax=None, title=None):
    """Each lane alone and all together, every repeat a dot, the expected together-time beside (13.3.1)."""
    names = [lane['label'] for lane in result.lanes] + [variant_name('parallel', 'together')]
    values = [repeats_of(m) for m in result.lane_times] + [repeats_of(result.together)]
    return plot_repeats(dict(zip(names, values)), ax=ax, predicted={names[-1]: result.expected},
                        title=title or style.plot_text('parallel.plot_title', framework=NAMES[result.framework],
                                                       speedup=result.speedup, expected=result.expected_speedup))


def plot_timeline(result, ax=None, title=None, predicted=None):
    """When each product ran on each lane, in one run of all lanes together (13.3.1); predicted as draw_timeline's."""
    rows = {label: style.lane_role(i) for i, label in enumerate(result.lanes)}
    if result.framework == 'mxnet':  # rows are (context, engine worker): colour by the context
        rows = None
    return draw_timeline(result.events, ax=ax, rows=rows, predicted=predicted,
                         title=title or style.plot_text('parallel.timeline_title',
                                                        framework=NAMES[result.framework]))


def plot_scaling(results, ax=None):
    """Measured speedup (each size) and the expectation, per framework, against matrix size (13.3.1)."""
    if ax is None:
        _, ax = style.figure()
    else:
        style.apply()
    for k, r in enumerate(results):
        sizes = [p.size for p in r.points]
        colour = style.color(style.lane_role(k))
        name = NAMES[r.framework]
        ax.plot(sizes, [p.speedup for p in r.points], 'o-', color=colour, ms=8,
                label=style.plot_text('parallel.scaling_measured', framework=name))
        ax.plot(sizes, [p.expected_speedup for p in r.points], '--', color=colour,
                label=style.plot_text('parallel.scaling_expected', framework=name))
    ax.axhline(1.0, color=style.color('idle'), lw=1.5)  # below this line, running together lost time
    ax.set_xscale('log', base=2)
    ax.set_xticks(sizes, [str(n) for n in sizes])
    ax.set_ylim(bottom=0)
    ax.set_xlabel(style.plot_text('panels.size_axis'))
    ax.set_ylabel(style.plot_text('panels.speedup_axis'))
    ax.legend(loc='upper left', bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    ax.set_title(style.plot_text('parallel.scaling_title'), loc='left')
    return ax.figure


def plot_variants(result, ax=None, title=None, predicted=None):
    """Any result with a `times` dict (exercises 1 and 2, the sync mistake): every repeat of each variant."""
    times = {variant_name(result.area, name): repeats_of(m) for name, m in result.times.items()}
    predicted = {variant_name(result.area, k): v for k, v in (predicted or {}).items()}
    return plot_repeats(times, ax=ax, title=title, predicted=predicted or None, unit='auto')


def plot_independence(runs):
    """Exercise 1: one panel per framework and engine, every repeat of one-at-a-time and issued-together."""
    fig, _ = style.figure(nrows=len(runs), height=max(2.8, 2.6 * len(runs)))
    for ax, r in zip(fig.axes, runs):
        plot_variants(r, ax=ax, title=style.plot_text('parallel.independence.title', framework=NAMES[r.framework],
                                                      engine=_engine(r), ratio=r.ratio))
    return fig


def plot_small_ops(r, ax=None):
    """Exercise 2: every repeat of each way to run many small products on one device, the fastest in the title."""
    fastest = min(r.times, key=lambda k: r.times[k].median)
    return plot_variants(r, ax=ax, title=style.plot_text('parallel.small_ops.title', device=r.device,
                                                         variant=variant_name('parallel', fastest)))


def _recorded_labels(rec) -> dict[str, str]:
    """{label saved in the recording: the same lane named in the plot language} (CPU lanes were saved in English)."""
    cores = rec.machine['cpu_cores']
    return {lane['label']: style.plot_text('core.lane_cpu_label', threads=lane['threads'], cores=cores)
            for p in rec.parallel for lane in p.lanes if lane['kind'] == 'cpu' and lane.get('threads')}


def plot_recorded(rec):
    """A GPU recording's evidence (13.3.1): every repeat beside its expectation, then its lane timeline."""
    import dataclasses
    names = _recorded_labels(rec)
    fig, (top, bottom) = style.figure(nrows=2, height=7.6)
    p = rec.parallel[0]
    plot_parallel(dataclasses.replace(p, lanes=[dict(lane, label=names.get(lane['label'], lane['label']))
                                                for lane in p.lanes]), ax=top)
    tl = rec.timelines[0]
    tl = dataclasses.replace(tl, lanes=[names.get(x, x) for x in tl.lanes],
                             events=[dict(e, lane=names.get(e['lane'], e['lane'])) for e in tl.events])
    plot_timeline(tl, ax=bottom, title=style.plot_text('parallel.recorded_timeline', gpu=rec.machine['gpus'][0],
                                                       size=tl.size, iters=tl.iters[0]))
    return fig
