"""13.3.0/13.3.1's lane timelines: which bars a lane drew, its interval overlap in words, the prediction redone
at the speeds the lanes ran side by side, and the timeline plot with a caption from the data."""
from __future__ import annotations

from ..frameworks import framework
from ..i18n import t
from ..lanes import Lane
from ..parallel.core import row_label
from ..parallel.sharing import events_of, predict_at, product_seconds
from ..results import NOISE
from ..results import close as _close
from . import style
from .gaps import _sentences, gap_text, source_label, speed_text
from .parallel import _shown, wall_text
from .timeline import draw_timeline

MAX_BARS = 200  # a lane with more products is drawn as its busy stretches (timeline.aggregate), and said so


def lane_labels(lanes, lang: str | None = None) -> list[str]:
    """The labels of a result's lanes (their ids, Lane.as_dict) in `lang` (default: the current language)."""
    return [Lane.from_dict(lane).label_in(lang) for lane in lanes]


def lane_intervals(result) -> list[tuple[float, float]]:
    """Each lane's busy interval in a timeline: from its first product's start to its last product's end."""
    out = []
    for lane in result.lanes:
        mine = events_of(result, lane)
        out.append((min(e['start'] for e in mine), max(e['end'] for e in mine)) if mine else (0.0, 0.0))
    return out


def lane_overlap(result) -> float | None:
    """Of the shorter lane's busy time, the fraction another lane was busy too (d2l_ext.overlap; in [0, 1])."""
    from ..overlap import overlap_fraction, union
    spans = lane_intervals(result)
    shortest = min(range(len(spans)), key=lambda i: spans[i][1] - spans[i][0])
    return overlap_fraction([spans[shortest]], union(s for j, s in enumerate(spans) if j != shortest))


def redone_text(per_product: list[float], iters: list[int], labels: list[str]) -> str:
    """The together-time predicted again at each lane's time per product while every lane was busy (a timeline):
    max over the lanes of products x time per product, each term printed, labelled so (13.3.0, 13.3.1)."""
    terms = t('parallel.speed.sep').join(t('parallel.speed.term', lane=label, iters=k, ms=p * 1e3, seconds=p * k)
                                         for label, k, p in zip(labels, iters, per_product))
    return t('parallel.speed.redone', terms=terms, seconds=predict_at(per_product, iters),
             Source=source_label('side_by_side', capital=True))


def _sep(sep: str, parts: list[str]) -> str:
    """The non-empty parts joined by the language's comma (parallel.recorded.sep)."""
    return t('parallel.recorded.sep').join(p for p in parts if p)


def span_text(result, per_product: list[float | None], labels: list[str]) -> str:
    """Each lane's span in a timeline (its first start to its last end) against products x median time per product,
    for the lanes whose span exceeds that by more than NOISE (13.3.0, 13.3.1); '' where none does.

    The median per product says how long one product took; the span is what the lane's row covers. Each such lane
    gets its numbers: the excess, the products' own time in all, and the part of the span between products. No cause.
    """
    rows = []
    for label, lane, k, p, (a, b) in zip(labels, result.lanes, result.iters, per_product, lane_intervals(result)):
        mine = events_of(result, lane)
        if p is None or not mine or (b - a) <= k * p * (1 + NOISE):
            continue
        busy, extra = sum(e['end'] - e['start'] for e in mine), (b - a) - k * p
        gaps, longer = (b - a) - busy, busy - k * p  # between products; products beyond k x the median
        rows.append(_sep(', ', [t('parallel.speed.span_lane', lane=label, span=b - a, iters=k, ms=p * 1e3,
                                  product=k * p, extra=extra),
                                t('parallel.speed.span_longer', busy=busy, longer=longer) if round(longer, 3) > 0
                                else '',
                                t('parallel.speed.span_gaps', gaps=gaps) if round(gaps, 3) > 0 else '']))
    return t('parallel.speed.span', lanes=t('parallel.speed.sep').join(rows), noise=NOISE) if rows else ''


def overlap_text(result, serial: float | None = None, together: float | None = None,
                 expected: float | None = None, alone: list[float] | None = None, labels=None,
                 repeats: list[float] | None = None, expected_serial: float | None = None,
                 alone_from: str = 'medians', median_repeat: int | None = None, source: str = 'alone',
                 serial_source: str | None = None) -> str:
    """One overlap, three numbers: the interval fraction and its prediction, the wall-clock saving beside its
    prediction (`expected`: the predicted together-time), and each lane's time per product while every lane
    was busy against alone (`alone`: seconds per product, in lane order), which shows what the overlap cost.
    `labels` name the lanes (lane order); by default the timeline's lanes labelled in the current language.
    `repeats` (together's) add the prediction's gap, tested against the speed measured side by side here.
    `expected_serial`: one after the other as predicted, the base of the predicted saving (see wall_text).
    `alone_from`: 'rates' when `alone` comes from a rate cell rather than the lanes' timed medians (speed_text).
    `median_repeat`: the timeline is that repeat (its index in `repeats`) of together, the median one
    (parallel.Together); it is said so, else a timeline paced unlike the repeats is called another run.
    `source`, `serial_source` (gaps.SOURCES): what `expected` and `expected_serial` are made from ('alone': each
    lane's timed medians alone; 13.3.1's live run: 'rates' or 'rates_both'), said beside each prediction.
    """
    spans = lane_intervals(result)
    fraction = lane_overlap(result)
    span = max(b for _, b in spans) - min(a for a, _ in spans)
    parts = [t('parallel.overlap.fraction', measured=fraction if fraction is not None else 0.0, predicted=1.0,
               busy=' / '.join(f'{b - a:.3f}' for a, b in spans), span=span)]
    per_product = product_seconds(result)
    redone = predict_at(per_product, result.iters)  # max(products x time per product side by side), or None
    if median_repeat is not None and repeats:
        key = 'parallel.speed.median_repeat' if redone and alone is not None else 'parallel.speed.median_repeat_plain'
        parts.append(t(key, index=median_repeat + 1, repeats=len(repeats), wall=repeats[median_repeat]))
    if serial is not None and together is not None:
        parts.append(wall_text(serial, together, expected, expected_serial, source, serial_source))
    if alone is not None:
        parts.append(speed_text(result, alone, labels or lane_labels(result.lanes), alone_from))
        if redone:  # the prediction redone at those times: printed, so the sentence above is true
            parts.append(redone_text(per_product, result.iters, labels or lane_labels(result.lanes)))
            parts.append(span_text(result, per_product, labels or lane_labels(result.lanes)))
        if median_repeat is None and together is not None and not _close(span, together):  # paced unlike them
            parts.append(t('parallel.speed.other_run', span=span, together=together))
    if repeats and expected is not None:
        parts.append(gap_text(t('parallel.gap.together'), expected, list(repeats), redone, source))
    return _sentences(*[p for p in parts if p])


