"""13.3.2's figures and lines, one figure and at most one verdict line a measuring cell (statistics: the results)."""
from __future__ import annotations

from ..i18n import t
from ..results import Times
from . import style, verdict
from .communication_timelines import _mode_name, plot_comm_timelines  # noqa: F401 (the lesson reads show.)
from .parallel import variant_name
from .repeats import plot_repeats
from .verdict import WORDS  # noqa: F401 (the values of {word} in communication.control.{word})

RULES = ('separate', 'one_stream', 'own_core', 'shared', 'engine')  # CommRow.expectation: communication.rule.<rule>
REASONS = ('communication.first_copy.no_gpu',)  # keys a FirstCopyResult's reason can hold
MODES = ('book: copy_to_cpu(y)', 'pageable, preallocated, same stream', 'book: copy_to_cpu(y, non_blocking=True)',
         'pinned, preallocated, same stream', 'pinned, preallocated, copy stream + events')  # CommRow.mode values
BOOK_PAGEABLE, PAGEABLE_PLAN, BOOK_PLAN, SAME_PLAN, SIDE_PLAN = MODES


def _name(key: str) -> str:
    return variant_name('communication', key)


def _word(key: str) -> str:
    """A row's name in the reader's language, for a printed line (not a plot)."""
    return t(f'communication.variant.{key}')


# -- this machine: the book's cells, the prediction, the measurement --------------------------------

def copied_text(ys, ys_cpu) -> str:
    """Whether the book's copy_to_cpu made new host tensors or returned the same ones."""
    same = all(a.data_ptr() == b.data_ptr() for a, b in zip(ys, ys_cpu))
    return t('communication.book.not_copied' if same else 'communication.book.copied')


def rates_text(seconds: dict) -> str:
    """One line: this run's products alone and copies alone in ms (medians: the learner guesses from them, in ms)."""
    return t('communication.rates', run=verdict.num(seconds['run'], 'ms'), copy=verdict.num(seconds['copy'], 'ms'))


def measured_title(x, w, iters: int) -> str:
    """The measured figure's title: `iters` products of x by w (x on a CPU: a copy thread stands in for the engine)."""
    (a, b), c = x.shape, w.shape[1]
    cpu = '_cpu' if x.device.type == 'cpu' else ''
    return style.plot_text(f'communication.measured_title{cpu}', k=iters, a=a, b=b, c=c)


def plot_measured(comparison, predicted: dict, guess=None, title=None):
    """Every repeat of each way, the middle half of its repeats a grey band, the prediction hatched, the learner's
    guess (ms, as rates_text prints) a diamond; drawn in ms."""
    names = {k: _name(k) for k in comparison.measurements}
    times = {names[k]: list(m.times) for k, m in comparison.measurements.items()}
    pred = {names[k]: v for k, v in predicted.items() if k in names}
    mine = {names['overlapped']: guess / 1e3} if guess is not None and 'overlapped' in names else None
    return plot_repeats(times, predicted=pred, guess=mine, unit='ms', halves=True,
                        title=title or style.plot_text('communication.measured_title'),
                        predicted_label=style.plot_text('communication.predicted_alone'))


def measured_text(comparison, predicted: dict, guess=None) -> str:
    """Two lines: the guess (ms) beside run_and_copy's prediction and measurement, then the one verdict line,
    run_and_copy against run then copy (the figure shows every row; the control's line is control_text's)."""
    over, base = comparison.measurements['overlapped'], comparison.measurements['run_then_copy']
    return (verdict.guess(guess and guess / 1e3, predicted['overlapped'], over.median, 'ms') + '\n'
            + verdict.line(_word('overlapped'), over, _word('run_then_copy'), base, 'ms'))


