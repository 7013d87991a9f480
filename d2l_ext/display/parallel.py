"""13.3.1's pictures and sentences: every repeat beside its expectation, lane timelines, speedup against size.

Each plot takes a typed result from d2l_ext.parallel (or plain times), draws with the common
visual language (display.style, display.repeats, display.timeline) and returns the Figure. Each
`*_text` function returns a sentence chosen by the measured numbers, so the notebook never
states a result the output below it contradicts.
"""
from __future__ import annotations

import statistics

from ..i18n import t
from ..parallel.sharing import predict_at, product_seconds
from . import style
from .gaps import NOISE, gap_text, speed_text
from .gaps import close as _close
from .repeats import plot_repeats
from .timeline import draw_timeline

NAMES = {'torch': 'PyTorch', 'mxnet': 'MXNet'}


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


def _sentences(*parts: str) -> str:
    """Sentences in a row: a space between them in English, none in Chinese."""
    from ..i18n import language
    return ('' if language() == 'zh' else ' ').join(parts)


# -- sentences chosen by the numbers -------------------------------------------------------------

def book_text(alone: list[float], both: float) -> str:
    """The book's 'both' cell against the sum and the slower lane alone (13.3.1)."""
    total, slower = sum(alone), max(alone)
    key = ('parallel.book.like_max' if _close(both, slower) else 'parallel.book.like_sum' if _close(both, total)
           else 'parallel.book.above_sum' if both > total else 'parallel.book.below_slower' if both < slower
           else 'parallel.book.between')
    return t(key, both=both, total=total, slower=slower)


def wall_text(serial: float, together: float, expected: float | None = None) -> str:
    """Medians of together against one after the other: time saved (or lost), beside the predicted saving."""
    if together <= serial:
        text = t('parallel.overlap.wall', serial=serial, together=together, saved=serial - together)
    else:
        text = t('parallel.overlap.wall_more', serial=serial, together=together, more=together - serial)
    if expected is not None:  # the saving the prediction allows; a predicted loss is worded as one, never negative
        key = 'parallel.overlap.wall_predicted' if expected <= serial else 'parallel.overlap.wall_predicted_more'
        text = _sentences(text, t(key, predicted=abs(serial - expected), expected=expected))
    return text


def no_wait_text(times: dict[str, list[float]]) -> str:
    """No wait against waiting for every lane (and the book's synchronize() where it ran) (13.3.1)."""
    med = {name: statistics.median(ts) for name, ts in times.items()}
    fields = dict(no_wait=med['no_wait'], waited=med['every_device'])
    key = ('parallel.no_wait.same' if _close(med['no_wait'], med['every_device']) else
           'parallel.no_wait.not_early' if med['no_wait'] > 0.5 * med['every_device'] else 'parallel.no_wait.queued')
    text = t(key, **fields)
    if 'book_synchronize' in med and med['book_synchronize'] < (1 - NOISE) * med['every_device']:
        text = _sentences(text, t('parallel.no_wait.book_short', book=med['book_synchronize'],
                                  waited=med['every_device']))
    return text


def expectation_text(e) -> str:
    """The expectation's rule, with its assumption, as one sentence (13.3.1, 13.3.2 exercise 3)."""
    return t(f'parallel.expect.{e.rule}', seconds=e.seconds, cores=e.cores, threads=e.threads, ways=e.ways)


def verdict_text(alone: list[float], serial: float, together: float, baseline: float | None = None) -> str:
    """Together against one after the other and, where measured, one lane with all cores doing both jobs.

    Numbers only: which of the two was faster is stated, never why (no measurement here tests a cause).
    """
    text = t('parallel.verdict.serial', together=together, serial=serial, speedup=serial / together,
             slower=max(alone))
    if baseline is not None:
        key = ('parallel.verdict.base_same' if _close(together, baseline) else
               'parallel.verdict.base_beaten' if together < baseline else 'parallel.verdict.base_lost')
        ratio = together / baseline if key.endswith('lost') else baseline / together  # always 'x as fast', above 1
        text = _sentences(text, t(key, baseline=baseline, ratio=ratio, noise=NOISE))
    return text