def timeline_rows(tl, merged: dict, lang: str | None = None, text=None) -> str:
    """A timeline's caption, row by row: what each lane's bars are, as drawn (13.3.0, 13.3.1, live and recorded).

    A merged lane (timeline.aggregate) is its busy stretches; any other lane has one bar per product, and where its
    products ran back to back (every gap below timeline.THIN_FRACTION of the run) the caption says so: the bars
    touch and are told apart by their edges (draw_timeline), not by gaps. `text`: t for printed text, plot_text
    (the default) inside a figure.
    """
    from .timeline import back_to_back
    text = text or style.plot_text
    lang = lang or style.plot_language()
    rows = []
    for lane, k in zip(tl.lanes, tl.iters):
        label = row_label(lane['name'], tl.lanes, lang)
        key = ('parallel.recorded.row_merged' if lane['name'] in merged else
               'parallel.recorded.row_touching' if back_to_back(tl.events, lane['name']) else
               'parallel.recorded.row_each')
        rows.append(text(key, lane=label, iters=k))
    return text('parallel.speed.sep').join(rows)


def timeline_caption(tl, max_bars: int = MAX_BARS) -> str:
    """What plot_timeline(tl, max_bars=...) draws for each lane, from the data, in the current language (13.3.1).

    A timeline whose rows are engine workers (MXNet) gets engine_caption: its bars are numbered across all rows.
    """
    from ..i18n import language
    from .timeline import aggregate
    if framework(tl.framework).worker_rows:
        return engine_caption(tl)
    return t('parallel.timeline_caption', rows=timeline_rows(tl, aggregate(tl.events, max_bars)[1], language(), t))


def engine_caption(tl) -> str:
    """An engine's timeline (rows are a context's worker threads, MXNet) in words, from the data (13.3.1).

    Which run it is (a run of its own, or the repeat of together timed as the median), what the numbers in the bars
    count (every product, across all rows, in the order they started), and per lane its products, worker rows,
    first start and last end in ms. Numbers only: no cause for when a lane started.
    """
    from ..backends import split_row
    rows = []
    for lane in tl.lanes:
        mine = events_of(tl, lane)
        if not mine:
            continue
        workers = {split_row(e['lane'])[1] for e in mine}
        rows.append(t('parallel.engine.lane', lane=Lane.from_dict(lane).label, iters=len(mine), workers=len(workers),
                      first=min(e['start'] for e in mine) * 1e3, last=max(e['end'] for e in mine) * 1e3))
    which = (t('parallel.engine.own_run') if tl.repeat is None else
             t('parallel.engine.median_repeat', index=tl.repeat + 1))
    return t('parallel.engine.caption', framework=_shown(tl.framework), which=which, products=len(tl.events),
             rows=t('parallel.speed.sep').join(rows))


def plot_timeline(result, ax=None, title=None, predicted=None, max_bars: int | None = None):
    """When each product ran on each lane, in one run of all lanes together (13.3.1).

    Rows are lane ids (or a lane's engine workers, MXNet), labelled here in the plot language.
    `predicted`: each lane's predicted end in seconds, in lane order (a list); a number draws one line for the total.
    `max_bars`: a lane with more products is drawn as its busy stretches (timeline_caption says which).
    """
    if max_bars is not None:
        import dataclasses

        from .timeline import aggregate
        result = dataclasses.replace(result, events=aggregate(result.events, max_bars)[0])
    ids = [lane['name'] for lane in result.lanes]
    rows = {name: style.lane_role(i) for i, name in enumerate(ids)}
    if framework(result.framework).worker_rows:  # rows are (lane, engine worker): colour by the lane
        rows = None
    if isinstance(predicted, (list, tuple)):
        predicted = dict(zip(ids, predicted))
    lang = style.plot_language()
    labels = {row: row_label(row, result.lanes, lang) for row in {*ids, *(e['lane'] for e in result.events)}}
    return draw_timeline(result.events, ax=ax, rows=rows, predicted=predicted, row_labels=labels,
                         framework=result.framework,
                         title=title or style.plot_text('parallel.timeline_title',
                                                        framework=_shown(result.framework)))
