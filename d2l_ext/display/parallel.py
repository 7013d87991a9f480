"""13.3.1's pictures and sentences: every repeat beside its expectation, lane timelines, speedup against size.

Each plot takes a typed result from d2l_ext.parallel (or plain times), draws with the common
visual language (display.style, display.repeats, display.timeline) and returns the Figure. Each
`*_text` function returns a sentence chosen by the measured numbers, so the notebook never
states a result the output below it contradicts.
"""
from __future__ import annotations

import statistics

from ..frameworks import framework
from ..i18n import t
from ..lanes import Lane
from ..parallel.sharing import predict_at, product_seconds
from ..results import NOISE, Measurement, quartiles, told_apart
from ..results import close as _close
from . import style
from .apart import apart, halves, in_unit
from .gaps import SOURCES, _sentences, source_label, within
from .parallel_book import CELLS, RUNNER, _within, book_check_text, book_text, runner_text  # noqa: F401
from .repeats import plot_repeats

RULES = ('separate', 'shared', 'engine')  # Expectation.rule: the keys parallel.expect.<rule>


def _shown(name: str) -> str:
    """A framework's display name, from the registry: 'PyTorch' for 'torch' (every sentence and title here)."""
    return framework(name).display


def variant_name(area: str, key: str) -> str:
    """A row's name in the plot language: '<area>.variant.<key>' where the catalogue has it, else the key."""
    from ..i18n import catalogue
    full = f'{area}.variant.{key}'
    return style.plot_text(full) if full in catalogue('en') else key


def machine_text(lanes=()) -> str:
    """Versions, cores and GPUs, then what each lane is (if given): the first lines of 13.3.1."""
    from ..lanes import describe_lanes
    from .machine import machine_line
    head = machine_line()
    return '\n'.join([head, describe_lanes(list(lanes))] if lanes else [head])


# -- sentences chosen by the numbers -------------------------------------------------------------

# guess_text's names of its prediction: parallel.guess.<prediction>; it also takes what one is made from (gaps.SOURCES)
PREDICTIONS = ('closed_form', 'by_rule', 'start_together')


def balance_text(labels: list[str], alone: list[float], aimed: bool = False) -> str:
    """Each lane's time alone (medians), and whether they are within NOISE of each other (13.3.0, 13.3.1).

    Within: the test's own percentage, a share of the larger (gaps.within). `aimed`: the product counts were chosen
    from measured rates to aim at equal times (a GPU lane beside a CPU lane, workloads.is_mixed); only then does a
    miss say that the counts aimed at equal times.
    """
    lanes = t('parallel.speed.sep').join(t('parallel.balance.lane', lane=label, seconds=s)
                                         for label, s in zip(labels, alone))
    slower, faster = max(alone), min(alone)
    key = ('parallel.balance.even' if _close(slower, faster) else
           'parallel.balance.uneven' if aimed else 'parallel.balance.uneven_unaimed')
    return t(key, lanes=lanes, ratio=slower / faster if faster else 0.0, noise=NOISE,
             within=within(slower, faster) if faster else '')


def wall_text(serial: float, together: float, expected: float | None = None,
              expected_serial: float | None = None, source: str = 'alone', serial_source: str | None = None) -> str:
    """Medians of together against one after the other: time saved (or lost), beside the predicted saving.

    The predicted saving compares predicted with predicted: `expected` (together) against `expected_serial`
    (one after the other, predicted from the lanes alone); without it, `serial` is that prediction (13.3.0:
    one after the other is the sum of the lanes' medians alone). `source`, `serial_source` (gaps.SOURCES; the
    second defaults to the first): what each prediction is made from, said after the numbers.
    """
    if together <= serial:
        text = t('parallel.overlap.wall', serial=serial, together=together, saved=serial - together)
    else:
        text = t('parallel.overlap.wall_more', serial=serial, together=together, more=together - serial)
    if expected is not None:  # the saving the prediction allows; a predicted loss is worded as one, never negative
        base = serial if expected_serial is None else expected_serial
        key = 'parallel.overlap.wall_predicted' if expected <= base else 'parallel.overlap.wall_predicted_more'
        serial_source = serial_source or source
        whence = (t('parallel.overlap.whence_same', source=source_label(source)) if serial_source == source else
                  t('parallel.overlap.whence_mixed', source=source_label(source),
                    serial_source=source_label(serial_source)))
        text = _sentences(text, t(key, predicted=abs(base - expected), expected=expected, serial=base,
                                  whence=whence))
    return text


