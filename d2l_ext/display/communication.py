"""13.3.2's pictures and sentences: this machine's book cells, rates and prediction, each variant's repeats beside
its prediction, the GPU recording's copy modes, the book's first non_blocking copy (first call vs later calls, the
profiler's CPU vs CUDA time), the hazard.
The overlap sentences live in display/communication_overlap.py, the stream timelines in
display/communication_timelines.py, exercises 3 and 4 in display/communication_exercises.py; their public names are
re-exported here (the lesson reads them as show.), and none of them imports this module.

Each plot takes a typed result (or a Comparison) and returns the Figure; each `*_text` returns a
sentence chosen by the measured numbers, so the lesson never states what its output contradicts.
"""
from __future__ import annotations

from ..i18n import t
from ..results import NOISE, close
from . import style
from .communication_exercises import (  # noqa: F401 (re-exported: the lesson reads them as show.)
    EXPECTATIONS,
    exercise_three_alone_text,
    exercise_three_text,
    lane_label,
    plot_exercise_three,
    profile_guess_text,
    profile_text,
)
from .communication_overlap import _wall_text, guess_text, overlap_text, told_apart_text  # noqa: F401 (re-exported)
from .communication_timelines import (  # noqa: F401 (re-exported)
    STREAM_ROWS,
    _flat,
    _mode_name,
    legend_names,
    merge_touching,
    merged_roles,
    plot_comm_timelines,
    timeline_title,
    timelines_missing_text,
)
from .parallel import _sentences, machine_text, variant_name  # noqa: F401 (machine_text: the lesson's first cell)
from .repeats import plot_repeats

REASONS = ('communication.first_copy.no_gpu',)  # keys a FirstCopyResult's reason can hold
RULES = ('separate', 'one_stream', 'own_core', 'shared', 'engine')  # CommRow.expectation: communication.rule.<rule>
SIDE_PLAN = 'pinned, preallocated, copy stream + events'
REUSED_PLAN = 'pageable, preallocated, same stream'  # recorded from 2026-12-04 on


def _name(key: str) -> str:
    return variant_name('communication', key)


# -- this machine: the book's cells, the prediction, the measurement --------------------------------

def copied_text(ys, ys_cpu) -> str:
    """Whether the book's copy_to_cpu made new host tensors or returned the same ones (13.3.2)."""
    same = all(a.data_ptr() == b.data_ptr() for a, b in zip(ys, ys_cpu))
    return t('communication.book.not_copied' if same else 'communication.book.copied')


def book_times_text(run: float, first: float, second: float, gpu: bool) -> str:
    """The book's single timings (13.3.2): run alone, and run plus .to('cpu', non_blocking=True) twice.

    On a GPU it says these are single timings, that a fresh process times the first call once more (once: it is
    the first call into that memory) and later calls with repeats. On a CPU,
    where .to copies nothing, the two .to lines are set against compute alone: within NOISE of it, or their
    ratios with no cause (this run tests none).
    """
    if gpu:
        return t('communication.book.single_gpu')
    key = ('communication.book.single_close' if close(first, run) and close(second, run)
           else 'communication.book.single_apart')
    return t(key, run=run, first=first / run if run > 0 else 0.0, second=second / run if run > 0 else 0.0,
             noise=NOISE)


def prediction_text(rates, iters: int, predicted: dict[str, float], rule: str | None = None) -> str:
    """This machine's rates and what they predict for each variant (13.3.2).

    `rule` (communication.copy_thread_rule on a CPU, 'separate' on a GPU): one more line names the closed form the
    overlapped prediction follows here, the very rule expected_overlap computed it by.
    """
    s = rates.seconds(iters)
    inner = rates.inner or rates.size
    lines = [t('communication.rates.gpu' if rates.gpu else 'communication.rates.cpu', tflops=rates.flops / 1e12,
               gbps=rates.copy_gbps, pageable=rates.pageable_gbps or 0.0, n=rates.size, inner=inner, k=iters,
               tflop=iters * 2 * rates.size ** 2 * inner / 1e12,
               gflop=_two_digits(iters * 2 * rates.size ** 2 * inner / 1e9),
               gb=iters * 4 * rates.size ** 2 / 1e9,
               run=s['run'], copy=s['copy'])]
    lines += [t('communication.predicted_line', name=_name(k), seconds=v) for k, v in predicted.items()]
    if rule is not None:
        lines.append(t('communication.rates.rule', rule=t(f'communication.rule.{rule}')))
    return '\n'.join(lines)