def overview_text(result, closed_form: float, timeline=None) -> str:
    """13.3.0's verdict: measured against the expectation from the lanes' own times; a reason only where measured.

    The closed form assumes equal lanes; when the lanes' measured times differ, a sentence says so with
    the numbers. A gap beyond NOISE is called "within the repeats' spread" only when the range of the
    together repeats covers the expectation; else, given a `timeline`, the expectation is redone at the
    time per product measured while both lanes were busy, and named only if that matches the measurement.
    """
    measured, expected = result.speedup, result.expected_speedup
    times = repeats_of(result.together)
    low, high = result.serial_sum / max(times), result.serial_sum / min(times)
    fields = dict(measured=measured, expected=expected, tolerance=NOISE, low=low, high=high)
    if abs(measured / expected - 1) <= NOISE:
        key = 'overview.verdict.as_expected'
    elif low <= expected <= high:
        key = 'overview.verdict.within_spread'
    else:
        key = 'overview.verdict.below' if measured < expected else 'overview.verdict.above'
    text = t(key, **fields)
    if abs(expected / closed_form - 1) > NOISE:  # measured: the lanes alone did not take equal times
        alone = ' / '.join(f'{m.median:.3f}' for m in result.lane_times)
        text = _sentences(text, t('overview.verdict.unequal', times=alone, expected=expected, closed=closed_form))
    shared = predict_at(product_seconds(timeline), result.iters) if timeline is not None else None
    if key in ('overview.verdict.below', 'overview.verdict.above') and shared:
        at_shared = result.serial_sum / shared
        if abs(measured / at_shared - 1) <= NOISE and abs(at_shared / expected - 1) > NOISE:
            text = _sentences(text, t('parallel.gap.shared_speedup', shared=at_shared, noise=NOISE))
    return text


def overview_summary(result) -> str:
    """13.3.0's summary point 1: lanes sharing cores are not called devices and are set against all the cores."""
    if result.baseline is not None:
        return t('overview.summary.shared', cores=result.baseline_cores, speedup=result.speedup,
                 vs_all=result.baseline.median / result.together.median)
    return t('overview.summary.separate', speedup=result.speedup, expected=result.expected_speedup)


def recorded_summary(rec) -> str:
    """13.3.0's summary, the recorded GPU run: which lanes, how many products each, and its speedup."""
    p = rec.parallel[0]
    names = _recorded_labels(rec, text=t)
    products = _products([names.get(lane['label'], lane['label']) for lane in p.lanes], p.iters, text=t)
    return t('overview.summary.gpu', gpu=rec.machine['gpus'][0], date=rec.machine.get('date', '')[:10],
             products=products, size=p.size, speedup=p.speedup, expected=p.expected_speedup)


def guess_text(guess, closed_form: float, measured: float, unit: str = 's', name: str = 'my_guess') -> str:
    """A prediction cell's answer: the learner's guess (or a request for one), the closed form, the measurement."""
    fmt = {'s': 'parallel.guess.seconds', '%': 'parallel.guess.fraction', 'x': 'parallel.guess.ratio'}[unit]
    head = (t('parallel.guess.none', name=name) if guess is None else
            t(fmt, what=t('parallel.guess.yours'), value=float(guess)))
    return '\n'.join([head, t(fmt, what=t('parallel.guess.closed_form'), value=closed_form),
                      t(fmt, what=t('parallel.guess.measured'), value=measured)])


def lane_intervals(result) -> list[tuple[float, float]]:
    """Each lane's busy interval in a timeline: from its first product's start to its last product's end."""
    out = []
    for label in result.lanes:
        mine = [e for e in result.events if e['lane'] == label or e['lane'].startswith(label)]
        out.append((min(e['start'] for e in mine), max(e['end'] for e in mine)) if mine else (0.0, 0.0))
    return out


