"""13.3.2's figures and lines, one figure and at most one verdict line a measuring cell (statistics: the results)."""
from __future__ import annotations

from types import SimpleNamespace

from ..i18n import t
from . import style, verdict
from .communication_timelines import _mode_name, plot_comm_timelines  # noqa: F401 (the lesson reads show.)
from .parallel import variant_name
from .repeats import plot_repeats

REASONS = ('communication.first_copy.no_gpu',)  # keys a FirstCopyResult's reason can hold
KEYS = ('run', 'copy', 'in_order', 'overlapped', 'run_then_copy', 'added', 'together')  # the rows _word names
MODES = ('book: copy_to_cpu(y)', 'pageable, preallocated, same stream', 'book: copy_to_cpu(y, non_blocking=True)',
         'pinned, preallocated, same stream', 'pinned, preallocated, copy stream + events')  # CommRow.mode values
BOOK_PAGEABLE, PAGEABLE_PLAN, BOOK_PLAN, SAME_PLAN, SIDE_PLAN = MODES


_name = lambda key: variant_name('communication', key)  # noqa: E731 (a row's name in a plot)
_word = lambda key: t(f'communication.variant.{key}')  # noqa: E731 (in the reader's language, for a printed line)


# -- this machine: the book's cells, the prediction, the measurement --------------------------------

def copied_text(ys, ys_cpu) -> str:
    """Whether the book's copy_to_cpu made new host tensors or returned the same ones."""
    same = all(a.data_ptr() == b.data_ptr() for a, b in zip(ys, ys_cpu))
    return t('communication.book.not_copied' if same else 'communication.book.copied')


def rates_text(comparison) -> str:
    """The guess's two rows in one line (ms): products alone and in order, the baseline."""
    m = comparison.measurements
    run, base = (verdict.num(m[k].median, 'ms') for k in ('run', 'in_order'))
    return t('communication.rates', run=run, base=base)


def measured_title(x, w, iters: int, yours: bool | None = None) -> str:
    """The measured figure's title: `iters` products of x by w, then whose run_and_copy ran (yours once it passed)."""
    (a, b), c = x.shape, w.shape[1]
    by = '' if yours is None else '\n' + style.plot_text('communication.by_yours' if yours else 'communication.by_ours')
    return style.plot_text('communication.measured_title', k=iters, a=a, b=b, c=c) + by


def plot_measured(comparison, guess=None, title=None, threads=None):
    """Every repeat of each way (the baseline: in order), grey boxes, measured rows only; the guess (ms) a diamond;
    with `threads` (the computing threads), each row's threads under its name (and the copy thread where it has one)."""
    names = {k: _name(k) for k in comparison.measurements}
    names['in_order'] = style.plot_text('parallel.variant.baseline', name=names['in_order'])  # as 13.3.1's baseline
    for k in names if threads else ():
        copy = '_copy' if k in ('handoffs', 'overlapped') else ''
        names[k] += '\n' + style.plot_text('communication.threads' + copy, n=threads)
    times = {names[k]: list(m.times) for k, m in comparison.measurements.items()}
    return plot_repeats(times, guess={names['overlapped']: guess and guess / 1e3}, unit='ms', halves=True,
                        title=title or style.plot_text('communication.measured_title'))


def measured_text(comparison) -> str:
    """The one verdict line: run_and_copy against the baseline, in order."""
    m = comparison.measurements
    return verdict.line(_word('overlapped'), m['overlapped'], _word('in_order'), m['in_order'], 'ms')


def measured_answer(comparison) -> str:
    """The worked answer: differences of medians (no rule on a difference): what in order's copies cost over products
    alone (X), what the control's thread and hand-offs cost over products alone (Y), so overlap can save at most X − Y
    here (none where Y >= X); then where run_and_copy landed against in order, by the rule."""
    m, ms = comparison.measurements, lambda v: verdict.num(v, 'ms')  # noqa: E731
    x, y = (m[k].median - m['run'].median for k in ('in_order', 'handoffs'))
    tail = t('communication.save_some' if x > y else 'communication.save_none', s=ms(x - y))
    return verdict.answer(t('communication.save', x=ms(x), y=ms(y), tail=tail), t('communication.plain', line=(
        verdict.line(_word('overlapped'), m['overlapped'], _word('in_order'), m['in_order'], 'ms'))))