def _two_digits(x: float) -> str:
    """A positive number with two significant digits, never in exponent form (0.64, 6.4, 64, 640)."""
    import math
    if not x > 0:
        return '0'
    r = float(f'{x:.2g}')  # rounded to two significant digits first, so 9.99 becomes 10
    return f'{r:.{max(0, 1 - math.floor(math.log10(r)))}f}'


def overlapped_name(rule: str | None = None) -> str:
    """The 'overlapped' row's name by how run and copy were set up (a copy mode's rule), never one name for all.

    'separate': a copy stream and events; 'one_stream': issued together on one stream; 'shared': a second thread
    copies; 'engine': the framework's engine orders them. Without a rule: the generic name.
    """
    rule = 'shared' if rule == 'own_core' else rule  # a copy thread either way: the name says the setup, not the rule
    key = f'overlapped.{rule}' if rule in OVERLAPPED_RULES else 'overlapped'
    return _name(key)


OVERLAPPED_RULES = ('separate', 'one_stream', 'shared', 'engine')  # keys communication.variant.overlapped.<rule>


def _names(keys, rule: str | None) -> dict[str, str]:
    return {k: overlapped_name(rule) if k == 'overlapped' else _name(k) for k in keys}


def plot_measured(comparison, predicted: dict[str, float], title=None, rule: str | None = None):
    """Every repeat of each variant (run, book, run then copy, overlapped) beside its prediction (13.3.2).

    `rule`: how the overlapped variant ran ('separate' on a GPU: copy stream + events; 'shared' on a CPU: a copy
    thread), so its row says the setup.
    """
    names = _names(comparison.measurements, rule)
    times = {names[k]: list(m.times) for k, m in comparison.measurements.items()}
    pred = {names[k]: v for k, v in predicted.items() if k in comparison.measurements}
    return plot_repeats(times, predicted=pred, title=title or style.plot_text('communication.measured_title'))


# -- recordings: a GPU's evidence, whichever machine reads it ---------------------------------------

def newest(recordings):
    """The most recently recorded GPU recording (by its date, then its file), or None (13.3.2)."""
    gpu = [r for r in recordings if r.gpu]
    return max(gpu, key=lambda r: (r.machine.get('date', ''), r.path)) if gpu else None


def _rows(result) -> dict:
    return {r.mode: r for r in result.rows}


def recorded_text(rec) -> str:
    """The recording's label and what its copy modes show: pageable vs pinned, one stream vs two (13.3.2)."""
    if rec is None or not rec.comm:
        return t('communication.recorded.none')
    rows = _rows(rec.comm[0])
    lines = [rec.label()]
    book, book_nb = rows.get('book: copy_to_cpu(y)'), rows.get('book: copy_to_cpu(y, non_blocking=True)')
    same, side = rows.get('pinned, preallocated, same stream'), rows.get('pinned, preallocated, copy stream + events')
    if book and same:
        lines.append(pageable_text(rec.comm[0], book, same, rows.get(REUSED_PLAN)))
    if book_nb and same:
        key = 'communication.recorded.nb_like_pinned' if close(book_nb.copy, same.copy, of=same.copy) \
            else 'communication.recorded.nb_unlike_pinned'
        lines.append(t(key, nb=book_nb.copy, pinned=same.copy))
    if same and side:
        key = ('communication.recorded.streams' if close(same.overlapped, same.run_then_copy)
               else 'communication.recorded.streams_unlike')
        lines.append(t(key, same=same.overlapped, serial=same.run_then_copy, side=side.overlapped,
                       expected=side.expected))
        o = recorded_overlap(rec)
        if o is not None and o['measured'] is not None:
            lines.append(t('communication.recorded.interval', measured=o['measured'], predicted=o['predicted'],
                           products=o['products'], copies=o['copies']))
            # each panel times its own run then copy: name the panel these medians come from
            lines.append(_sentences(t('communication.recorded.wall_panel'),
                                    _wall_text(side.run_then_copy, side.overlapped, side.expected)))
    return '\n'.join(lines)


