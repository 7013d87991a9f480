"""13.3.4's plots and sentences: every repeat beside its prediction, one step's timeline per process, the bucket
sweep beside the per-call overhead + bandwidth model, and the lines a learner reads, chosen from the numbers.

Every overlap shown is the interval-based fraction (in [0, 1]); the wall-clock difference against (a) is
printed beside it and split into the measured terms that make it up.
"""
from __future__ import annotations

import math
import statistics

from ..allreduce.results import MIB  # bytes per MiB: gradients and buckets in one unit
from ..i18n import t
from ..machine import gpu_names_torch
from ..results import chance_gap, close
from . import allreduce_sums as sums
from . import style
from .allreduce_sums import ratio_text  # noqa: F401  (exercise 3, from the ratios as printed)
from .apart import apart
from .repeats import plot_repeats
from .timeline import draw_timeline

IDS = ('backward', 'nosync', 'allreduce', 'serial', 'flat', 'hooks')  # the versions the catalogues name
_BASELINES = ('backward', 'nosync', 'allreduce', 'serial', 'flat')
BACKENDS = ('gloo', 'nccl')  # the keys allreduce.processes.<backend>
STREAMS = ('compute', 'allreduce')  # a trace event's stream: the keys allreduce.lane.<stream>
# A term of the wall-clock difference smaller than this (seconds) is left out of the sentence.
NEGLIGIBLE_S = 0.0002


def _label(result, version, text=style.plot_text) -> str:
    """The version's name in the plot's (or the printed) language; a learner's own step keeps its name."""
    if version.bucket_mb is not None:
        label = text('allreduce.version.ddp', mb=version.bucket_mb)
        return text('allreduce.version.one_bucket', label=label) if result.one_bucket(version) else label
    return text(f'allreduce.version.{version.id}') if version.id in IDS else version.label


def _row(result, version, one_line: bool = False) -> str:
    """A version's short name in a figure (letter, a few words, two lines where long); `one_line` for a title."""
    if version.bucket_mb is not None:
        label = style.plot_text('allreduce.row.ddp', mb=version.bucket_mb)
        label = style.plot_text('allreduce.row.one_bucket', label=label) if result.one_bucket(version) else label
    else:
        label = style.plot_text(f'allreduce.row.{version.id}') if version.id in IDS else version.label
    return label.replace('\n', ' ') if one_line else label


def _short(result, version) -> str:
    """A version's letter in a told-apart clause: '(a)', '(d) 1 MiB'; the step without all-reduce by name."""
    if version.bucket_mb is not None:
        return f'(d) {version.bucket_mb:g} MiB'
    letters = {'serial': '(a)', 'flat': '(b)', 'hooks': '(c)'}
    if version.id in letters:
        return letters[version.id]
    return t('allreduce.short.backward') if version.id in ('backward', 'nosync') else version.label


def compared(result, a, b, medians: bool = True) -> tuple[bool, str]:
    """Whether two versions' step times are told apart (d2l_ext.results.told_apart, the one test), and display.apart's
    clause: both parts of the test in order, each middle half in ms after its version's letter, so a reader can
    check it on the dots. `medians=False` where the head already gives both medians."""
    found = apart(a.measurement, b.measurement, 'ms', names=(_short(result, a), _short(result, b)), medians=medians)
    return found.told, found.clause


def overlapping(result) -> list:
    """The versions that try to overlap the all-reduce: (c), every DDP bucket size, and a learner's own steps."""
    return [v for v in result.versions if v.id not in _BASELINES]


def machine_text(backend: str, world_size: int, cores: int | None = None) -> str:
    """13.3.4's first cell: versions, cores, GPUs, the processes this lesson starts, and whether they share cores."""
    from ..machine import cpu_cores
    from .machine import machine_line
    cores = cpu_cores() if cores is None else cores
    if backend == 'gloo' and world_size > cores:  # not "one core each": say they take turns, and what still works
        return machine_line() + '\n' + t('allreduce.processes.shared', n=world_size, cores=cores)
    text = machine_line() + '\n' + t(f'allreduce.processes.{backend}', n=world_size)
    if backend == 'gloo' and len(gpu_names_torch()) == 1:  # a GPU student should not wonder why the GPU sits idle
        text += '\n' + t('allreduce.processes.one_gpu')
    return text


