"""13.3.4's plots: every repeat of every step version beside its prediction, and one step's timeline per process."""
from __future__ import annotations

from . import style
from .repeats import plot_repeats
from .timeline import draw_timeline

_KNOWN = ('backward', 'allreduce', 'serial', 'hooks')


def _label(version) -> str:
    """The version's name in the plot's language (a learner's own step keeps its name)."""
    if version.bucket_mb is not None:
        return style.plot_text('allreduce.version.ddp', mb=version.bucket_mb)
    return style.plot_text(f'allreduce.version.{version.id}') if version.id in _KNOWN else version.label


def plot_steps(result, ax=None):
    """13.3.4: each version's step time (slowest process), every repeat a dot, the prediction beside it."""
    p = result.prediction
    predicted = {'backward': p.backward, 'allreduce': p.allreduce, 'serial': p.serial}
    times = {_label(v): v.step_times for v in result.versions}
    guesses = {_label(v): predicted.get(v.id, p.overlapped) for v in result.versions}
    return plot_repeats(times, ax=ax, predicted=guesses, title=style.plot_text('allreduce.plot.title'))


def draw_step_timeline(result, version_id: str, ax=None):
    """13.3.4: one traced step of a version: backward's operations and each all-reduce, per process."""
    if version_id not in result.events:
        from ..errors import UsageError
        from ..i18n import t
        raise UsageError(t('allreduce.usage.no_trace', version=version_id, traced=', '.join(result.events) or '-'))
    events = [{**e, 'lane': style.plot_text('allreduce.lane', rank=e['rank'],
                                            what=style.plot_text(f"allreduce.lane.{e['stream']}"))}
              for e in result.events[version_id]]
    rows = {}
    for rank in range(result.processes):
        for stream in ('compute', 'allreduce'):
            lane = style.plot_text('allreduce.lane', rank=rank, what=style.plot_text(f'allreduce.lane.{stream}'))
            rows[lane] = 'backward' if stream == 'compute' else 'allreduce'
    title = style.plot_text('allreduce.plot.timeline', label=_label(result.version(version_id)))
    return draw_timeline(events, ax=ax, rows=rows, title=title)