def no_wait_text(times: dict[str, list[float]]) -> str:
    """No wait against waiting for every lane (and the book's synchronize() where it ran) (13.3.1).

    Each way is named as its row in the figure (parallel.variant.<way>). The book's row against waiting for every
    device: within NOISE of the larger (its percentage printed), shorter, or longer (no cause named).
    """
    med = {name: statistics.median(ts) for name, ts in times.items()}
    waited = med['every_device']
    fields = dict(no_wait=med['no_wait'], waited=waited, noise=NOISE, waited_name=t('parallel.variant.every_device'),
                  No_wait=_capital(t('parallel.variant.no_wait')),
                  Book_name=_capital(t('parallel.variant.book_synchronize')))
    key = ('parallel.no_wait.same' if _close(med['no_wait'], waited) else
           'parallel.no_wait.not_early' if med['no_wait'] > 0.5 * waited else 'parallel.no_wait.queued')
    text = t(key, **fields)
    if 'book_synchronize' in med:  # the book's own wait is printed wherever it ran, short or not
        book = med['book_synchronize']
        key = ('parallel.no_wait.book_row' if _close(book, waited) else
               'parallel.no_wait.book_short' if book < waited else 'parallel.no_wait.book_long')
        text = _sentences(text, t(key, book=book, ratio=book / waited if waited else 0.0,
                                  within=within(book, waited), **fields))
    return text


def _capital(text: str) -> str:
    """A name that opens a sentence: its first letter in capitals (no change in Chinese, nor to code: 'torch.cuda')."""
    return text if any(c in text.split(' ', 1)[0] for c in '._()') else text[:1].upper() + text[1:]


def expectation_text(e) -> str:
    """The expectation's rule, with its assumption, as one sentence (13.3.1, 13.3.2 exercise 3)."""
    return t(f'parallel.expect.{e.rule}', seconds=e.seconds, cores=e.cores, threads=e.threads, ways=e.ways)


def _as_measurement(value, label: str) -> Measurement:
    """A Measurement as given, or one made of a bare median (no repeats: its middle half is the median alone)."""
    return value if isinstance(value, Measurement) or hasattr(value, 'times') else Measurement(label, median=value)


def versus_one_device(baseline, together) -> str:
    """Together against one device doing both jobs, as measured (13.3.0, 13.3.1): the percentage or ratio, the NOISE
    test ("gained almost nothing" within it), then results.told_apart on their repeats, both parts in one clause.

    `baseline`, `together`: Measurements (or bare medians). Numbers only: never why one was faster.
    """
    b, g = _as_measurement(baseline, 'baseline'), _as_measurement(together, 'together')
    names = (t('parallel.name.baseline'), t('parallel.name.together'))  # each middle half says whose it is
    fields = dict(noise=NOISE, apart=apart(b, g, names=names, medians=False).clause, within=within(b.median, g.median),
                  ratio=max(b.median, g.median) / min(b.median, g.median))
    faster = g.median < b.median
    if _close(g.median, b.median):
        key = 'faster_small' if faster else 'slower_small'
    elif told_apart(g, b):
        key = 'beaten' if faster else 'lost'
    else:
        key = 'untold_faster' if faster else 'untold_slower'
    return t(f'parallel.versus.{key}', **fields)


VERSUS = ('faster_small', 'slower_small', 'beaten', 'lost', 'untold_faster', 'untold_slower')  # parallel.versus.*


def _beat_one_device(baseline, together) -> bool:
    """Together faster than one device doing both, beyond NOISE and told apart (the 'beaten' outcome)."""
    b, g = _as_measurement(baseline, 'baseline'), _as_measurement(together, 'together')
    return g.median < b.median and not _close(g.median, b.median) and told_apart(g, b)


MAX = ('close', 'above', 'below', 'untold')  # max_text's outcomes: the keys parallel.verdict.max_<outcome>