def ingredients_text(result) -> str:
    """13.3.4: the measurements the prediction is made from, printed before the steps are shown."""
    p = result.prediction
    profiled = len(result.version('backward').stats[0]) if result.has('backward') and \
        result.version('backward').stats else 1
    return '\n'.join([
        t('allreduce.summary.head', processes=result.processes, backend=result.backend, layers=result.layers,
          width=result.width, batch=result.batch_per_process, mb=p.gradient_bytes / MIB),
        t('allreduce.ingredient.backward', seconds=p.backward, span=p.backward_span * 1e3, tensors=len(p.tensor_bytes),
          steps=profiled),
        *([t('allreduce.ingredient.allreduce', seconds=result.version('allreduce').median,
             tensors=len(p.tensor_bytes))] if result.has('allreduce') else []),
        t('allreduce.ingredient.points', small=statistics.median(p.small_times) * 1e3, buffer_mb=p.buffer_bytes / MIB,
          large=statistics.median(p.buffer_times), n=len(p.small_times), m=len(p.buffer_times)),
        t('allreduce.ingredient.fit', alpha=p.per_call * 1e3, gbps=p.bus_bandwidth / 1e9, ring=p.ring_factor)])


def prediction_text(allreduce: float, serial: float, overlapped: float) -> str:
    """13.3.4: the predicted all-reduce, (a) and the best any overlap can do, one line each."""
    return '\n'.join([t('allreduce.predict.allreduce', seconds=allreduce),
                      t('allreduce.predict.serial', seconds=serial),
                      t('allreduce.predict.overlapped', seconds=overlapped)])


def _spread(result, version) -> float:
    """The larger interquartile range of (a) and a version: the first part of told_apart's test."""
    return chance_gap(result.version('serial').measurement, version.measurement)


def _wall(result, version) -> str:
    """The step against (a): told apart or not by the one test, its two parts said in order."""
    gain = result.version('serial').median - version.median
    told, verdict = compared(result, result.version('serial'), version)
    if not told:
        return t('allreduce.wall.same', diff=gain * 1e3, verdict=verdict)
    return t('allreduce.wall.faster' if gain > 0 else 'allreduce.wall.slower', ms=abs(gain) * 1e3, verdict=verdict)


def _places(result, version) -> int:
    """The ms places of every number set against (a) for a version: those of the told-apart clause about them."""
    return sums.places(result.version('serial').median, version.median) if result.has('serial') else \
        sums.places(version.median)


def _backward(result, version, d: int) -> dict | None:
    """Backward's profiled span here and alone, in ms as printed, and their ratio from those numbers (or None)."""
    if result.slowdown(version.id) is None:
        return None
    mine, alone = sums.shown(version.backward_span, d), sums.shown(result.version('backward').backward_span, d)
    return dict(mine=mine, alone=alone, ratio=sums.ratio(mine, alone))


def why_text(result, version) -> str:
    """13.3.4: (a) minus this version, split into terms: the model's for fewer calls (calls x alpha, labelled as the
    model's), and the measured all-reduce during backward and backward's slowdown; the rest is what none explains.

    Every number is rounded as printed first (display.allreduce_sums): the head is the difference between the two
    medians as the clause above prints them, and the rest is that head minus the printed terms, so the line adds up.
    """
    terms, serial = result.terms(version.id), result.version('serial')
    d = _places(result, version)
    gain = sums.minus(serial.median, version.median, d)

    def signed(ms: float) -> str:
        return sums.fmt(ms, d, sign=True)

    def gained(key: str, ms: float, **fields) -> str:
        """A term worded by its sign as printed: + is time this version saves against (a), - time it loses."""
        return t(key + ('_lost' if ms < 0 else ''), ms=signed(ms), **fields)
    parts, named = [], []
    if terms['fewer_calls'] and abs(terms['calls']) > NEGLIGIBLE_S:
        alpha = round(result.prediction.per_call * 1e3, 3)  # printed with 3 places: k x that, as printed
        calls = round(terms['fewer_calls'] * alpha, d) + 0.0
        parts.append(gained('allreduce.why.calls', calls, k=abs(terms['fewer_calls']), alpha=alpha))
        named.append(calls)
    overlap = sums.shown(terms['overlap'], d)
    parts.append(gained('allreduce.why.overlap', overlap))
    named.append(overlap)
    spans = _backward(result, version, d)
    slowdown = 0.0 if spans is None else round(spans['alone'] - spans['mine'], d) + 0.0
    if slowdown and abs(terms['slowdown']) > NEGLIGIBLE_S:
        fields = dict(mine=sums.fmt(spans['mine'], d), alone=sums.fmt(spans['alone'], d), ratio=spans['ratio'])
        # worded by direction as printed: lost to a slower backward, or gained from a faster one (x0.6)
        parts.append(t('allreduce.why.slower' if slowdown < 0 else 'allreduce.why.faster', ms=signed(slowdown),
                       **fields))
        named.append(slowdown)
    left = sums.rest(gain, named, d)
    fields = dict(ms=signed(left), spread=sums.fmt(sums.shown(_spread(result, version), d), d))
    told = compared(result, serial, version)[0]
    # a difference not told apart is split all the same, but said to be one: no term is then set against it
    if told and abs(left) > max(abs(x) for x in named):  # then no term above explains the difference
        parts.append(t('allreduce.why.rest_larger', **fields))
    else:
        parts.append(t('allreduce.why.rest', **fields))
    head = t('allreduce.why.head' if told else 'allreduce.why.head_untold', gain=signed(gain))
    return head + ' ' + t('allreduce.why.join').join(parts)


