"""13.3.4 as recorded with gloo on a GPU host's CPU cores: its caption, the lesson's figure and timeline."""
from __future__ import annotations

from ..allreduce import recording
from ..i18n import t
from . import allreduce as show
from . import style


def _machine(rec: dict, text=t) -> str:
    """'a 16-core host (NVIDIA H200 machine), 2026-12-03' from the recording."""
    m, gpus = rec['machine'], rec['machine'].get('gpus') or []
    key = 'allreduce.recorded.machine' if gpus else 'allreduce.recorded.machine_cpu'
    return text(key, gpus=', '.join(gpus), cores=m.get('cpu_cores'), date=m.get('date', '')[:10])


def fewest(rec: dict):
    """(processes, result) of the recorded run with the fewest processes: the one the lesson's run compares with."""
    return min(recording.results(rec).items())


def recorded_text(rec: dict | None) -> str:
    """Where the recording was made, at the fewest processes (or that none is shipped); its verdict is exercise 1's."""
    if rec is None:
        return t('allreduce.recorded.none')
    n, _ = fewest(rec)
    return t('allreduce.recorded.where', machine=_machine(rec), n=n)


def plot_recorded(rec: dict):
    """The lesson's figure and (c)'s profiled step, of the recorded run with the fewest processes, titled by machine."""
    n, result = fewest(rec)
    title = style.plot_text('allreduce.recorded.title', n=n, machine=_machine(rec, style.plot_text))
    return show.plot_steps(result, title=title), show.draw_step_timeline(result, 'hooks', heading=title)