def max_text(alone: list, together) -> str:
    """Together against the slower lane alone, max(t1, t2): whether "about max(t1, t2)" held in this run.

    Within NOISE (as a ratio to the slower lane): about max. Else results.told_apart on the repeats (apart's clause,
    each middle half named) says whether together took longer (or less) than the slower lane alone, or that this
    run does not tell them apart. `alone`: each lane's Measurement (or bare median). Numbers only.
    """
    lanes = [_as_measurement(m, f'lane {i}') for i, m in enumerate(alone)]
    slower, g = max(lanes, key=lambda m: m.median), _as_measurement(together, 'together')
    a = apart(slower, g, names=(t('parallel.name.slower'), t('parallel.name.together')), medians=False)
    key = ('close' if _within(g.median, slower.median) else 'untold' if not a.told else
           'above' if g.median > slower.median else 'below')
    return t(f'parallel.verdict.max_{key}', ratio=g.median / slower.median, slower=slower.median, noise=NOISE,
             together=g.median, apart=a.clause, within=within(g.median, slower.median, 'slower'))


def verdict_text(alone: list, serial: float, together, baseline=None) -> str:
    """Together against one after the other, against the slower lane alone (max_text) and, where measured, one lane
    with all cores doing both jobs.

    `alone`, `together`, `baseline`: Measurements (their repeats give the told-apart test) or bare medians.
    Numbers only: which of the two was faster is stated, never why (no measurement here tests a cause).
    """
    g = _as_measurement(together, 'together')
    medians = [_as_measurement(m, 'lane').median for m in alone]
    text = _sentences(t('parallel.verdict.serial', together=g.median, serial=serial, speedup=serial / g.median,
                        slower=max(medians)), serial_above_two(serial / g.median, g.median, max(medians),
                                                               sum(medians)), max_text(alone, g))
    if baseline is not None:
        b = _as_measurement(baseline, 'baseline')
        text = _sentences(text, t('parallel.verdict.base', baseline=b.median, together=g.median,
                                  verdict=versus_one_device(b, g)))
        ratio = b.median / g.median
        if _beat_one_device(b, g) and above_two(ratio):  # against one device doing both jobs, not the lanes' sum
            text = _sentences(text, t('parallel.above_two.baseline', ratio=ratio, baseline=b.median,
                                      serial=serial, speedup=serial / g.median))
    return text


def overview_text(result, closed_form: float, timeline=None) -> str:
    """13.3.0's verdict: measured against the expectation from the lanes' own times; a reason only where measured.

    The closed form assumes equal lanes; when the lanes' measured times differ, a sentence says so with
    the numbers. A gap beyond NOISE whose repeats' speedups are not told apart from the expectation (results.told_apart,
    the expectation a point) is said so by versus_prediction; else, given a `timeline`, the expectation is redone at
    the time per product measured while both lanes were busy, and named only if that matches the measurement.
    """
    measured, expected = result.speedup, result.expected_speedup
    times = result.together.repeated()
    low, high = result.serial_sum / max(times), result.serial_sum / min(times)
    fields = dict(measured=measured, expected=expected, tolerance=NOISE, low=low, high=high,
                  within=within(measured, expected, 'prediction'))
    if abs(measured / expected - 1) <= NOISE:
        key = 'overview.verdict.as_expected'
    elif not told_apart(speedup_repeats(result), Measurement('predicted', median=expected)):
        key = 'overview.verdict.not_apart'  # the repeats' speedups not told apart from it: said by versus_prediction
    else:
        key = 'overview.verdict.below' if measured < expected else 'overview.verdict.above'
    text = t(key, **fields)
    if key == 'overview.verdict.not_apart':
        text = _sentences(text, versus_prediction(result))
    if abs(expected / closed_form - 1) > NOISE:  # measured: the lanes alone did not take equal times
        alone = ' / '.join(f'{m.median:.3f}' for m in result.lane_times)
        text = _sentences(text, t('overview.verdict.unequal', times=alone, expected=expected, closed=closed_form))
    shared = predict_at(product_seconds(timeline), result.iters) if timeline is not None else None
    if key in ('overview.verdict.below', 'overview.verdict.above') and shared:
        at_shared = result.serial_sum / shared
        if abs(measured / at_shared - 1) <= NOISE and abs(at_shared / expected - 1) > NOISE:
            text = _sentences(text, t('parallel.gap.shared_speedup', shared=at_shared, noise=NOISE,
                                      within=within(measured, at_shared, 'prediction'),
                                      Shared_source=source_label('side_by_side', capital=True)))
    return text