def control_text(comparison, predicted: dict, iters: int) -> str:
    """The worked answer: the control (products beside copies without pause) against products alone by the one rule
    (its sentence by the outcome), then where run_and_copy's time lies against the formula fed products alone
    (`predicted`, s) and fed products beside copies (`iters` products; an upper bound: the control copies more)."""
    from ..communication.core import expected_overlap
    m = comparison.measurements
    a, b, over = m['beside_copies'], m['run'], m['overlapped']
    p, q = predicted['overlapped'], expected_overlap(a.median, m['copy'].median, 'separate', iters=iters)
    where = 'below' if over.median < min(p, q) else 'above' if over.median > max(p, q) else 'between'
    own = t('communication.control.own', c=verdict.num(over.median, 'ms'), where=t(f'communication.control.{where}'),
            p=verdict.num(p, 'ms'), q=verdict.num(q, 'ms'))
    word = verdict.compare(a, b)  # one of WORDS
    return verdict.answer(t(f'communication.control.{word}', a=verdict.num(a.median, 'ms'),
                            b=verdict.num(b.median, 'ms'), by=verdict.by(a, b), own=own))


# -- recordings: a GPU's evidence, whichever machine reads it ---------------------------------------

def _ways(rec) -> tuple:
    """The recording's rows by mode: copy_to_cpu(y, True) on one stream, copy stream + events, and all of them."""
    rows = {r.mode: r for r in rec.comm[0].rows} if rec is not None and rec.comm else {}
    return rows.get(BOOK_PLAN), rows.get(SIDE_PLAN), rows


def recorded_alone(rec) -> str:
    """The recording's products alone and copies alone (ms): into pinned buffers (the prediction's), pageable ones;
    then a fact of PyTorch (_to_copy): the book's copy_to_cpu(y, True) gets pinned results."""
    book, side, rows = _ways(rec)
    if book is None or side is None or not {SAME_PLAN, PAGEABLE_PLAN, BOOK_PAGEABLE} <= set(rows):
        return t('communication.recorded.none')
    return t('communication.recorded.alone', gpu=rec.machine['gpus'][0], r=rec.comm[0].repeats,
             run=verdict.num(rows[SAME_PLAN].run, 'ms'),
             copy=verdict.num(rows[SAME_PLAN].copy, 'ms'), a=verdict.num(rows[PAGEABLE_PLAN].copy, 'ms'),
             b=verdict.num(rows[BOOK_PAGEABLE].copy, 'ms'))


def hidden_share(row, predicted: bool = False) -> float:
    """The share of a way's copy time hidden beside the products, 0 to 1: (run then copy - overlapped) / copy, none
    unless overlapped is faster by the one rule; or `predicted`: (run + copy - the recording's expectation) / copy."""
    faster = predicted or verdict.compare(row.times['overlapped'], row.times['run_then_copy']) == 'faster'
    saved = row.run + row.copy - row.expected if predicted else row.run_then_copy - row.overlapped
    return min(1.0, max(0.0, saved / row.copy)) if faster and row.copy > 0 else 0.0


def _guesses(guess) -> tuple:
    """The learner's shares hidden, 0-1: (one stream, copy stream + events); one number stands for both."""
    return tuple(guess)[:2] if isinstance(guess, (tuple, list)) else (guess, guess)


def recorded_lines(rec, guess=None) -> str:
    """Per way, the share of its copy time hidden: guessed, predicted, recorded; then copy stream vs one stream."""
    book, side, _ = _ways(rec)
    if book is None or side is None:
        return t('communication.recorded.none')
    way = {BOOK_PLAN: _word('overlapped.one_stream'), SIDE_PLAN: _word('overlapped.separate')}  # my_guess's order
    lines = [t('communication.recorded.hidden', way=way[r.mode], line=verdict.guess(g, hidden_share(r, True),
             hidden_share(r), '%')) for g, r in zip(_guesses(guess), (book, side))]
    return '\n'.join(lines + [verdict.line(way[SIDE_PLAN], side.times['overlapped'], way[BOOK_PLAN],
                                            book.times['overlapped'], 'ms')])