def pageable_text(result, book, pinned, reused=None) -> str:
    """New pageable tensors against pinned buffers, and a reused pageable buffer where the data hold one (13.3.2).

    `reused`: the recording's reused-pageable row (every repeat, same size and count as the others); an older
    recording has only its link measurement (one result copied repeatedly into one buffer, pageable and pinned).
    """
    size, k = result.size, result.iters
    gb = k * 4 * size * size / 1e9
    lines = [t('communication.recorded.pageable', gb=gb, book=book.copy, book_gbps=gb / book.copy, pinned=pinned.copy,
               pinned_gbps=gb / pinned.copy, ratio=book.copy / pinned.copy)]
    link = result.link_gbps or {}
    if reused is not None:
        lines.append(t('communication.recorded.reused', seconds=reused.copy, gbps=gb / reused.copy,
                       ratio=reused.copy / pinned.copy, new_ratio=book.copy / reused.copy))
    elif link.get('pageable') and link.get('pinned'):  # one measurement, both memories: compared with each other
        lines.append(t('communication.recorded.reused_link', gbps=link['pageable'], pinned=link['pinned'], n=size,
                       ratio=link['pinned'] / link['pageable']))
    return _sentences(*lines)


def recorded_overlap(rec) -> dict | None:
    """The recorded copy-stream timeline's interval overlap, its closed form from the recorded medians (13.3.2)."""
    from ..communication.core import copy_overlap, predicted_overlap
    side = next((tl for tl in (rec.comm_timelines if rec else []) if tl.plan == SIDE_PLAN), None)
    row = _rows(rec.comm[0]).get(SIDE_PLAN) if rec is not None and rec.comm else None
    if side is None or row is None:
        return None
    o = copy_overlap(side.events)
    k = rec.comm[0].iters
    o['predicted'] = predicted_overlap(row.run / k, row.copy / k, o['copies'])
    return o


def recorded_prediction_text(rec) -> str:
    """The worked answer from a recording's own numbers: rates, then one stream vs copy stream (13.3.2)."""
    if rec is None or not rec.comm:
        return t('communication.recorded.none')
    c = rec.comm[0]
    rows = _rows(c)
    same, book = rows.get('pinned, preallocated, same stream'), rows.get('book: copy_to_cpu(y)')
    if same is None:
        return rec.label()
    from ..communication.core import expected_overlap
    n, k = c.size, c.iters
    tflop, gb = k * 2 * n ** 3 / 1e12, k * 4 * n * n / 1e9
    # max(run, copy), then with the pipeline's fill: the very closed form the copy-stream panel is set against below
    side = rows.get(SIDE_PLAN)
    fill = side.expected if side is not None else expected_overlap(same.run, same.copy, 'separate', iters=k)
    lines = [rec.label(), t('communication.recorded.rates', tflop=tflop, run=same.run, tflops=tflop / same.run, gb=gb,
                            copy=same.copy, gbps=gb / same.copy, one=same.run + same.copy,
                            two=max(same.run, same.copy), fill=fill)]
    if book is not None:
        lines.append(t('communication.recorded.book_rate', book=book.copy, gbps=gb / book.copy))
    return '\n'.join(lines)


def plot_comm_row(row, ax=None, title=None):
    """One copy mode: run, copy, run then copy, overlapped (every repeat), the expectation beside overlapped."""
    names = _names(row.times, row.expectation)  # the overlapped row says its stream setup (one stream or two)
    times = {names[v]: m.repeated() for v, m in row.times.items()}
    return plot_repeats(times, ax=ax, predicted={overlapped_name(row.expectation): row.expected},
                        title=title or row.mode)