def _hid(row, base) -> str:  # ': it hid X of the copy time' where faster than `base` by the rule, else nothing
    return t('communication.hid', share=verdict.num(hidden_share(row, base), '%')) if hidden_share(row, base) else ''


def hidden_sentence(way: str, row, base_name: str, base) -> str:
    """'<way> took X vs <base> Y, <by the rule>', then the copy time it hid (_hid; the verdict alone where unclear)."""
    return t('communication.hidden', way=way, total=verdict.num(row.overlapped, 'ms'), hid=_hid(row, base),
             by=verdict.by(row.times['overlapped'], base), base=base_name, sum=verdict.num(base.median, 'ms'))


# -- recordings: a GPU's evidence, whichever machine reads it ---------------------------------------

def _ways(rec) -> tuple:
    """The recording's rows by mode: copy_to_cpu(y, True) on one stream, copy stream + events, and all of them."""
    rows = {r.mode: r for r in rec.comm[0].rows} if rec is not None and rec.comm else {}
    return rows.get(BOOK_PLAN), rows.get(SIDE_PLAN), rows


def recorded_alone(rec) -> str:
    """The recording's products alone and copies alone into pinned buffers, then the book's two copies alone."""
    book, side, rows = _ways(rec)
    if book is None or side is None or not {SAME_PLAN, BOOK_PAGEABLE} <= set(rows):
        return t('communication.recorded.none')
    return t('communication.recorded.alone', gpu=rec.machine['gpus'][0], r=rec.comm[0].repeats,
             run=verdict.num(rows[SAME_PLAN].run, 'ms'), copy=verdict.num(rows[SAME_PLAN].copy, 'ms'),
             b=verdict.num(rows[BOOK_PAGEABLE].copy, 'ms'), c=verdict.num(book.copy, 'ms'))  # ms: one unit


def hidden_share(row, base) -> float:
    """(base - the way) / copies alone, 0 to 1; 0 unless faster than the base by the rule."""
    faster = verdict.compare(row.times['overlapped'], base) == 'faster'
    return min(1.0, max(0.0, (base.median - row.overlapped) / row.copy)) if faster and row.copy > 0 else 0.0


def recorded_answer(rec) -> str:
    """The worked answer to the recording's question: run then copy against the model products alone + copies alone
    (no rule: a model has no repeats), then run_and_copy against run then copy by the rule and the copy time it hid."""
    book, side, _ = _ways(rec)
    if book is None or side is None:
        return t('communication.recorded.none')
    book_vs_parts = verdict.vs_model(_word('run_then_copy'), book.overlapped, _word('added'), book.run + book.copy,
                                     'ms')
    return verdict.answer(t('communication.plain', line=book_vs_parts), hidden_sentence(
        _word('overlapped'), side, _word('run_then_copy'), book.times['overlapped']))


def _guesses(guess) -> tuple:  # the learner's totals in ms, as s: (one stream, copy stream + events)
    both = tuple(guess)[:2] if isinstance(guess, (tuple, list)) else (guess, guess)
    return tuple(None if g is None else g / 1e3 for g in both)


def recorded_lines(rec, guess=None) -> str:
    """Per way guessed, its total (ms): guessed, predicted, recorded; then run_and_copy's verdict."""
    book, side, _ = _ways(rec)
    if book is None or side is None:
        return t('communication.recorded.none')
    way = {BOOK_PLAN: _word('run_then_copy'), SIDE_PLAN: _word('overlapped')}  # my_guess's order, the lesson's names
    lines = [t('communication.recorded.guess', way=way[r.mode], line=verdict.guess(g, r.expected, r.overlapped, 'ms'))
             for g, r in zip(_guesses(guess), (book, side)) if g is not None]
    return verdict.lines(*lines, verdict.line(way[SIDE_PLAN], side.times['overlapped'], way[BOOK_PLAN],
                                              book.times['overlapped'], 'ms'))


