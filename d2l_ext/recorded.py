"""13.3.1 and 13.3.2 recorded on other hardware, labelled with where, when and on what, read back typed.

`python -m d2l_ext record` runs both sections here into one JSON file with the events their timelines need;
d2l_ext.recordings loads the shipped ones: only GPU recordings are GPU evidence, CPU ones are labelled so.
"""
from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import pathlib
import types
import typing
from dataclasses import dataclass, field

from . import recordings
from .communication import CommResult, CommTimeline, FirstCopyResult
from .i18n import t
from .parallel import ParallelResult, SyncMistakeResult, TimelineResult

FOLDER = pathlib.Path(__file__).with_name('recorded')  # the recordings shipped with the package


@dataclass
class Recording:
    """One machine's recorded results (13.3.1, 13.3.2), with the machine's provenance."""
    machine: dict
    recorded_with: str = 'python -m d2l_ext record'
    parallel: list[ParallelResult] = field(default_factory=list)
    timelines: list[TimelineResult] = field(default_factory=list)
    sync_mistake: SyncMistakeResult | None = None
    comm: list[CommResult] = field(default_factory=list)
    comm_timelines: list[CommTimeline] = field(default_factory=list)
    first_copy: FirstCopyResult | None = None
    path: str = ''

    @property
    def gpu(self) -> bool:
        """True when recorded on a machine with a GPU: only these are shown as GPU evidence."""
        return recordings.on_gpu(self)

    def label(self) -> str:
        """'recorded on NVIDIA H200 x1, ...' or 'CPU recording (no GPU): ...', in the current language."""
        m, v = self.machine, self.machine.get('versions', {})
        fields = dict(cores=m.get('cpu_cores'), torch=v.get('torch'), python=v.get('python'),
                      date=m.get('date', '')[:10])
        if not self.gpu:
            return t('panels.recorded_cpu', **fields)
        gpus = t('core.gpus', name=m['gpus'][0], count=len(m['gpus']))
        return t('panels.recorded_gpu', gpus=gpus, driver=m.get('driver'), cuda=m.get('cuda'), **fields)

    def to_json(self) -> dict:
        """JSON-ready (without the path it was read from)."""
        return {k: v for k, v in dataclasses.asdict(self).items() if k != 'path'}


def build(cls, data):
    """A dataclass (or list/dict/Optional of them) from its JSON, ignoring fields it does not know."""
    origin, args = typing.get_origin(cls), typing.get_args(cls)
    if data is None:
        return None
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return build(inner[0], data) if len(inner) == 1 else data
    if origin is list:
        return [build(args[0], x) for x in data]
    if origin is dict:
        return {k: build(args[1], v) for k, v in data.items()}
    if dataclasses.is_dataclass(cls):
        hints = typing.get_type_hints(cls)
        known = {f.name for f in dataclasses.fields(cls) if f.init}
        return cls(**{k: build(hints[k], v) for k, v in data.items() if k in known})
    return data


def from_json(data: dict, path: str = '') -> Recording:
    """A Recording from a saved file's JSON (every shipped file is in this one format)."""
    return dataclasses.replace(build(Recording, data), path=path)


def load_recordings(gpu_only: bool = True, folder=None) -> list[Recording]:
    """The newest recording of each GPU kind shipped (or in `folder`), typed; CPU ones too with gpu_only=False."""
    folder = pathlib.Path(folder or FOLDER)
    return [from_json(d, str(folder / d['file'])) for d in recordings.load_all(folder, gpu_only=gpu_only)]


def newest(recs=None):
    """The newest GPU recording (by its date, then its file), or None: what every notebook draws (13.3.0-13.3.2)."""
    return recordings.newest(load_recordings() if recs is None else recs)


def default_path(machine: dict | None = None) -> pathlib.Path:
    """Where `record` writes without --out: a file in the current directory named after the GPU and date."""
    from .machine import gpu_names_torch
    here = {'gpus': (machine or {}).get('gpus', gpu_names_torch()), 'date': _dt.date.today().isoformat()}
    return pathlib.Path.cwd() / f"d2l_ext-recording-{recordings.file_name({'machine': here})}"


def record(path, repeats: int = 5, progress=None) -> Recording:
    """Run 13.3.1 and 13.3.2 for every installed framework here and write them, with provenance, to `path` (check
    it with paths.check_output_file first, as the CLI does: a bad one is refused before minutes of measuring)."""
    from . import communication, parallel
    from .frameworks import available_frameworks
    from .machine import provenance
    fws = available_frameworks()
    steps = [lambda fw=fw: parallel.parallel(fw, repeats=repeats, baseline=True) for fw in fws]
    # the timeline drawn beside a parallel result is its own median "together" repeat where the backend keeps one
    steps += [lambda i=i, fw=fw: results[i].timeline or parallel.timeline(fw) for i, fw in enumerate(fws)]
    steps += [lambda: parallel.sync_mistake(repeats=repeats)]
    steps += [lambda fw=fw: communication.comm(fw, repeats=repeats) for fw in fws]
    steps += [communication.comm_timelines, lambda: communication.first_copy(repeats=repeats)]
    results: list = []
    for i, step in enumerate(steps):
        results.append(step())
        if progress:
            progress(i + 1, len(steps))
    n = len(fws)
    results[:n] = [dataclasses.replace(r, timeline=None) for r in results[:n]]  # kept once, as timelines[i]
    rec = Recording(provenance(), parallel=results[:n], timelines=results[n:2 * n], sync_mistake=results[2 * n],
                    comm=results[2 * n + 1:3 * n + 1], comm_timelines=results[3 * n + 1],
                    first_copy=results[3 * n + 2], path=str(path))
    tmp = pathlib.Path(f'{path}.part')
    tmp.write_text(json.dumps(rec.to_json(), indent=1))
    tmp.replace(path)  # a run interrupted while writing leaves no half-written recording
    return rec
