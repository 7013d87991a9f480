"""13.3.0 and 13.3.1's recorded GPU run: its figure, overlap sentence and summary, labelled when drawn.

A recording stores lane ids (Lane.as_dict) and events keyed by lane id; every label here is made
from those ids in the language of the text or figure being drawn.
"""
from __future__ import annotations

from ..i18n import t
from ..lanes import Lane
from ..parallel.core import row_label
from . import style
from .parallel import (
    _result_above_two,
    _sentences,
    baseline_text,
    lane_intervals,
    lane_labels,
    no_wait_text,
    overlap_text,
    plot_parallel,
    plot_timeline,
)


def recorded_summary(rec) -> str:
    """13.3.0's summary, the recorded GPU run: which lanes, how many products each, its speedup, and one device
    doing both lanes' work beside it where the recording has that run (else it says the recording lacks it)."""
    p = rec.parallel[0]
    products = _products(lane_labels(p.lanes), p.iters, text=t)
    head = t('overview.summary.gpu', gpu=rec.machine['gpus'][0], date=rec.machine.get('date', '')[:10],
             products=products, size=p.size, speedup=p.speedup, expected=p.expected_speedup)
    head = _sentences(head, _result_above_two(p))
    if p.baseline is None or p.baseline_lane is None:
        return _sentences(head, t('overview.summary.no_base'))
    return _sentences(head, baseline_text(Lane.from_dict(p.baseline_lane).label, p.baseline.median,
                                          p.together.median, p.serial_sum))


def recorded_sync_text(rec) -> str:
    """The recorded sync figure's numbers (13.3.1): no wait against every device, and the book's synchronize().

    Chosen by the GPUs the recording's sync run used: on one GPU "every device" and "the current device" are that
    GPU, so the book's call and the wait for every device must agree there; telling them apart needs two GPUs.
    """
    sync = rec.sync_mistake
    if sync is None or not sync.times:
        return ''
    times = {name: m.repeated() for name, m in sync.times.items()}
    text = no_wait_text(times)
    gpus = len({lane.get('index') for lane in sync.lanes if lane.get('kind') == 'gpu'})
    if 'book_synchronize' in times:
        key = 'parallel.recorded.sync_one_gpu' if gpus == 1 else 'parallel.recorded.sync_gpus'
        text = _sentences(text, t(key, gpus=gpus, book=sync.times['book_synchronize'].median,
                                  waited=sync.times['every_device'].median))
    return text


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
    lang = style.plot_language()
    gpu, date = rec.machine['gpus'][0], rec.machine.get('date', '')[:10]
    p = rec.parallel[0]
    fig, axes = style.figure(nrows=2 if rec.timelines else 1, height=7.6 if rec.timelines else 4.0)
    top = axes[0] if rec.timelines else axes
    plot_parallel(p, ax=top, title=_wrapped(style.plot_text(
        'parallel.recorded.panel', gpu=gpu, date=date, size=p.size, products=_products(lane_labels(p.lanes, lang),
                                                                                       p.iters),
        speedup=p.speedup, expected=p.expected_speedup)))
    if rec.timelines:
        tl = rec.timelines[0]
        events, merged = aggregate(tl.events, max_bars)
        note = style.plot_text('parallel.recorded.merged' if merged else 'parallel.recorded.each',
                               lanes=style.plot_text('parallel.recorded.sep').join(
                                   row_label(row, tl.lanes, lang) for row in merged))
        plot_timeline(dataclasses.replace(tl, events=events), ax=axes[1],
                      title=_wrapped(style.plot_text(
                          'parallel.recorded.timeline' if tl.repeat is None else 'parallel.recorded.timeline_repeat',
                          size=tl.size, products=_products(lane_labels(tl.lanes, lang), tl.iters), note=note,
                          index=(tl.repeat or 0) + 1, repeats=p.together.repeats)))
    return fig


def recorded_overlap_text(rec) -> str:
    """The recorded run's lane overlap beside its prediction and the recorded wall-clock times (13.3.0, 13.3.1).

    Newer recordings draw the repeat of "together" timed as the median, and say so. In older ones the repeats
    and the timeline are different runs: each lane's time per product in both is printed, so a timeline that
    does not look like the repeats above it is stated, with its numbers (that
    also gives each lane's speed side by side, in the timeline, against the repeats of the lane alone).
    """
    if not rec.timelines:
        return ''
    p, tl = rec.parallel[0], rec.timelines[0]
    other = t('parallel.recorded.not_this_run', gpu=rec.machine['gpus'][0], date=rec.machine.get('date', '')[:10],
              products=_products(lane_labels(p.lanes), p.iters, text=t), size=p.size)
    if tl.repeat is not None:  # the timeline is the repeat of "together" timed as the median: one run, no second
        return other + '\n' + overlap_text(tl, serial=p.serial_sum, together=p.together.median, expected=p.expected,
                            alone=[m.median / k for m, k in zip(p.lane_times, p.iters)],
                            labels=lane_labels(tl.lanes), repeats=p.together.repeated(), median_repeat=tl.repeat)
    text = overlap_text(tl, serial=p.serial_sum, together=p.together.median, expected=p.expected)
    runs = [t('parallel.recorded.run_lane', lane=label, repeats_k=k, repeats_s=m.median, repeats_ms=m.median / k * 1e3,
              timeline_k=k2, timeline_s=b - a, timeline_ms=(b - a) / k2 * 1e3)
            for label, m, k, k2, (a, b) in zip(lane_labels(tl.lanes), p.lane_times, p.iters, tl.iters,
                                               lane_intervals(tl)) if k and k2]
    return other + '\n' + _sentences(text, t('parallel.recorded.runs', lanes=t('parallel.speed.sep').join(runs)))