def plot_recorded(rec, guess=None):
    """On one time axis (ms): every repeat of each way (guesses at the times they imply), then when each op ran."""
    book, side, _ = _ways(rec)
    if book is None or side is None or not rec.comm_timelines:
        return None
    fig, axes = style.figure(nrows=3, height=7.8)
    names = {r.mode: _mode_name(r.mode) for r in (book, side)}
    times = {_name('run_then_copy'): side.times['run_then_copy'].repeated(),
             **{names[r.mode]: r.times['overlapped'].repeated() for r in (book, side)}}
    mine = {names[r.mode]: r.run_then_copy - g * r.copy for g, r in zip(_guesses(guess), (book, side)) if g is not None}
    plot_repeats(times, ax=axes[0], predicted={names[r.mode]: r.expected for r in (book, side)}, guess=mine, unit='ms',
                 halves=True, predicted_label=style.plot_text('communication.predicted_alone'))
    for text in [x for x in axes[0].get_legend().get_texts() if x.get_text() == style.plot_text('style.guess')]:
        text.set_text(style.plot_text('communication.guess_time'))  # the diamond: the time the learner's share implies
    plot_comm_timelines([tl for tl in rec.comm_timelines if tl.plan in names], axes=axes[1:])  # the x axis shared
    fig.suptitle(recorded_title(rec))
    return fig


def recorded_title(rec) -> str:
    """A recorded figure's title from the recording itself: its GPU, date and what ran."""
    m, c = rec.machine, rec.comm[0] if rec.comm else None
    return style.plot_text('communication.recorded.source', gpu=(m.get('gpus') or ['?'])[0],
                           date=m.get('date', '')[:10], iters=c.iters if c else 0, n=c.size if c else 0)


def plot_comm(result):
    """Every copy mode of a CommResult, one panel each on one shared time axis (every repeat of run, copy, run then
    copy and overlapped, the expectation beside overlapped)."""
    fig = style.figure(nrows=len(result.rows), height=2.8 * len(result.rows))[0]
    axes = fig.axes
    for row, ax in zip(result.rows, axes):
        rule = 'shared' if row.expectation == 'own_core' else row.expectation  # a copy thread either way
        over = _name(f'overlapped.{rule}')
        over = _name('overlapped') if over == f'overlapped.{rule}' else over  # no name for this rule: the plain one
        times = {(over if v == 'overlapped' else _name(v)): m.repeated() for v, m in row.times.items()}
        plot_repeats(times, ax=ax, predicted={over: row.expected}, title=_mode_name(row.mode),
                     predicted_label=style.plot_text('communication.parts_combined'))  # from run and copy alone
    right = max(ax.get_xlim()[1] for ax in axes)
    for ax in axes:
        ax.set_xlim(0, right)  # one time axis: the panels' lengths compare at a glance
    return fig


# -- the hazard, exercises 3 and 4 ----------------------------------------------------------------------

def hazard_text(seen, after, ref) -> str:
    """What the host read at once (`seen`: all zeros, the copy had not happened; else its relative error) and after
    synchronizing (`after`), against `ref`."""
    from ..checking import relative_error
    early, late = relative_error(seen, ref), relative_error(after, ref)
    caught = early > late * 10 and early > 1e-3
    key = ('zeros' if not seen.any() else 'caught') if caught else 'lucky'
    return t(f'communication.hazard.{key}', early=early, late=late)


ALONE = ('lane1_compute_and_copy', 'lane2_compute')  # exercise 3's lanes alone


def exercise_three_alone_text(r) -> str:
    """Exercise 3's setup as the code made it (a CPU's threads on its cores, or a GPU and the CPU), then its inputs:
    each lane's time alone."""
    a, b = (r.times[k].median for k in ALONE)
    t0, t1 = (list(r.lane_threads) + [1, 1])[:2]
    setup = t('communication.ex3.setup_gpu') if r.lanes[0]['kind'] == 'gpu' else t(
        'communication.ex3.setup_cpu', t0=t0, t1=t1, n=t0 + t1 + r.copy_threads, cores=r.cores or '?')
    return setup + '\n' + t('communication.ex3.alone', a=verdict.num(a), b=verdict.num(b))  # in s, as my_guess


