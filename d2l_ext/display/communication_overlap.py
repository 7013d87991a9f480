"""13.3.2's sentences on one overlap: the learner's guess, the interval share beside its closed form, the wall
clock, whether overlapped and run then copy are told apart, the cores a CPU run kept busy, and the traced run.

Split from display/communication.py, which re-exports every public name here (the lesson reads them as `show.`);
this module imports nothing from it, so the two form no cycle. Each `*_text` returns a sentence chosen by the
measured numbers.
"""
from __future__ import annotations

from ..i18n import t
from ..results import NOISE, close
from .apart import apart
from .parallel import _sentences

HEADS = ('faster', 'slower', 'not_apart')  # told_apart_text's heads: communication.overlap.head_<head>


def guess_text(guess, closed: float, measured: float, repeats=None) -> str:
    """The learner's guess beside the closed form and the measurement; a reminder when there is no guess yet.

    `repeats`: every repeat's time; one more line says whether the two agree (NOISE), differ within the repeats'
    range, or differ beyond it (with the ratio).
    """
    if isinstance(guess, bool) or not isinstance(guess, (int, float)) or not guess == guess:
        text = t('communication.guess.none', closed=closed, measured=measured)
    else:
        text = t('communication.guess.line', guess=float(guess), closed=closed, measured=measured)
    if repeats and measured > 0 and closed > 0:
        fields = dict(ratio=max(closed, measured) / min(closed, measured), low=min(repeats), high=max(repeats),
                      noise=NOISE)
        if close(measured, closed):
            key = 'communication.guess.agrees'
        elif min(repeats) <= closed <= max(repeats):
            key = 'communication.guess.spread'
        else:
            key = 'communication.guess.closed_above' if closed > measured else 'communication.guess.closed_below'
        text += '\n' + t(key, **fields)
    return text


def overlap_text(comparison, predicted: dict[str, float], overlap: dict) -> str:
    """One overlap, three numbers: the interval fraction beside its closed form, then the wall clock (13.3.2).

    `overlap` is `copy_overlap` of a traced run with 'predicted' replaced by the closed form from the
    rates (and, on a CPU, the traced run's 'cores'). Then the copies' share of run then copy, and
    whether overlapped and run then copy are told apart (results.told_apart: the medians differ by more than
    the larger IQR and the middle halves of the repeats do not overlap), said with both ranges. A cause is named
    only when measured: the process kept under 1.5 cores busy, or the traced products ran longer than every untraced
    products-alone repeat; overlapped below its products alone gives the traced run's numbers and names no cause.
    A last line gives the traced run's own wall clock (the timeline drawn is that run) and, from its 'span', how
    much of that wall clock the drawn bars cover.
    """
    from ..communication.core import copy_share
    med = comparison.medians()
    serial, over, run = med['run_then_copy'], med['overlapped'], med['run']
    copy = max(0.0, serial - run)
    measured = overlap.get('measured')
    lines = [t('communication.overlap.no_intervals') if measured is None else
             t('communication.overlap.interval', measured=measured, predicted=overlap['predicted'])]
    lines.append(_wall_text(serial, over, predicted.get('overlapped', 0.0)))
    lines.append(t('communication.overlap.share', share=copy_share(run, serial), serial=serial, run=run, copy=copy))
    over_m, serial_m = comparison.measurements['overlapped'], comparison.measurements['run_then_copy']
    over_times = list(over_m.times)
    lines.append(told_apart_text(over_m, serial_m))
    if overlap.get('cores') is not None:  # measured on a CPU: how much of their intervals the threads ran on a core
        lines.append(_cores_text(overlap))
    busy = overlap.get('compute_busy') or 0.0
    run_times = list(comparison.measurements['run'].times)
    if over < run and not close(over, run):  # faster than its products alone beyond NOISE: overlap cannot do that
        lines.append(_below_run_text(over, run, busy, overlap.get('wall') or 0.0, run_times))
    saved_share = (serial - over) / copy if copy > 0 else 0.0
    if measured is not None and measured - saved_share > 0.25 and run > 0 and busy > run * (1 + NOISE):
        # one traced run against untraced repeats: 'slower' only when it lies above every one of them
        slow = 'communication.overlap.slowed' if busy > max(run_times) else 'communication.overlap.slowed_within'
        lines.append(t(slow, busy=busy, run=run, ratio=busy / run, lo=min(run_times), hi=max(run_times)))
    if overlap.get('wall'):  # the timeline drawn below is this one traced run, not the medians above
        lines.append(_traced_text(overlap['wall'], over_times, run_times, predicted.get('overlapped', 0.0),
                                  overlap.get('span')))
    return '\n'.join(lines)


