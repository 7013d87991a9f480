"""Lanes: the things that can run work at the same time on this machine (13.3.1 and after).

The book assumes two GPUs (`d2l.try_all_gpus()[0]` and `[1]`). Most learners have none or one,
so we pick two lanes from what exists and say plainly what each one is:

* two or more GPUs -> GPU 0 and GPU 1 (or all GPUs);
* one GPU          -> the GPU and the CPU;
* CPU only         -> two CPU lanes, each with a fixed share of the cores.
"""
from __future__ import annotations

import contextlib
import re
from dataclasses import asdict, dataclass, fields

from .errors import UsageError
from .frameworks import check_framework
from .frameworks import framework as _framework
from .i18n import language, t, text_in
from .machine import FAKE as _FAKE
from .machine import cpu_cores


@dataclass(frozen=True)
class Lane:
    """One place where independent work can run (13.3.1): a GPU, the CPU, or a share of the CPU.

    A Lane holds ids and numbers only; its label and explanation are catalogue text made in the
    language asked for when they are read (label_in, label), never stored translated.
    """
    framework: str       # a registered framework's name (d2l_ext.frameworks): 'torch', 'mxnet'
    name: str            # what to type on the CLI: 'cuda:0', 'cpu', 'cpu0', 'gpu(0)', 'cpu(1)'
    kind: str            # 'gpu' or 'cpu'
    index: int           # GPU index, or CPU-lane number
    threads: int = 0     # intra-op threads for a CPU lane (0 for a GPU)
    asynchronous: bool = True  # True: the framework queues work and returns at once
    cores: int = 0       # the machine's cores when the lane was found (a CPU label says 'threads of cores')
    model: str = ''      # a GPU's model name, shown in its label ('NVIDIA H200')
    workers: int = 0     # engine worker threads of a CPU context (MXNet), shown in its explanation
    label_key: str = ''  # catalogue key of the label; '' -> the default for its kind and name
    explanation_keys: tuple[str, ...] = ()  # catalogue keys of the explanation, joined

    def _fields(self) -> dict:
        return dict(index=self.index, number=self.index, threads=self.threads, cores=self.cores,
                    name=self.model, workers=self.workers)

    def label_in(self, lang: str | None = None) -> str:
        """The short label for tables and plots in `lang` (default: the current language)."""
        key = self.label_key or _default_label_key(self.framework, self.kind, self.name)
        return text_in(lang or language(), key, **self._fields()) if key else self.name

    @property
    def label(self) -> str:
        """The short label in the current language (tables, messages; plots use fonts.plot_lane)."""
        return self.label_in()

    def explanation_in(self, lang: str | None = None) -> str:
        """What the lane really is, in a student's words, in `lang` (default: the current language)."""
        return ''.join(text_in(lang or language(), key, **self._fields()) for key in self.explanation_keys)

    @property
    def explanation(self) -> str:
        """explanation_in the current language."""
        return self.explanation_in()

    def device(self):
        """The framework's device object for this lane (torch.device or mx.Context)."""
        return _framework(self.framework).device(self.kind, self.index)

    def as_dict(self) -> dict:
        """JSON-ready ids (CLI, recorded results), plus label and explanation for a person reading the JSON."""
        d = asdict(self)
        d['explanation_keys'] = list(self.explanation_keys)
        return dict(d, label=self.label, explanation=self.explanation)

    @classmethod
    def from_dict(cls, d: dict) -> Lane:
        """The Lane of an as_dict() (or a recording's lane dict): its ids, ignoring the text and extra keys."""
        names = {f.name for f in fields(cls)}
        kept = {k: v for k, v in d.items() if k in names}
        kept['explanation_keys'] = tuple(kept.get('explanation_keys', ()))
        return cls(**kept)


_NAME = re.compile(r'(cuda|gpu|cpu)[:(]?(\d*)\)?\Z')


def _default_label_key(framework: str, kind: str, name: str) -> str:
    """The label key of a lane known by its id only: GPU n, the CPU, CPU lane n ('' -> the name itself)."""
    m = _NAME.match(name)
    if kind == 'gpu':
        return 'core.lane_gpu_label'
    if m is None:
        return ''
    return _framework(framework).cpu_label if m[2] else 'core.lane_cpu_plain'


def label_of(name, lang: str | None = None, framework: str = 'torch') -> str:
    """The label of a lane id ('cpu0', 'gpu1', 'cuda:0', 'cpu', 'cpu(1)') or Lane in `lang` (displays of data)."""
    if isinstance(name, Lane):
        return name.label_in(lang)
    m = _NAME.match(str(name))
    if m is None or (m[1] != 'cpu' and not m[2]):  # 'gpu' alone names a colour role, not a lane
        return str(name)
    kind = 'cpu' if m[1] == 'cpu' else 'gpu'
    return make_lane(framework, kind, int(m[2] or 0), name=str(name)).label_in(lang)