def plot_recorded(rec, guess=None):
    """On one time axis (ms): every repeat of each way (the learner's guesses diamonds), then when each op ran."""
    book, side, _ = _ways(rec)
    if book is None or side is None or not rec.comm_timelines:
        return None
    fig, axes = style.figure(nrows=3, height=7.8)
    names = {r.mode: _mode_name(r.mode) for r in (book, side)}
    times = {names[r.mode]: r.times['overlapped'].repeated() for r in (book, side)}
    mine = {names[r.mode]: g for g, r in zip(_guesses(guess), (book, side)) if g is not None}
    plot_repeats(times, ax=axes[0], predicted={names[r.mode]: r.expected for r in (book, side)}, guess=mine, unit='ms',
                 halves=False)  # a recording's repeats lie within a ms: a grey box would be too thin to see
    plot_comm_timelines([tl for tl in rec.comm_timelines if tl.plan in names], axes=axes[1:])  # the x axis shared
    fig.suptitle(recorded_title(rec))
    return fig


def recorded_title(rec) -> str:
    """A recorded figure's title from the recording itself: its GPU, date and what ran."""
    m, c = rec.machine, rec.comm[0] if rec.comm else SimpleNamespace(iters=0, size=0)
    return style.plot_text('communication.recorded.source', gpu=(m.get('gpus') or ['?'])[0],
                           date=m.get('date', '')[:10], iters=c.iters, n=c.size)


def plot_comm(result):
    """Every copy mode of a CommResult, a panel each on one time axis (every repeat, the expectation hatched)."""
    fig = style.figure(nrows=len(result.rows), height=2.8 * len(result.rows))[0]
    axes = fig.axes
    for row, ax in zip(result.rows, axes):
        rule = 'shared' if row.expectation == 'own_core' else row.expectation  # a copy thread either way
        over = _name(f'overlapped.{rule}')
        over = _name('overlapped') if over == f'overlapped.{rule}' else over  # no name for this rule: the plain one
        times = {(over if v == 'overlapped' else _name(v)): m.repeated() for v, m in row.times.items()}
        plot_repeats(times, ax=ax, predicted={over: row.expected}, title=_mode_name(row.mode),
                     predicted_label=style.plot_text('communication.parts_combined'))
    for ax in axes:  # one time axis: the panels' lengths compare at a glance
        ax.set_xlim(0, max(a.get_xlim()[1] for a in axes))
    return fig


# -- the hazard, exercises 3 and 4 ----------------------------------------------------------------------

def hazard_text(seen, after, ref, gpu: bool = True) -> str:
    """What the host read before the wait (`seen`: all zeros, the copy had not happened; else its relative error) and
    after it (`after`), against `ref`; the wait named as it was: a GPU's synchronize(), a copy thread's join()."""
    from ..checking import relative_error
    early, late = relative_error(seen, ref), relative_error(after, ref)
    key = ('zeros' if not seen.any() else 'caught') if early > late * 10 and early > 1e-3 else 'lucky'  # caught?
    return t(f'communication.hazard.{key}', early=early, late=late, wait='synchronize()' if gpu else 'join()')


ALONE = ('lane1_compute_and_copy', 'lane2_compute')  # exercise 3's lanes alone


def exercise_three_alone_text(r) -> str:
    """Exercise 3's setup as the code made it (a CPU's threads and cores, or a GPU and the CPU); t1, t2, baseline."""
    a, b, c = (r.times[k].median for k in (*ALONE, 'baseline'))
    t0, t1 = (list(r.lane_threads) + [1, 1])[:2]
    setup = t('communication.ex3.setup_gpu') if r.lanes[0]['kind'] == 'gpu' else t(
        'communication.ex3.setup_cpu', t0=t0, t1=t1, n=t0 + t1 + 1, cores=r.cores or '?')
    return setup + '\n' + t('communication.ex3.alone', a=verdict.num(a, 'ms'), b=verdict.num(b, 'ms'), n=r.size,
                            c=verdict.num(c, 'ms'), k0=r.iters[0], k1=r.iters[-1])  # in ms, as my_guess