def lanes_split(result) -> bool:
    """CPU lanes whose threads together fit the cores: they split the cores (each its own); else they share them."""
    threads = [lane.get('threads') or 0 for lane in getattr(result, 'lanes', None) or []]
    cores = result.baseline_cores or getattr(result.expectation, 'cores', 0)
    return bool(cores and threads) and all(threads) and sum(threads) <= cores


def overview_summary(result) -> str:
    """13.3.0's summary point 1: the speedup, beside one device doing both lanes' work wherever that was timed."""
    note = _result_above_two(result)
    if result.baseline is None:
        return _sentences(t('overview.summary.separate', speedup=result.speedup, expected=result.expected_speedup),
                          note)
    vs_all = result.baseline.median / result.together.median
    if result.baseline_lane is None:  # CPU lanes: not called devices, set against all the cores
        if _beat_one_device(result.baseline, result.together) and above_two(vs_all) and \
                getattr(result, 'serial_sum', None):  # against all the cores, not the lanes' sum
            note = _sentences(note, t('parallel.above_two.baseline', ratio=vs_all, baseline=result.baseline.median,
                                      serial=result.serial_sum, speedup=result.speedup))
        key = 'overview.summary.split' if lanes_split(result) else 'overview.summary.shared'
        return _sentences(t(key, cores=result.baseline_cores, speedup=result.speedup,
                            baseline=result.baseline.median, together=result.together.median,
                            verdict=versus_one_device(result.baseline, result.together)), note)
    return _sentences(t('overview.summary.separate', speedup=result.speedup, expected=result.expected_speedup), note,
                      baseline_text(Lane.from_dict(result.baseline_lane).label, result.baseline, result.together,
                                    getattr(result, 'serial_sum', None)))


def _result_above_two(result) -> str:
    """serial_above_two for a ParallelResult: its speedup, together's median and the slower lane's median alone."""
    lanes = getattr(result, 'lane_times', None)
    if not lanes:
        return ''
    return serial_above_two(result.speedup, result.together.median, max(m.median for m in lanes))


def baseline_text(lane: str, baseline, together, serial: float | None = None) -> str:
    """One device doing both lanes' work against the lanes together, as measured (13.3.0, 13.3.1): versus_one_device.

    `baseline`, `together`: Measurements (or bare medians). Together above 2x as fast as that device says what the
    ratio compares, with one after the other (`serial`).
    """
    b, g = _as_measurement(baseline, 'baseline'), _as_measurement(together, 'together')
    text = t('overview.summary.base', lane=lane, baseline=b.median, together=g.median,
             verdict=versus_one_device(b, g))
    ratio = b.median / g.median
    if _beat_one_device(b, g) and above_two(ratio) and serial:
        text = _sentences(text, t('parallel.above_two.baseline', ratio=ratio, baseline=b.median, serial=serial,
                                  speedup=serial / g.median))
    return text


def guess_text(guess, closed_form: float, measured: float, unit: str = 's', name: str = 'my_guess',
               prediction: str = 'closed_form') -> str:
    """A prediction cell's answer: the learner's guess (or a request for one), the prediction, the measurement.

    `prediction` names it (PREDICTIONS): 'closed_form'; 'by_rule' (13.3.0: the hardware rule, told apart from the
    prediction from the lanes' measured times that its figure and verdict give); 'start_together' (13.3.1's overlap);
    or what it is made from (gaps.SOURCES, 13.3.1's together-time): the key parallel.guess.<prediction> or
    parallel.source.<prediction>.
    """
    # '%': a fraction from 0 to 1, as the learner writes it, printed with its percentage beside it
    fmt = {'s': 'parallel.guess.seconds', '%': 'parallel.guess.fraction', 'x': 'parallel.guess.ratio'}[unit]
    head = (t('parallel.guess.none', name=name) if guess is None else
            t(fmt, what=t('parallel.guess.yours'), value=float(guess)))
    what = source_label(prediction) if prediction in SOURCES else t(f'parallel.guess.{prediction}')
    return '\n'.join([head, t(fmt, what=what, value=closed_form),
                      t(fmt, what=t('parallel.guess.measured'), value=measured)])


def speedup_repeats(p) -> Measurement:
    """One result's speedup in each repeat of together (one after the other, the lanes' medians, over that repeat).

    A result without repeats (a test's fake, an old recording) gives its median speedup alone, so no spread.
    """
    together = getattr(p, 'together', None)
    times = together.repeated() if together is not None else []
    serial = getattr(p, 'serial_sum', None)
    return Measurement('speedup', [serial / x for x in times] if serial and times else [p.speedup])