def recorded_title(rec, repeats: bool = True) -> str:
    """A recorded figure's title from the recording itself: its GPU and date, and (repeats) what ran."""
    m = rec.machine
    gpu = m['gpus'][0] if m.get('gpus') else '?'
    c = rec.comm[0] if rec.comm else None
    return style.plot_text('communication.recorded.caption' if repeats else 'communication.recorded.source', gpu=gpu,
                           date=m.get('date', '')[:10], iters=c.iters if c else 0, n=c.size if c else 0)


def plot_comm(result, title=None):
    """Every copy mode of a CommResult, one panel each, stacked (13.3.2); `title` above them all."""
    fig, axes = style.figure(nrows=len(result.rows), height=2.8 * len(result.rows) + (0.4 if title else 0))
    for row, ax in zip(result.rows, _flat(axes)):
        plot_comm_row(row, ax=ax, title=_mode_name(row.mode))
    if title:
        fig.suptitle(title)
    return fig


# -- the book's first non_blocking copy -------------------------------------------------------------

def first_copy_text(result, rec=None) -> str:
    """Cold vs warm and the profiler's CPU vs CUDA time for aten::to, or why there is nothing (13.3.2)."""
    if result is None:
        return t('communication.recorded.no_first_copy')
    if result.warm is None:
        return t(result.reason or 'communication.first_copy.no_gpu')
    lines = [rec.label()] if rec is not None else []
    lines.append(t('communication.first_copy.summary', cold=result.cold, warm=result.warm.median,
                   repeats=len(result.warm.repeated()), ratio=result.cold / result.warm.median))
    to = [p for p in result.profile_cold if p.name == 'aten::to']
    if to:
        # the difference of the two times as printed (3 places), so the reader's subtraction gives the same number
        cpu, cuda = round(to[0].cpu_time_us / 1e6, 3), round(to[0].cuda_time_us / 1e6, 3)
        # the CPU-side time minus the copy's CUDA time: at least that much of the call was not the copy
        key = 'communication.first_copy.profile' if cpu > cuda else 'communication.first_copy.profile_plain'
        lines.append(t(key, cpu=cpu, cuda=cuda, rest=cpu - cuda))
    return '\n'.join(lines)


def first_copy_source(result, rec) -> str | None:
    """'recorded on <GPU>, <date> (50 results of 4000 x 4000)' from the recording a first-copy figure draws; None
    when `rec` is None (measured here)."""
    if rec is None:
        return None
    m = rec.machine
    return style.plot_text('communication.first_copy.recorded', gpu=m['gpus'][0] if m.get('gpus') else '?',
                           date=m.get('date', '')[:10], iters=result.iters, n=result.size)


def _titled(ax, title: str, source: str | None):
    """The figure's own title on the axes; where it was recorded, when it was, above it (each one line)."""
    ax.set_title(title, loc='left')
    if source:
        ax.figure.suptitle(source)
    return ax.figure