def overlap_sentence(result, version) -> str:
    """13.3.4: one version's three numbers: interval overlap, the model's, and the wall clock against (a)."""
    label = _label(result, version, t)
    if version.overlap is None:
        return t('allreduce.overlap.none_sent', label=label)
    wall = _wall(result, version) if result.has('serial') else ''
    model = result.predicted(version.id)
    # the model's share is its ideal schedule's, not a bound: above it (as printed, in whole percent), the line
    # says so with the two all-reduce times, measured and the model's; no cause, none was measured
    above = round(version.overlap * 100) > round(model['overlap'] * 100)
    return t('allreduce.overlap.line_above' if above else 'allreduce.overlap.line', label=label,
             measured=version.overlap, comm=version.comm_seconds * 1e3, predicted=model['overlap'],
             model=model['busy'] * 1e3, wall=wall)


def overlap_text(result, ids=None) -> str:
    """13.3.4: for each overlapping version (or those in `ids`) its three numbers and what the wall clock is made
    of; then the rule."""
    lines = []
    if result.backend == 'gloo' and 0 < result.cores < result.processes:  # one core: they can only take turns
        lines.append(t('allreduce.overlap.shared', n=result.processes, cores=result.cores))
    shown = [v for v in overlapping(result) if ids is None or v.id in ids]
    for v in shown:
        lines.append(overlap_sentence(result, v))
        if v.overlap is not None and result.has('serial'):
            lines.append(why_text(result, v))
        if result.one_bucket(v) and result.has('flat'):
            lines.append(one_call_text(result, v))
    if any(v.overlap is not None for v in shown) and calls_term_shown(result, shown):
        lines.append(flat_control_text(result))
    if (ids is None or 'hooks' in ids) and result.has('allreduce') and model_gap_text(result):
        lines.append(model_gap_text(result))
    if (ids is None or 'hooks' in ids) and result.has('serial'):  # (a) beside the model that predicted it (cell above)
        lines.append(_against_model('allreduce.model_serial', result.version('serial').median,
                                    result.prediction.for_version('serial')))
    return '\n'.join(lines + [t('allreduce.overlap.rule')])


def model_gap_text(result) -> str:
    """13.3.4: all-reduce alone measured against the model, when they differ by more than NOISE (else nothing)."""
    measured, predicted = result.version('allreduce').median, result.prediction.allreduce
    if not predicted or close(measured, predicted):
        return ''
    return _against_model('allreduce.model_under' if measured > predicted else 'allreduce.model_over', measured,
                          predicted)


def _against_model(key: str, measured: float, predicted: float) -> str:
    """A measured median beside the model's, their gap and ratio taken from the two numbers as printed."""
    d = sums.places(measured, predicted)
    m, p = sums.shown(measured, d), sums.shown(predicted, d)
    return t(key, measured=sums.fmt(m, d), predicted=sums.fmt(p, d), gap=sums.fmt(abs(m - p), d),
             ratio=sums.ratio(m, p))


def calls_term_shown(result, versions) -> bool:
    """Whether why_text printed the model's fewer-calls term for any of `versions` (and a flat control exists)."""
    if not (result.has('serial') and result.has('flat')):
        return False
    return any(v.overlap is not None and result.terms(v.id)['fewer_calls'] and
               abs(result.terms(v.id)['calls']) > NEGLIGIBLE_S for v in versions)