def versus_prediction(r) -> str:
    """The repeats' speedups against the predicted speedup, by results.told_apart (the prediction a single point).

    Both parts of the test in order: the median's distance from the prediction against the interquartile range,
    then whether the middle half of the repeats' speedups includes the prediction. Numbers only.
    """
    m = speedup_repeats(r)
    q1, q3 = quartiles(m)
    fields = dict(expected=r.expected_speedup, diff=in_unit(abs(m.median - r.expected_speedup), 'x'),
                  gap=in_unit(m.iqr, 'x'), halves=halves(m, 'x'))
    if told_apart(m, Measurement('predicted', median=r.expected_speedup)):
        key = 'apart'
    else:
        key = 'close' if abs(m.median - r.expected_speedup) <= m.iqr else 'within'
    return t(f'parallel.versus_prediction.{key}', **fields)


def summary_text(r) -> str:
    """One ParallelResult in two sentences: what was measured, and what the hardware lets us expect; the measured
    speedup is set against the predicted one by told_apart (versus_prediction)."""
    return '\n'.join([_sentences(t('parallel.summary', framework=_shown(r.framework), serial=r.serial_sum,
                                   together=r.together.median, speedup=r.speedup,
                                   expected_speedup=r.expected_speedup), versus_prediction(r),
                                 _result_above_two(r)),
                      expectation_text(r.expectation)])


def above_two(ratio: float) -> bool:
    """A ratio printed (two decimals) above 2: more than two lanes give over one after the other at their own speeds."""
    return round(ratio, 2) > 2


def serial_above_two(speedup: float, together: float, slower: float, total: float | None = None) -> str:
    """Two lanes together above 2x one after the other: what that means in this run's numbers ('' at most 2x).

    Where one after the other is the sum of the lanes alone, above 2x means together took less than the slower lane
    alone. Where it is its own timed row (13.3.1: `total`, the sum of the lanes alone, given), above 2x can instead
    come from that row taking longer than the sum: the sentence then says so with both numbers, and the speedup
    against the sum.
    """
    if not above_two(speedup):
        return ''
    if together < slower or not total:
        return t('parallel.above_two.serial', speedup=speedup, together=together, slower=slower)
    return t('parallel.above_two.serial_timed', speedup=speedup, serial=speedup * together, total=total,
             vs_total=total / together, together=together, slower=slower)


# -- pictures ------------------------------------------------------------------------------------

def _plot_label(lane: dict) -> str:
    """A result's lane (its as_dict ids) labelled in the plot language."""
    return style.plot_lane(Lane.from_dict(lane), lane['framework'])


def plot_parallel(result, ax=None, title=None):
    """Each lane alone and all together, every repeat a dot, the expected together-time beside (13.3.1)."""
    names = [_plot_label(lane) for lane in result.lanes] + [variant_name('parallel', 'together')]
    values = [m.repeated() for m in result.lane_times] + [result.together.repeated()]
    if getattr(result, 'baseline', None) is not None:  # one device doing both jobs
        lane = getattr(result, 'baseline_lane', None)  # separate hardware: the first lane; else all the cores
        names.append(style.plot_text('parallel.variant.both_jobs', lane=_plot_label(lane)) if lane else
                     style.plot_text('parallel.variant.all_cores', cores=result.baseline_cores))
        values.append(result.baseline.repeated())
    together = names[len(result.lane_times)]  # the expectation is for all lanes together, not the baseline row
    return plot_repeats(dict(zip(names, values)), ax=ax, predicted={together: result.expected},
                        title=title or style.plot_text('parallel.plot_title', framework=_shown(result.framework),
                                                       speedup=result.speedup, expected=result.expected_speedup))



def plot_variants(result, ax=None, title=None, predicted=None):
    """Any result with a `times` dict (exercises 1 and 2, the sync mistake): every repeat of each variant."""
    times = {variant_name(result.area, name): m.repeated() for name, m in result.times.items()}
    predicted = {variant_name(result.area, k): v for k, v in (predicted or {}).items()}
    return plot_repeats(times, ax=ax, title=title, predicted=predicted or None, unit='auto')