def _below_run_text(over: float, run: float, busy: float, wall: float, run_times: list[float]) -> str:
    """Overlapped faster than its products alone: the traced run's wall clock and its products' busy time, set
    against the untraced products-alone repeats (below every one of them, or within their range); no cause named."""
    key = 'communication.overlap.below_run' if busy < min(run_times) else 'communication.overlap.below_run_within'
    return t(key, over=over, run=run, busy=busy, wall=wall, lo=min(run_times), hi=max(run_times))


def told_apart_text(over, serial) -> str:
    """Overlapped against run then copy by results.told_apart: this lesson's head, then display.apart's clause.

    The head says the outcome (overlapped faster, slower, or not told apart); the clause (apart) states both parts
    of the test in order with the medians and the middle halves, in seconds like the lines around it.
    """
    a = apart(over, serial, unit='s')
    head = {'a': 'faster', 'b': 'slower'}.get(a.faster, 'not_apart')
    return t(f'communication.overlap.head_{head}', clause=a.clause)


def _traced_text(wall: float, over_times: list[float], run_times: list[float], closed: float,
                 span: float | None = None) -> str:
    """The traced run's wall clock against the untraced overlapped repeats' range: within, below or above it.

    With `span` (first traced start to last traced end): how much of that wall clock the drawn bars cover,
    about all of it (within NOISE) or part, the rest given as a number with no cause (nothing here times it).
    """
    lo, hi = min(over_times), max(over_times)
    # judged on the numbers as printed (4 places): "0.0278 s is above ... (0.0275-0.0278 s)" would read as false
    shown_wall, shown_lo, shown_hi = (round(x, 4) for x in (wall, lo, hi))
    key = ('communication.overlap.traced_below' if shown_wall < shown_lo else
           'communication.overlap.traced_above' if shown_wall > shown_hi else 'communication.overlap.traced_within')
    text = t(key, wall=wall, lo=lo, hi=hi, run_lo=min(run_times), run_hi=max(run_times), closed=closed)
    if span is None or not span > 0 or not wall > 0:
        return text
    part = ('communication.overlap.span_all' if close(span, wall, of=wall) else
            'communication.overlap.span_part' if span < wall else 'communication.overlap.span_more')
    return _sentences(text, t(part, span=span * 1e3, wall=wall * 1e3, rest=max(0.0, wall - span) * 1e3))


def _cores_text(overlap: dict) -> str:
    """A CPU run's cores busy (CPU time / wall clock), joined to the interval share by what each one measures.

    The interval share counts time during which a copy's interval lay within a product's; a thread can be inside
    its interval without running on a core. With the traced call's 'wall' and both roles' busy time, the process's
    CPU time is set against the time the intervals add up to, and the sentence says which of the two it was:
    about all of that time on a core (CPU time at least 1 - NOISE of it), or only part of it.
    """
    from ..machine import cpu_cores
    cores, wall = overlap['cores'], overlap.get('wall')
    line = t('communication.overlap.cores', cores=cores, total=cpu_cores())
    busy = (overlap.get('compute_busy') or 0.0) + (overlap.get('copy_busy') or 0.0)
    if not wall or not busy > 0 or overlap.get('measured') is None:
        return line
    cpu = cores * wall
    key = 'communication.overlap.on_core_all' if cpu >= busy * (1 - NOISE) else 'communication.overlap.on_core_part'
    return _sentences(line, t(key, cpu=cpu, busy=busy, share=cpu / busy, measured=overlap['measured']))


def _wall_text(serial: float, over: float, closed: float) -> str:
    """The wall-clock difference beside an interval overlap: run then copy against overlapped, and the closed form."""
    if over <= serial:
        return t('communication.overlap.wall_less', saved=serial - over, serial=serial, over=over, closed=closed)
    return t('communication.overlap.wall_more', more=over - serial, serial=serial, over=over, closed=closed)
