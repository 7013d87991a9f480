"""13.3.0 and 13.3.1's recorded GPU run: its figure, overlap sentence and summary, labelled when drawn.

A recording stores lane ids (Lane.as_dict) and events keyed by lane id; every label here is made
from those ids in the language of the text or figure being drawn.
"""
from __future__ import annotations

from ..i18n import t
from ..lanes import Lane
from ..recorded import provenance_phrase
from . import style
from .lane_timeline import lane_intervals, lane_labels, overlap_text, plot_timeline, timeline_rows
from .parallel import (
    _result_above_two,
    _sentences,
    balance_text,
    baseline_text,
    no_wait_text,
    plot_parallel,
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
    return _sentences(head, baseline_text(Lane.from_dict(p.baseline_lane).label, p.baseline, p.together,
                                          p.serial_sum))


def recorded_comm_summary(rec) -> str:
    """13.3.0's summary point 2, from the recording of 13.3.2: computing alone, then computing and copying each result
    to the host on the same stream and with a copy stream and events, into the same buffers (named: pinned or
    pageable, reused or new), with the size and the recording's date; '' where the recording has no such pair.
    """
    c = rec.comm[0] if rec is not None and getattr(rec, 'comm', None) else None
    if c is None:
        return ''
    two = min((r for r in c.rows if r.expectation == 'separate'), key=lambda r: r.overlapped, default=None)
    if two is None:
        return ''
    same = two.plan.replace('side stream', 'same stream')  # the same buffers, on one stream: only the stream differs
    one = next((r for r in c.rows if r.plan == same and r.expectation != 'separate'), None)
    if one is None:
        return ''
    memory = 'pinned' if 'pinned' in two.plan else 'pageable'
    reuse = 'prealloc' if 'prealloc' in two.plan else 'fresh'
    date = (c.machine or rec.machine).get('date', '')[:10]
    return t('overview.summary.comm', gpu=rec.machine['gpus'][0], date=date, iters=c.iters, size=c.size,
             run=one.run, one=one.overlapped, two=two.overlapped, buffers=t(f'overview.buffers.{memory}.{reuse}'))


def recorded_sync_text(rec) -> str:
    """The recorded sync figure's numbers (13.3.1): no wait against every device, and the book's synchronize().

    Chosen by the GPUs the recording's sync run used: on one GPU "every device" and "the current device" are that
    GPU, so the book's call and the wait for every device must agree there; telling them apart needs two GPUs.
    """
    sync = rec.sync_mistake
    if sync is None or not sync.times:
        return ''
    times = {name: m.repeated() for name, m in sync.times.items()}
    iters = sync.iters if isinstance(sync.iters, (list, tuple)) else [sync.iters] * len(sync.lanes)
    work = t('parallel.recorded.sync_work', work=_products(lane_labels(sync.lanes), iters, text=t), size=sync.size,
             repeats=max(len(ts) for ts in times.values()))
    gpus = len({lane.get('index') for lane in sync.lanes if lane.get('kind') == 'gpu'})
    if gpus == 1 and 'book_synchronize' in times:  # the book's row is said once, with why the two waits agree
        return _sentences(work, no_wait_text({k: v for k, v in times.items() if k != 'book_synchronize'}),
                          t('parallel.recorded.sync_one_gpu', book=sync.times['book_synchronize'].median,
                            waited=sync.times['every_device'].median))
    return _sentences(work, t('parallel.recorded.sync_gpus', gpus=gpus) if gpus > 1 else '', no_wait_text(times))


def recorded_sync_title(rec) -> str:
    """The recorded sync figure's title, in the plot language: the GPU, when it was recorded, and the workload timed
    ('one GPU, 50 products of 4000x4000'; each GPU lane's products where it used several) (13.3.1)."""
    sync = rec.sync_mistake
    iters = sync.iters if isinstance(sync.iters, (list, tuple)) else [sync.iters] * len(sync.lanes)
    gpu_lanes = [(lane, k) for lane, k in zip(sync.lanes, iters) if lane.get('kind') == 'gpu']
    work = (style.plot_text('parallel.recorded.sync_one', iters=gpu_lanes[0][1]) if len(gpu_lanes) == 1 else
            _products(lane_labels([lane for lane, _ in gpu_lanes], style.plot_language()),
                      [k for _, k in gpu_lanes]))
    return _wrapped(style.plot_text('parallel.recorded_sync_dated', gpu=rec.machine['gpus'][0],
                                    date=rec.machine.get('date', '')[:10], work=work, size=sync.size))


def plot_recorded_sync(rec):
    """The recorded sync run (every repeat of each way of waiting) under recorded_sync_title (13.3.1)."""
    from .parallel import plot_variants
    return plot_variants(rec.sync_mistake, title=recorded_sync_title(rec))


def _products(labels, iters, text=style.plot_text) -> str:
    """'GPU 0 (NVIDIA H200) 1442 products, CPU (15 of 16 cores) 33 products', from the recording's data."""
    return text('parallel.recorded.sep').join(text('parallel.recorded.products', lane=lane, iters=k)
                                              for lane, k in zip(labels, iters))


NBSP = '\u00a0'
# a title line's width in ems as timeline.text_ems counts them: 75 Latin letters (their drawn width is nearer
# 0.53 em than the 0.62 counted); 39 Chinese characters, the width of the axes at the title's size
TITLE_EMS = {'en': 75 * 0.62, 'zh': 39.0}
_NO_LINE_START = set('）)，,。：:；;、”！？')  # closing marks stay on the line of what they close
_NO_LINE_END = set('（(“')


def _wide(c: str) -> bool:
    import unicodedata
    return unicodedata.east_asian_width(c) in 'WF'


def _wrapped(text: str, ems: float | None = None) -> str:
    """A long title on lines that fit the figure, measured in ems (a Chinese character is twice a Latin letter's width).

    Lines break at spaces and, in Chinese, between characters, never before a closing mark or after an opening one.
    A number stays on the line of the word after it ('26 个乘积', '26 products') and of the word before it
    ('GPU 0', '第 2 次'): the space between them is held by a no-break space while wrapping, then given back.
    """
    import re

    from .timeline import text_ems
    ems = ems or TITLE_EMS.get(style.plot_language(), TITLE_EMS['en'])
    held = re.sub(r'(\d) (?=[^\W\d_])|(?<=[^\W\d_]) (?=\d)', lambda m: (m[1] or '') + NBSP, text)
    pieces, piece = [], ''  # the text cut at every place a line may break; a space stays with the piece before it
    for i, c in enumerate(held):
        before = held[i - 1] if i else ''
        if piece and (before == ' ' or (c != ' ' and NBSP not in (before, c) and (_wide(before) or _wide(c))
                                        and c not in _NO_LINE_START and before not in _NO_LINE_END)):
            pieces.append(piece)
            piece = ''
        piece += c
    pieces.append(piece)
    lines, line = [], ''
    for piece in pieces:
        if line and text_ems((line + piece).rstrip(' ')) > ems:
            lines.append(line.rstrip(' '))
            line = ''
        line += piece
    lines.append(line.rstrip(' '))
    return '\n'.join(lines).replace(NBSP, ' ')


def recorded_figure(rec, max_bars: int = 200):
    """A GPU recording's 13.3.1 evidence, as 13.3.0 and 13.3.1 both draw it: every repeat, then one run's timeline.

    Titles are made from the recording: products per lane, matrix size, which run, machine and date.
    A lane with more than `max_bars` products is drawn as its busy stretches; the timeline's title says, lane by
    lane, what its bars are (busy stretches, or one bar per product, back to back where they touch).
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
        plot_timeline(dataclasses.replace(tl, events=events), ax=axes[1],
                      title=_wrapped(style.plot_text(
                          'parallel.recorded.timeline' if tl.repeat is None else 'parallel.recorded.timeline_repeat',
                          size=tl.size, rows=timeline_rows(tl, merged, lang),
                          index=(tl.repeat or 0) + 1, repeats=p.together.repeats)))
    return fig


def recorded_overlap_text(rec, baseline: bool = False, here: dict | None = None) -> str:
    """The recorded run's lane overlap beside its prediction and the recorded wall-clock times (13.3.0, 13.3.1).

    First each lane's time alone (the counts aimed at equal times: balance_text says how close they came).
    `baseline`: end with one device doing both lanes' work against together (13.3.1; 13.3.0 says it in its
    summary), where the recording has that run. The recording is named by recorded.provenance_phrase (`here`: this
    machine, for tests).

    Newer recordings draw the repeat of "together" timed as the median, and say so. In older ones the repeats
    and the timeline are different runs: each lane's time per product in both is printed, so a timeline that
    does not look like the repeats above it is stated, with its numbers (that
    also gives each lane's speed side by side, in the timeline, against the repeats of the lane alone).
    """
    if not rec.timelines:
        return ''
    p, tl = rec.parallel[0], rec.timelines[0]
    other = t('parallel.recorded.not_this_run', gpu=rec.machine['gpus'][0], date=rec.machine.get('date', '')[:10],
              products=_products(lane_labels(p.lanes), p.iters, text=t), size=p.size,
              provenance=t(provenance_phrase(rec, here)))
    aimed = len({lane.get('kind') for lane in p.lanes}) > 1  # GPU beside CPU: counts chosen from measured rates
    other = _sentences(other, balance_text(lane_labels(p.lanes), [m.median for m in p.lane_times], aimed=aimed))
    tail = ''
    if baseline and p.baseline is not None and p.baseline_lane is not None:
        tail = '\n' + baseline_text(Lane.from_dict(p.baseline_lane).label, p.baseline, p.together, p.serial_sum)
    if tl.repeat is not None:  # the timeline is the repeat of "together" timed as the median: one run, no second
        return other + '\n' + overlap_text(tl, serial=p.serial_sum, together=p.together.median, expected=p.expected,
                            alone=[m.median / k for m, k in zip(p.lane_times, p.iters)],
                            labels=lane_labels(tl.lanes), repeats=p.together.repeated(),
                            median_repeat=tl.repeat) + tail
    text = overlap_text(tl, serial=p.serial_sum, together=p.together.median, expected=p.expected)
    runs = [t('parallel.recorded.run_lane', lane=label, repeats_k=k, repeats_s=m.median, repeats_ms=m.median / k * 1e3,
              timeline_k=k2, timeline_s=b - a, timeline_ms=(b - a) / k2 * 1e3)
            for label, m, k, k2, (a, b) in zip(lane_labels(tl.lanes), p.lane_times, p.iters, tl.iters,
                                               lane_intervals(tl)) if k and k2]
    return other + '\n' + _sentences(text, t('parallel.recorded.runs', lanes=t('parallel.speed.sep').join(runs))) + tail
