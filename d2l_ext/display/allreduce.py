"""13.3.4's plots and sentences: every repeat beside its prediction, one step's timeline per process, and
the lines a learner reads, each chosen from the measured numbers."""
from __future__ import annotations

import statistics

from ..i18n import t
from . import style
from .repeats import plot_repeats
from .timeline import draw_timeline

_KNOWN = ('backward', 'nosync', 'allreduce', 'serial', 'hooks')
_BASELINES = ('backward', 'nosync', 'allreduce', 'serial')
# Below this share of the all-reduce, a difference between two versions is read as no difference.
NOISE_SHARE = 0.10


def _label(version, text=style.plot_text) -> str:
    """The version's name in the plot's (or the printed) language; a learner's own step keeps its name."""
    if version.bucket_mb is not None:
        return text('allreduce.version.ddp', mb=version.bucket_mb)
    return text(f'allreduce.version.{version.id}') if version.id in _KNOWN else version.label


def overlapping(result) -> list:
    """The versions that try to hide the all-reduce: (b), every DDP bucket size, and a learner's own steps."""
    return [v for v in result.versions if v.id not in _BASELINES]


def machine_text(backend: str, world_size: int) -> str:
    """13.3.4's first cell: versions, cores, GPUs, and the processes this lesson starts."""
    from .machine import machine_line
    return machine_line() + '\n' + t(f'allreduce.processes.{backend}', n=world_size)


def ingredients_text(result) -> str:
    """13.3.4: the two measurements the prediction is made from, printed before the steps are shown."""
    p = result.prediction
    return '\n'.join([
        t('allreduce.summary.head', processes=result.processes, backend=result.backend, layers=result.layers,
          width=result.width, batch=result.batch_per_process, mb=p.gradient_bytes / 1e6),
        t('allreduce.ingredient.backward', seconds=p.backward, tensors=2 * result.layers),
        t('allreduce.summary.bandwidth', buffer_mb=p.buffer_bytes / 1e6, seconds=statistics.median(p.buffer_times),
          gbps=p.bus_bandwidth / 1e9, ring=p.ring_factor)])


def prediction_text(allreduce: float, serial: float, overlapped: float) -> str:
    """13.3.4: the predicted all-reduce, (a) and the best any overlap can do, one line each."""
    return '\n'.join([t('allreduce.predict.allreduce', seconds=allreduce),
                      t('allreduce.predict.serial', seconds=serial),
                      t('allreduce.predict.overlapped', seconds=overlapped)])


def _iqr(times) -> float:
    if len(times) < 2:
        return 0.0
    q = statistics.quantiles(times, n=4, method='inclusive')
    return q[2] - q[0]


def verdict(result, version) -> str:
    """13.3.4: 'most', 'part', 'noise', 'slower' or 'beyond' (more than all): what the numbers and their spread say."""
    serial, alone = result.version('serial'), result.version('allreduce').median
    fraction = result.hidden_fraction(version.id)
    gap = serial.median - version.median
    spread = max(_iqr(serial.step_times), _iqr(version.step_times), NOISE_SHARE * alone)
    if fraction > 1 + NOISE_SHARE:  # more than the whole all-reduce: something else moved the medians
        return 'beyond'
    if abs(gap) <= spread:
        return 'noise'
    if gap < 0:
        return 'slower'
    return 'most' if fraction >= 0.5 else 'part'


def hidden_sentence(result, version) -> str:
    """13.3.4: how much of the all-reduce one version hid, in words chosen by the numbers and their spread."""
    return t(f'allreduce.hidden.{verdict(result, version)}', label=_label(version, t),
             fraction=result.hidden_fraction(version.id))


def hidden_text(result) -> str:
    """13.3.4: one sentence per overlapping version, then the rule it is measured by."""
    lines = [hidden_sentence(result, v) for v in overlapping(result)]
    return '\n'.join(lines + [t('allreduce.hidden.rule')])


def per_call_text(result) -> str:
    """13.3.4: the gradients' all-reduce, one call per tensor, against the same bytes sent as one buffer."""
    p, calls = result.prediction, 2 * result.layers
    measured = result.version('allreduce').median
    kind = 'costly' if measured - p.allreduce > NOISE_SHARE * p.allreduce else 'cheap'
    return t(f'allreduce.per_call.{kind}', calls=calls, measured=measured, predicted=p.allreduce,
             per_call=(measured - p.allreduce) / calls * 1e3)


def check_text(result) -> str:
    """13.3.4: what every version was checked against, and the worst relative error."""
    shared = [v for v in result.versions if v.checked_against == 'whole']
    worst = max((v.relative_error for v in shared), default=0.0)
    return t('allreduce.checked', versions=len(shared), error=worst)


def trace_text(result, version_id: str) -> str:
    """13.3.4: where the Chrome traces of one version are, and how to open them."""
    label = _label(result.version(version_id), t)
    lines = [t('allreduce.summary.trace', label=label, rank=r, path=path)
             for r, path in enumerate(result.traces.get(version_id, []))]
    return '\n'.join(lines + [t('allreduce.perfetto')])


def _title(result) -> str:
    """A title that states the finding: the version that hid most, and how much."""
    tried = overlapping(result)
    if not tried:
        return style.plot_text('allreduce.plot.title')
    best = max(tried, key=lambda v: result.hidden_fraction(v.id))
    kind = verdict(result, best)
    if kind == 'slower':
        return style.plot_text('allreduce.plot.title_none')
    key = {'most': 'title_best', 'part': 'title_best'}.get(kind, f'title_{kind}')
    return style.plot_text(f'allreduce.plot.{key}', label=_label(best), fraction=result.hidden_fraction(best.id))


def plot_steps(result, ax=None):
    """13.3.4: each version's step time (slowest process), every repeat a dot, the prediction beside it."""
    p = result.prediction
    times = {_label(v): v.step_times for v in result.versions}
    guesses = {_label(v): p.for_version(v.id) for v in result.versions}
    return plot_repeats(times, ax=ax, predicted=guesses, title=_title(result))


def draw_step_timeline(result, version_id: str, ax=None):
    """13.3.4: one traced step of a version: backward's operations and each all-reduce, per process."""
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
    return draw_timeline(events, ax=ax, rows=rows, title=_timeline_title(result, version_id))


def _timeline_title(result, version_id: str) -> str:
    """The finding of one traced step: how long before the end of backward the first all-reduce started."""
    label, leads = _label(result.version(version_id)), []
    for rank in range(result.processes):
        mine = [e for e in result.events[version_id] if e['rank'] == rank]
        ends = [e['end'] for e in mine if e['stream'] == 'compute' and e['role'] in ('backward', 'compute')]
        starts = [e['start'] for e in mine if e['stream'] == 'allreduce']
        if ends and starts:
            leads.append(max(ends) - min(starts))
    lead = statistics.mean(leads) if leads else 0.0
    if lead <= 0:
        return style.plot_text('allreduce.plot.timeline_after', label=label)
    return style.plot_text('allreduce.plot.timeline_during', label=label, ms=lead * 1e3)