def plot_first_copy(result, ax=None, rec=None):
    """The book's non_blocking copy: the first call's one timing (a diamond, no median: there is one) beside every
    later call (dots, their median a bar), each labelled with what its number is (13.3.2).

    `rec`: the recording `result` came from (None: measured here); the figure then says where and when.
    """
    if result is None or result.warm is None:
        return None
    from matplotlib.lines import Line2D

    from .apart import sig
    later, median = list(result.warm.repeated()), result.warm.median
    if ax is None:
        _, ax = style.figure(height=2.8 + (0.4 if rec is not None else 0))
    else:
        style.apply()
    unit, scale = style.time_unit(max([result.cold] + later))
    shown, colour = style.unit_text(unit), style.color('measured')
    ax.scatter([result.cold * scale], [0], s=70, marker='D', color=colour, linewidths=0, zorder=3)
    n = len(later)
    ys = [1 - 0.3 + 0.3 * i / (n - 1) for i in range(n)] if n > 1 else [1 - 0.15]
    ax.scatter([v * scale for v in later], ys, s=45, color=colour, alpha=0.8, linewidths=0, zorder=3)
    ax.vlines(median * scale, 1 - 0.38, 1 + 0.08, colors='black', linewidth=3, zorder=4)
    right_end = max([result.cold] + later) * scale * 1.35
    for y, ends, key, value in ((0, (result.cold,), 'one_timing', result.cold),
                                (1, (min(later), max(later)), 'median_of', median)):
        # inside the axes: right of the marks in the left half, else left of them (the legend sits to the right)
        left_of = ends[-1] * scale > right_end / 2
        ax.annotate(style.plot_text(f'communication.first_copy.{key}', value=sig(value * scale, 3), unit=shown, n=n),
                    ((ends[0] if left_of else ends[-1]) * scale, y), xytext=(-8 if left_of else 8, 0),
                    textcoords='offset points', va='center', ha='right' if left_of else 'left',
                    fontsize=style.MIN_FONT_PT)
    ax.set_yticks([0, 1], [_name('cold'), _name('warm')])
    ax.set_ylim(1.5, -0.5)
    ax.set_xlim(0, right_end)
    ax.set_xlabel(style.plot_text('style.time_axis', unit=shown))
    ax.grid(axis='x', alpha=0.3)
    ax.set_axisbelow(True)
    handles = [Line2D([], [], ls='', marker='D', color=colour,
                      label=style.plot_text('communication.first_copy.one_timing_legend')),
               Line2D([], [], ls='', marker='o', color=colour, label=style.plot_text('style.measured')),
               Line2D([], [], ls='', marker='|', markersize=14, markeredgewidth=3, color='black',
                      label=style.plot_text('style.median'))]
    ax.legend(handles=handles, loc='upper left', bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    return _titled(ax, style.plot_text('communication.first_copy.title'), first_copy_source(result, rec))


def plot_profile(result, ax=None, rec=None):
    """torch.profiler's CPU time against CUDA time for the copy operators, cold and warm (13.3.2).

    `rec`: the recording `result` came from (None: measured here); the figure then says where and when.
    """
    if result is None or not (result.profile_cold or result.profile_warm):
        return None
    rows = [(style.plot_text('communication.profile.tick', when=style.plot_text(f'communication.profile.when_{when}'),
                             op=p.name), p.cpu_time_us / 1e3,
             p.cuda_time_us / 1e3) for when, prof in (('cold', result.profile_cold), ('warm', result.profile_warm))
            for p in prof]
    if ax is None:
        _, ax = style.figure(height=max(3.0, 1.2 + 0.55 * len(rows)) + (0.4 if rec is not None else 0))
    else:
        style.apply()
    ys = range(len(rows))
    ax.barh([y - 0.2 for y in ys], [r[1] for r in rows], 0.4, color=style.color('cpu'),
            label=style.plot_text('panels.col_cpu_time_ms'))
    ax.barh([y + 0.2 for y in ys], [r[2] for r in rows], 0.4, color=style.color('gpu'),
            label=style.plot_text('panels.col_cuda_time_ms'))
    ax.set_yticks(list(ys), [r[0] for r in rows])
    ax.invert_yaxis()
    ax.set_xlabel(style.plot_text('communication.axis_ms'))
    ax.grid(axis='x', alpha=0.3)
    ax.set_axisbelow(True)
    ax.legend(loc='upper left', bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    return _titled(ax, style.plot_text('communication.profile_title'), first_copy_source(result, rec))


# -- the hazard: a non_blocking copy read before it has landed -------------------------------------

def hazard_text(early: float, late: float) -> str:
    """Relative error of a non_blocking copy read at once and after synchronizing (13.3.2)."""
    key = 'communication.hazard.caught' if early > late * 10 and early > 1e-3 else 'communication.hazard.lucky'
    return t(key, early=early, late=late)