def exercise_three_text(r) -> str:
    """Exercise 3's worked answer, in ms: together against the floor max(t1, t2) (the slower lane alone; no rule: a
    floor has no repeats), then by the rule against the measured baseline."""
    c, name, floor = r.times['together'], _word('together'), max(r.times[k].median for k in ALONE)
    return verdict.answer(t('communication.ex3.answer', vs_max=verdict.vs_model(
        name, c.median, t('communication.model.max'), floor, 'ms'), vs_sum=verdict.line(
        name, c, t('parallel.name.baseline'), r.times['baseline'], 'ms')))


def plot_exercise_three(r, guess=None):
    """Each lane alone, the baseline and together (repeats, grey boxes); under together, hatched: the floor
    max(t1, t2); the guess (ms)."""
    together, rows = _name('together'), [k for k in (*ALONE, 'baseline', 'together') if k in r.times]
    times = {(_baseline(r) if k == 'baseline' else _name(k)): r.times[k].repeated() for k in rows}
    floor = max(r.times[k].median for k in ALONE)
    return plot_repeats(times, halves=True, guess={together: guess and guess / 1e3}, predicted={together: floor},
                        unit='ms', title=style.plot_text('communication.ex3.title'),
                        predicted_label=style.plot_text('communication.model.max'))


def _baseline(r) -> str:  # the baseline's row name: lane 0's device, both jobs (a CPU: every core computes, in order)
    gpu = style.plot_text('core.lane_gpu_label', index=r.lanes[0].get('index', 0))
    name = style.plot_text('parallel.variant.both_jobs', lane=gpu) if r.lanes[0]['kind'] == 'gpu' else \
        style.plot_text('communication.ex3.cpu_baseline', n=r.cores or '?')
    return style.plot_text('parallel.variant.baseline', name=name)


def _self_times(prof, gpu: bool) -> tuple[dict, float]:  # {operator: (self time in s, calls, a copy?)}, their total
    attr = 'self_device_time_total' if gpu else 'self_cpu_time_total'
    ops = {e.key: ((getattr(e, attr, 0.0) or 0.0) / 1e6, getattr(e, 'count', 0), 'copy' in e.key.lower() or 'memcpy' in
                   e.key.lower()) for e in prof.key_averages()}
    return ops, sum(v[0] for v in ops.values()) or 1.0


def profile_frame(profs: dict, gpu: bool, rows: int = 4):
    """Per profiled way ({variant key: profile}), its operators (by self time, not shown: one profiled call, not
    the timed rows) with their calls, those under 1% of its total left out (mm's 60 resolve_conj checks), names cut
    to 32 characters (GPU kernel names run to a hundred): whether the copies show is exercise 4's question."""
    import pandas as pd
    table = []
    for way, prof in profs.items():
        ops, total = _self_times(prof, gpu)
        ops = sorted(((k, v) for k, v in ops.items() if v[0] >= 0.01 * total), key=lambda kv: -kv[1][0])[:rows]
        table += [(_word(way), k if len(k) <= 32 else k[:31] + '…', n) for k, (v, n, _) in ops]
    cols = [t(f'communication.profile.col_{c}') for c in ('way', 'op', 'calls')]
    return pd.DataFrame(table, columns=cols).set_index(cols[0])  # the way, not a stray 0, 1, 2


def profile_answer(profs: dict, gpu: bool, made: int, guess=None) -> str:
    """Exercise 4's worked answer: how many of the `made` copies each profile lists (run_and_copy's first, then the
    control's, in order: the calls of the copy operator listed most often); on a CPU, where run_and_copy's are
    missing and the control's all there, the cause."""
    (a, pa), (b, pb) = profs.items()
    na, nb = (max([n for _, n, c in _self_times(p, gpu)[0].values() if c], default=0) for p in (pa, pb))
    counts = t('communication.profile.answer', n=na, m=nb, k=made, way=_word(a), base=_word(b))
    return verdict.answer(counts, '' if gpu else t('communication.profile.cpu'), t('communication.profile.when'),
                          '' if guess is None else t('communication.profile.guess', guess=guess))
