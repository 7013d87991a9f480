"""13.3.4 as recorded with gloo on a 16-core host (a GPU machine's CPU): the lesson's first figure and its verdict."""
from __future__ import annotations

from ..allreduce import recording
from ..i18n import t
from . import allreduce as show
from . import style


def fewest(rec: dict | None):
    """The recorded run with the fewest processes (the one the lesson's run compares with); None without a recording."""
    return min(recording.results(rec).items())[1] if rec is not None else None


def recorded_text(rec: dict | None) -> str:
    """The picture's verdict line, at the fewest processes: (c) against (a) by the one rule (or: none shipped)."""
    return show.paid_line(fewest(rec)) if rec is not None else t('allreduce.recorded.none')


def plot_recorded(rec: dict):
    """The recorded run with the fewest processes: its steps (no formula, defined later), (c)'s profiled step."""
    result = fewest(rec)
    fig, (top, bottom) = style.figure(nrows=2, height=8.5)
    show.plot_steps(result, ['serial', 'hooks', f'ddp-{show.BUCKET_MB:g}'], style.plot_text(
        'allreduce.recorded.title', n=result.processes, cores=rec['machine'].get('cpu_cores'), date=rec['machine'].get(
            'date', '')[:10]), ax=top, model=False)
    show.draw_step_timeline(result, 'hooks', ax=bottom)
    return fig