def _added(r) -> Times:
    """The two lanes alone added repeat by repeat: what together takes if they ran one after the other."""
    return Times('serial_sum', [x + y for x, y in zip(*(r.times[k].repeated() for k in ALONE))])


def exercise_three_text(r) -> str:
    """Exercise 3's worked answer, only what was measured: together against the slower lane alone (max) and the two
    alone added (sum), each by the one rule (the figure's boxes)."""
    slower, together, added = max((r.times[k] for k in ALONE), key=lambda m: m.median), r.times['together'], _added(r)
    unit = 's'  # the unit of the lanes alone and of my_guess
    return verdict.answer(t('communication.ex3.answer', a=verdict.num(together.median, unit),
                            b=verdict.num(slower.median, unit), by=verdict.by(together, slower),
                            s=verdict.num(added.median, unit), by_sum=verdict.by(together, added)))


def plot_exercise_three(r, guess=None):
    """Each lane alone, the two alone added (repeat by repeat) and both together (repeats, middle halves); the
    learner's guess for together (s) a diamond."""
    times = {_name(k): m.repeated() for k, m in zip(ALONE + ('serial_sum', 'together'),
                                                    [r.times[k] for k in ALONE] + [_added(r), r.times['together']])}
    mine = {_name('together'): guess} if guess is not None else None
    return plot_repeats(times, halves=True, guess=mine, title=style.plot_text('communication.ex3.title'))


def _self_times(prof, gpu: bool) -> dict:
    """{operator: (self time in s, calls)} (CUDA self time on a GPU, CPU self time on a CPU)."""
    attr = 'self_device_time_total' if gpu else 'self_cpu_time_total'
    return {e.key: ((getattr(e, attr, 0.0) or 0.0) / 1e6, getattr(e, 'count', 0)) for e in prof.key_averages()}


def profile_frame(prof, gpu: bool, rows: int = 8):
    """The profile's operators by self time with their calls (names cut to 32 characters: GPU kernel names run to a
    hundred), for verdict.details."""
    import pandas as pd
    ops = sorted(_self_times(prof, gpu).items(), key=lambda kv: -kv[1][0])[:rows]
    return pd.DataFrame({t('communication.profile.col_op'): [k if len(k) <= 32 else k[:31] + '…' for k, _ in ops],
                         t('communication.profile.col_calls'): [n for _, (_, n) in ops],
                         t('communication.profile.col_ms'): [round(v * 1e3, 3) for _, (v, _) in ops]})


def profile_text(prof, gpu: bool, wall: float, x, w, iters: int, name: str = 'run_and_copy') -> str:
    """The profiled call (`name`)'s setting (`iters` products of x by w) and wall time (`wall`, seconds), then the
    worked answer: aten::mm's and aten::copy_'s calls and self times (a GPU's Memcpy DtoH is the copies' again)."""
    (n, m), c = x.shape, w.shape[1]
    flop, size = _si(2 * n * m * c * iters), _si(4 * n * c * iters)  # the products' work, the bytes copied
    ops = _self_times(prof, gpu)
    (mm, na), (copy, nb) = ops.get('aten::mm', (0.0, 0)), ops.get('aten::copy_', (0.0, 0))
    return (t('communication.profile.split', name=name, k=iters, n=n, m=m, c=c, flop=flop, size=size,
              wall=verdict.num(wall, 'ms')) + '\n'
            + verdict.answer(t('communication.profile.answer', na=na, ta=verdict.num(mm, 'ms'), nb=nb,
                               tb=verdict.num(copy, 'ms'))))


def _si(value: float) -> str:
    """A count of a thousand or more with its SI prefix, three digits: 78.4 M, 1.28 T."""
    power = min(4, max(1, (len(str(int(value))) - 1) // 3))
    return f"{verdict.sig(value / 1000 ** power)} {'kMGT'[power - 1]}"