def make_lane(framework: str, kind: str, index: int = 0, *, threads: int = 0, name: str | None = None,
              label_key: str = '', explanation_keys: tuple[str, ...] = (), cores: int = 0, model: str = '',
              workers: int = 0) -> Lane:
    """The one place a Lane is built (every section); a framework's CPU work is queued unless it says otherwise."""
    fw = _framework(framework)
    if name is None:
        name = fw.lane_name(kind, index)
    return Lane(framework=fw.name, name=name, kind=kind, index=index, threads=threads if kind == 'cpu' else 0,
                asynchronous=kind == 'gpu' or fw.cpu_queued, cores=cores, model=model, workers=workers,
                label_key=label_key, explanation_keys=tuple(explanation_keys))


@contextlib.contextmanager
def fake_hardware(gpus: int | None = None, cores: int | None = None):
    """Testing hook: in the block, find_lanes and cpu_cores see `gpus` GPUs and `cores` cores (this process only)."""
    old = dict(_FAKE)
    _FAKE.update({k: int(v) for k, v in (('gpus', gpus), ('cores', cores)) if v is not None})
    try:
        yield
    finally:
        _FAKE.clear()
        _FAKE.update(old)


def faked_gpus() -> bool:
    """True inside fake_hardware(gpus=...): GPU lanes are stand-ins with no device behind them."""
    return 'gpus' in _FAKE


def gpu_count(framework: str) -> int:
    """GPUs this framework can use here (0 for MXNet's CPU-only wheel)."""
    if 'gpus' in _FAKE:
        return _FAKE['gpus']
    return _framework(framework).gpu_count()


def _gpu_lane(fw, index: int, cores: int) -> Lane:
    model = '' if 'gpus' in _FAKE else (fw.gpu_name(index) or '')
    return make_lane(fw.name, 'gpu', index, cores=cores, model=model, explanation_keys=(fw.gpu_explanation,),
                     label_key='core.lane_gpu_label_named' if model else 'core.lane_gpu_label')


def find_lanes(framework: str = 'torch', count: int | str = 2) -> list[Lane]:
    """The lanes this machine offers a framework, best first (13.3.1's `devices`).

    `count` is 2 (the book's experiment) or 'all' (every GPU). The framework is checked here (a
    notebook's edge); inside a worker, the dispatcher has checked it already (`lanes_of`).
    """
    return lanes_of(check_framework(framework), count)


def lanes_of(framework: str, count: int | str = 2) -> list[Lane]:
    """find_lanes for a framework already checked (the dispatcher's worker side): no second check."""
    fw = _framework(framework)
    g = gpu_count(fw.name)
    c = cpu_cores()
    gpus = [_gpu_lane(fw, i, c) for i in range(g if count == 'all' else min(int(count), g))]
    if g >= 2:
        return gpus
    return gpus[:1] + [make_lane(fw.name, 'cpu', cores=c, **spec) for spec in fw.cpu_lanes(g, c)]


def pick_lanes(framework: str = 'torch', names=None) -> list[Lane]:
    """Lanes by name (CLI --lanes) or as Lane objects, or the default two; each lane at most once (13.3.1)."""
    return choose_lanes(check_framework(framework), names)


def choose_lanes(framework: str, names=None) -> list[Lane]:
    """pick_lanes for a framework already checked (the dispatcher's worker side): Lane objects pass unchanged."""
    fw = _framework(framework).name
    if isinstance(names, str):
        names = [n.strip() for n in names.split(',') if n.strip()]
    if names and all(isinstance(n, Lane) for n in names):
        available = {n.name: n for n in names if n.framework == fw}
    else:  # names, or an empty list ('--lanes ,'): every lane here, so a refusal can list them
        available = {lane.name: lane for lane in lanes_of(fw, 'all' if names is not None else 2)}
    if names is None:
        return list(available.values())
    chosen = []
    for n in names:
        key = n.name if isinstance(n, Lane) else n
        if key not in available:
            raise UsageError(t('core.unknown_lane', lane=repr(key), framework=fw, names=', '.join(available)))
        if available[key] in chosen:
            raise UsageError(t('core.lane_twice', lane=repr(key)))
        chosen.append(available[key])
    if not chosen:
        raise UsageError(t('core.no_lane', names=', '.join(available)))
    return chosen


def describe_lanes(lanes: list[Lane]) -> str:
    """A few lines a student can read: what each lane really is (13.3.0, 13.3.1).

    Each lane by its number and label in the current language; its id ('cpu0', 'cuda:0') stays in the data
    (Lane.name, the CLI's `devices`), not in this text.
    """
    return '\n'.join(t('core.describe_lane', number=i, label=lane.label, explanation=lane.explanation)
                      for i, lane in enumerate(lanes))