def lane_overlap(result) -> float | None:
    """Of the shorter lane's busy time, the fraction another lane was busy too (d2l_ext.overlap; in [0, 1])."""
    from ..overlap import overlap_fraction, union
    spans = lane_intervals(result)
    shortest = min(range(len(spans)), key=lambda i: spans[i][1] - spans[i][0])
    return overlap_fraction([spans[shortest]], union(s for j, s in enumerate(spans) if j != shortest))


def overlap_text(result, serial: float | None = None, together: float | None = None,
                 expected: float | None = None, alone: list[float] | None = None, labels=None,
                 repeats: list[float] | None = None) -> str:
    """One overlap, three numbers: the interval fraction and its prediction, the wall-clock saving beside its
    prediction (`expected`: the predicted together-time), and each lane's time per product while every lane
    was busy against alone (`alone`: seconds per product, in lane order), which shows what the overlap cost.
    `labels` name the lanes in the language in use (lane order), whatever language the timeline was made in.
    `repeats` (together's) add the prediction's gap, tested against the speed measured side by side here.
    """
    spans = lane_intervals(result)
    fraction = lane_overlap(result)
    span = max(b for _, b in spans) - min(a for a, _ in spans)
    parts = [t('parallel.overlap.fraction', measured=fraction if fraction is not None else 0.0, predicted=1.0,
               busy=' / '.join(f'{b - a:.3f}' for a, b in spans), span=span)]
    if serial is not None and together is not None:
        parts.append(wall_text(serial, together, expected))
    if alone is not None:
        parts.append(speed_text(result, alone, labels))
    if repeats and expected is not None:
        parts.append(gap_text(t('parallel.gap.together'), expected, list(repeats),
                              predict_at(product_seconds(result), result.iters)))
    return _sentences(*[p for p in parts if p])


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


def _engine(r, text=t) -> str:
    """The engine's name; `text=style.plot_text` inside figures, so it follows the figure's language."""
    return text('parallel.eager') if r.engine == 'eager' else r.engine


def independence_text(r) -> str:
    """Exercise 1: the numbers, then whether the framework overlapped one run's products by itself."""
    key = 'parallel.independence.summary' if r.threads else 'parallel.independence.summary_gpu'  # no GPU 'threads'
    head = t(key, framework=NAMES[r.framework], engine=_engine(r), lane=r.lane,
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
    if getattr(result, 'baseline', None) is not None:  # lanes sharing cores: one lane with all of them, both jobs
        names.append(style.plot_text('parallel.variant.all_cores', cores=result.baseline_cores))
        values.append(repeats_of(result.baseline))
    together = names[len(result.lane_times)]  # the expectation is for all lanes together, not the baseline row
    return plot_repeats(dict(zip(names, values)), ax=ax, predicted={together: result.expected},
                        title=title or style.plot_text('parallel.plot_title', framework=NAMES[result.framework],
                                                       speedup=result.speedup, expected=result.expected_speedup))


def plot_timeline(result, ax=None, title=None, predicted=None):
    """When each product ran on each lane, in one run of all lanes together (13.3.1).

    `predicted`: each lane's predicted end in seconds, in lane order (a list), so it matches the rows
    whatever language their labels were made in; a number draws one line for the total.
    """
    rows = {label: style.lane_role(i) for i, label in enumerate(result.lanes)}
    if result.framework == 'mxnet':  # rows are (context, engine worker): colour by the context
        rows = None
    if isinstance(predicted, (list, tuple)):
        predicted = dict(zip(result.lanes, predicted))
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
                                                      engine=_engine(r, style.plot_text), ratio=r.ratio))
    return fig


def plot_small_ops(r, ax=None):
    """Exercise 2: every repeat of each way to run many small products on one device, the fastest in the title."""
    fastest = min(r.times, key=lambda k: r.times[k].median)
    return plot_variants(r, ax=ax, title=style.plot_text('parallel.small_ops.title', device=r.device,
                                                         variant=variant_name('parallel', fastest)))