def flat_control_text(result) -> str:
    """13.3.4: the fewer-calls terms above are the model's (calls x alpha); what the measured flat control shows.

    The control makes 1 call where (a) makes one per tensor, with the same bytes: told apart from (a) and
    faster, it shows a saving (its size printed beside the model's); not told apart, or slower, it does not
    show the model's saving, and the line says so.
    """
    serial, flat, p = result.version('serial'), result.version('flat'), result.prediction
    diff = serial.median - flat.median
    told, verdict = compared(result, serial, flat)
    calls = serial.calls or len(p.tensor_bytes)
    key = 'allreduce.calls_control.noise' if not told else (
        'allreduce.calls_control.line' if diff > 0 else 'allreduce.calls_control.slower')
    return t(key, calls=calls, fewer=calls - 1, diff=diff * 1e3, verdict=verdict, saved=_saved(p, calls - 1))


def _saved(p, fewer: int) -> float:
    """The model's saving for `fewer` calls, ms: fewer x alpha as printed (3 places), so a reader can multiply."""
    return fewer * round(p.per_call * 1e3, 3)


def one_call_text(result, version) -> str:
    """13.3.4: one DDP bucket and the flat control each make one all-reduce of the whole gradient after backward:
    their medians side by side, told apart or not by the one test (no cause: none was measured)."""
    flat = result.version('flat')
    told, verdict = compared(result, version, flat)
    return t('allreduce.one_call.apart' if told else 'allreduce.one_call.same', label=_label(result, version, t),
             ms=version.median * 1e3, flat=flat.median * 1e3, diff=abs(version.median - flat.median) * 1e3,
             verdict=verdict)


def per_call_text(result) -> str:
    """13.3.4: (a)'s one call per tensor against the flat control's one buffer, and the one-float all-reduce."""
    serial, flat, p = result.version('serial'), result.version('flat'), result.prediction
    diff = serial.median - flat.median
    told, verdict = compared(result, serial, flat)
    calls = serial.calls or len(p.tensor_bytes)
    kind = 'noise' if not told else ('line' if diff > 0 else 'slower')
    shown = sums.minus(serial.median, flat.median, sums.places(serial.median, flat.median))  # as the clause has it
    return t(f'allreduce.per_call.{kind}', calls=calls, diff=shown, per=shown / max(calls - 1, 1),
             verdict=verdict, alpha=p.per_call * 1e3, saved=_saved(p, calls - 1))


def check_text(result) -> str:
    """13.3.4: what every version was checked against, the worst relative error, and the tolerance's reason."""
    shared = [v for v in result.versions if v.checked_against == 'whole']
    worst = max((v.relative_error for v in shared), default=0.0)
    return t('allreduce.checked', versions=len(shared), error=worst, tol=result.tolerance, n=result.processes)


def trace_text(result, version_id: str) -> str:
    """13.3.4: where the Chrome traces of one version are, and how to open them."""
    label = _label(result, result.version(version_id), t)
    lines = [t('allreduce.trace.file', label=label, rank=r, path=path)
             for r, path in enumerate(result.traces.get(version_id, [])) if path]
    return '\n'.join(lines + [t('allreduce.trace.kept'), t('allreduce.perfetto')])


def _title(result, ids=None) -> str:
    """A title that states the finding: the version whose all-reduce ran most during backward, and how much."""
    tried = [v for v in overlapping(result) if v.overlap is not None and (ids is None or v.id in ids)]
    if not tried:
        return style.plot_text('allreduce.plot.title_nothing')
    best = max(tried, key=lambda v: v.overlap)
    fields = dict(label=_row(result, best, one_line=True), overlap=best.overlap,
                  predicted=result.predicted(best.id)['overlap'])
    if not result.has('serial'):
        return style.plot_text('allreduce.plot.title_overlap', **fields)
    # the verdict of the lines above, never a bare difference that reads as a gain when it is not told apart
    serial = result.version('serial')
    found = apart(serial.measurement, best.measurement, 'ms')
    if not found.told:
        return style.plot_text('allreduce.plot.title_overlap_untold', **fields)
    d = _places(result, best)
    ms = sums.fmt(abs(sums.minus(serial.median, best.median, d)), d)
    return style.plot_text('allreduce.plot.title_overlap_' + ('faster' if found.faster == 'b' else 'slower'),
                           **fields, ms=ms)


