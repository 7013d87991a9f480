"""13.3.4 as recorded with gloo on a 16-core host (a GPU machine's CPU): the lesson's first figure and its verdict."""
from __future__ import annotations

from ..allreduce import recording
from ..i18n import t
from . import allreduce as show
from . import style


def fewest(rec: dict):
    """(processes, result) of the recorded run with the fewest processes: the one the lesson's run compares with."""
    return min(recording.results(rec).items())


def recorded_text(rec: dict | None) -> str:
    """The picture's verdict line, at the fewest processes: (c) against (a) by the one rule (or: none shipped)."""
    return show.paid_line(fewest(rec)[1]) if rec is not None else t('allreduce.recorded.none')


def plot_recorded(rec: dict):
    """The recorded run with the fewest processes: its steps (no formula, defined later), backward alone and in (c),
    (c)'s profiled step."""
    n, result = fewest(rec)
    fig, (top, mid, bottom) = style.figure(nrows=3, height=10.5)
    top.get_gridspec().set_height_ratios([5, 3, 5])
    show.plot_steps(result, ['serial', 'hooks', f'ddp-{show.BUCKET_MB:g}'], style.plot_text(
        'allreduce.recorded.title', n=n, cores=rec['machine'].get('cpu_cores'), date=rec['machine'].get(
            'date', '')[:10]), ['backward', 'hooks'], ax=(top, mid), model=False)
    show.draw_step_timeline(result, 'hooks', ax=bottom)
    return fig