def _recorded_labels(rec, text=style.plot_text) -> dict[str, str]:
    """{label saved in the recording: the same lane named in the plot language}: the label is made when drawn."""
    cores = rec.machine['cpu_cores']
    gpus = rec.machine.get('gpus') or ['']
    names = {}
    for p in rec.parallel:
        for lane in p.lanes:
            if lane['kind'] == 'gpu':
                names[lane['label']] = text('core.lane_gpu_label_named', index=lane['index'],
                                            name=gpus[min(lane['index'], len(gpus) - 1)])
            elif lane.get('threads'):
                names[lane['label']] = text('core.lane_cpu_label', threads=lane['threads'], cores=cores)
    return names


def _products(labels, iters, text=style.plot_text) -> str:
    """'GPU 0 (NVIDIA H200) 1442 products, CPU (15 of 16 cores) 33 products', from the recording's data."""
    return text('parallel.recorded.sep').join(text('parallel.recorded.products', lane=lane, iters=k)
                                              for lane, k in zip(labels, iters))


def _wrapped(text: str) -> str:
    """A long title on lines that fit the figure (Chinese characters are twice as wide as Latin ones)."""
    import textwrap
    return textwrap.fill(text, 42 if style.plot_language() == 'zh' else 75)


def recorded_figure(rec, max_bars: int = 200):
    """A GPU recording's 13.3.1 evidence, as 13.3.0 and 13.3.1 both draw it: every repeat, then one run's timeline.

    Titles are made from the recording: products per lane, matrix size, which run, machine and date.
    A lane with more than `max_bars` products is drawn as its busy stretches, and its title says so.
    """
    import dataclasses

    from .timeline import aggregate
    names = _recorded_labels(rec)
    gpu, date = rec.machine['gpus'][0], rec.machine.get('date', '')[:10]
    p = rec.parallel[0]
    lanes = [dict(lane, label=names.get(lane['label'], lane['label'])) for lane in p.lanes]
    fig, axes = style.figure(nrows=2 if rec.timelines else 1, height=7.6 if rec.timelines else 4.0)
    top = axes[0] if rec.timelines else axes
    plot_parallel(dataclasses.replace(p, lanes=lanes), ax=top, title=_wrapped(style.plot_text(
        'parallel.recorded.panel', gpu=gpu, date=date, size=p.size, products=_products([x['label'] for x in lanes],
                                                                                       p.iters),
        speedup=p.speedup, expected=p.expected_speedup)))
    if rec.timelines:
        tl = rec.timelines[0]
        labels = [names.get(x, x) for x in tl.lanes]
        events, merged = aggregate([dict(e, lane=names.get(e['lane'], e['lane'])) for e in tl.events], max_bars)
        note = style.plot_text('parallel.recorded.merged' if merged else 'parallel.recorded.each',
                               lanes=style.plot_text('parallel.recorded.sep').join(merged))
        plot_timeline(dataclasses.replace(tl, lanes=labels, events=events), ax=axes[1],
                      title=_wrapped(style.plot_text('parallel.recorded.timeline', size=tl.size,
                                                     products=_products(labels, tl.iters), note=note)))
    return fig


def recorded_overlap_text(rec) -> str:
    """The recorded run's lane overlap beside its prediction and the recorded wall-clock times (13.3.0, 13.3.1).

    The repeats and the timeline are different runs of the recording: each lane's time per product in both
    is printed, so a timeline that does not look like the repeats above it is stated, with its numbers (that
    also gives each lane's speed side by side, in the timeline, against the repeats of the lane alone).
    """
    if not rec.timelines:
        return ''
    p, tl = rec.parallel[0], rec.timelines[0]
    names = _recorded_labels(rec, text=t)
    labels = [names.get(x, x) for x in tl.lanes]
    text = overlap_text(tl, serial=p.serial_sum, together=p.together.median, expected=p.expected)
    runs = [t('parallel.recorded.run_lane', lane=label, repeats_k=k, repeats_s=m.median, repeats_ms=m.median / k * 1e3,
              timeline_k=k2, timeline_s=b - a, timeline_ms=(b - a) / k2 * 1e3)
            for label, m, k, k2, (a, b) in zip(labels, p.lane_times, p.iters, tl.iters, lane_intervals(tl)) if k and k2]
    return _sentences(text, t('parallel.recorded.runs', lanes=t('parallel.speed.sep').join(runs)))