def _drawn(result, ids=None) -> list:
    """The versions plot_steps draws, each with the model's step time it draws hatched beside the dots."""
    p = result.prediction
    return [(v, p.for_version('flat' if result.one_bucket(v) else v.id, v.bucket_mb))
            for v in result.versions if ids is None or v.id in ids]


def model_steps_text(result, ids=None) -> str:
    """13.3.4: every model value plot_steps draws hatched, printed (seconds), so none is only in the figure."""
    shown = t('allreduce.sep_list').join(t('allreduce.model_step', label=_label(result, v, t), seconds=s)
                                          for v, s in _drawn(result, ids))
    return t('allreduce.model_steps', steps=shown)


def plot_steps(result, ax=None, ids=None):
    """13.3.4: each version's step time (slowest process), every repeat a dot, the model's prediction beside it.

    ids: the versions to draw (default every one); model_steps_text prints the hatched values."""
    drawn = _drawn(result, ids)
    times = {_row(result, v): v.step_times for v, _ in drawn}
    guesses = {_row(result, v): s for v, s in drawn}
    return plot_repeats(times, ax=ax, predicted=guesses, title=_title(result, ids))


def draw_step_timeline(result, version_id: str, ax=None, heading: str | None = None):
    """13.3.4: one profiled step of a version: backward's operations and each all-reduce, per process.

    heading: a first title line saying which run this is (a recording's machine, date and world size)."""
    if version_id not in result.events:
        from ..errors import UsageError
        raise UsageError(t('allreduce.usage.no_trace', version=version_id, traced=', '.join(result.events) or '-'))
    # all-reduces in flight overlap on their row, so their (identical) names would print over one another
    events = [{**e, 'name': '' if e['stream'] == 'allreduce' else e['name'],
               'lane': style.plot_text('allreduce.lane', rank=e['rank'],
                                       what=style.plot_text(f"allreduce.lane.{e['stream']}"))}
              for e in result.events[version_id]]
    rows = {}
    for rank in range(result.processes):
        for stream in ('compute', 'allreduce'):
            lane = style.plot_text('allreduce.lane', rank=rank, what=style.plot_text(f'allreduce.lane.{stream}'))
            rows[lane] = 'backward' if stream == 'compute' else 'allreduce'
    title = _timeline_title(result, version_id)
    return draw_timeline(events, ax=ax, rows=rows, title=title if heading is None else heading + '\n' + title)


def _timeline_title(result, version_id: str) -> str:
    """The finding of one profiled step: how long before the end of backward the first all-reduce started."""
    label, leads = _label(result, result.version(version_id)), []
    for rank in range(result.processes):
        mine = [e for e in result.events[version_id] if e['rank'] == rank]
        ends = [e['end'] for e in mine if e['stream'] == 'compute' and e['role'] in ('backward', 'compute')]
        starts = [e['start'] for e in mine if e['stream'] == 'allreduce']
        if ends and starts:
            leads.append(max(ends) - min(starts))
    lead = statistics.mean(leads) if leads else 0.0
    if lead <= 0 or math.isclose(lead, 0.0, abs_tol=1e-6):
        return style.plot_text('allreduce.plot.timeline_after', label=label)
    return style.plot_text('allreduce.plot.timeline_during', label=label, ms=lead * 1e3)


def guess_text(guess, result, version_id: str = 'hooks') -> str:
    """13.3.4's prediction cell: the learner's guess of a version's overlap, the model's, and the measured one."""
    v = result.version(version_id)
    numbers = dict(predicted=result.predicted(version_id)['overlap'], measured=v.overlap or 0.0,
                   wall=_wall(result, v) if result.has('serial') else '')
    if guess is None:
        line = t('allreduce.guess.none', label=_label(result, v, t), **numbers)
    else:
        line = t('allreduce.guess.line', guess=float(guess), label=_label(result, v, t), **numbers)
    d = _places(result, v)
    spans = _backward(result, v, d)
    if spans is None:  # nothing profiled: no measured speed of backward to state
        return line
    # the model gives backward its time alone; the profiler says what it took while this version sent
    return line + '\n' + t('allreduce.guess.slowdown', mine=sums.fmt(spans['mine'], d), ratio=spans['ratio'],
                           alone=sums.fmt(spans['alone'], d))
