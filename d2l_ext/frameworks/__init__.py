"""What a framework is, looked up by name (every section): the registry behind lanes, workers and backends.

One module per framework in this folder defines `FRAMEWORK = Framework(...)`: its names, its lanes, its worker's
environment, its tolerance and the module of its backend (which d2l_ext.backends imports by name when work runs).
No description imports its framework: reading them costs nothing and cannot load MXNet next to PyTorch. A test or
a notebook may `register()` one more; README "Adding a framework" says what to write.
"""
from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Framework:
    """One framework's identity and lane rules (13.3.1 and after); read with framework(name)."""
    name: str                      # canonical key: 'torch', 'mxnet'; Lane.framework and worker keys use it
    display: str                   # how tables and messages name it: 'PyTorch'
    module: str                    # the package to import (checked with find_spec, never imported here)
    backend: str                   # module of its Backend, imported by name by d2l_ext.backends.backend
    missing: str                   # catalogue key of the one line said when it is not installed
    gpu_explanation: str           # catalogue key: what a GPU lane of this framework is
    gpu_count: Callable[[], int]   # GPUs it can use here (called in its worker)
    device: Callable[[str, int], object]       # (kind, index) -> its device object for a lane
    lane_name: Callable[[str, int], str]       # (kind, index) -> the name typed on the CLI
    cpu_lanes: Callable[[int, int], list[dict]]  # (gpus, cores) -> make_lane keywords of its CPU lanes (ids, keys)
    tolerance: Callable[[], float]             # relative error allowed for its fp32 products
    aliases: tuple[str, ...] = ()
    order: int = 50                # place in listings ('all' runs them in this order): the book's first
    cpu_queued: bool = True        # False: CPU work runs synchronously in the calling thread (PyTorch)
    shared_cpu_rule: str = 'shared'  # expectation for CPU lanes sharing cores: 'shared' (threads divide
    #                                  the cores) or 'engine' (the framework's engine already uses every core)
    one_core_per_product: bool = False  # each CPU product runs on one core (MXNet: OMP_NUM_THREADS=1)
    gpu_name: Callable[[int], str | None] = lambda index: None  # a GPU's model name for its label
    gpu_free_bytes: Callable[[int], int] | None = None  # free memory on a GPU, where the framework says
    environment: Callable[[str], dict] = lambda worker_name: {}  # set in its worker before any import
    cleans_up_after_kill: bool = False  # its backend has remove_stale_traces(pids) for killed workers
    wait_loaded: Callable[[list], None] = lambda lanes: None  # wait for these lanes' devices if the
    #                                 framework is already loaded (never imports it: timing.wait_for_lanes)
    wait_all: Callable[[], None] = lambda: None  # wait for every device it uses, if it is already loaded
    #                                 (never imports it: timing.wait_for_everything)
    cpu_label: str = 'core.lane_cpu_number'  # catalogue key of a numbered CPU lane known by its name only
    engine: Callable[[], str] = lambda: 'eager'  # the engine a run in its worker used (exercise 1 names it)
    worker_rows: bool = False  # its timeline rows are (lane, engine worker) pairs, coloured by the lane
    copy_plans: bool = False   # its GPU lanes take 13.3.2's copy plans (destination, copy stream, non_blocking)


_REGISTRY: dict[str, Framework] = {}
_SOURCES: dict[str, str] = {}  # name -> the module whose FRAMEWORK it is (a worker process re-registers it)
_loaded: list[bool] = []


def register(fw: Framework, source: str | None = None) -> Framework:
    """Add (or replace) a framework's description; its name and aliases find it from then on. `source`: the module
    defining it as FRAMEWORK, which a worker process (knowing only this folder's descriptions) imports."""
    _load()
    _REGISTRY[fw.name] = fw
    if source:
        _SOURCES[fw.name] = source
    return fw


def unregister(name: str) -> None:
    """Remove a description added with register() (tests)."""
    _REGISTRY.pop(name, None)
    _SOURCES.pop(name, None)


def source(name: str) -> str:
    """The module that defines a registered framework's description as FRAMEWORK."""
    return _SOURCES[framework(name).name]


def register_from(module: str) -> Framework:
    """Register the FRAMEWORK defined in `module` (a worker doing what its parent did)."""
    return register(importlib.import_module(module).FRAMEWORK, module)


def _load() -> None:
    # every description module in this folder, once (as i18n loads its catalogues)
    if not _loaded:
        _loaded.append(True)
        for info in pkgutil.iter_modules(__path__):
            fw = importlib.import_module(f'{__name__}.{info.name}').FRAMEWORK
            _REGISTRY.setdefault(fw.name, fw)
            _SOURCES.setdefault(fw.name, f'{__name__}.{info.name}')


def _key(name) -> str | None:
    _load()
    n = str(name).lower()
    return next((fw.name for fw in _REGISTRY.values() if n == fw.name or n in fw.aliases), None)


def framework(name) -> Framework:
    """The description of a framework by name or alias ('pytorch' -> torch); UsageError if unknown."""
    key = _key(name)
    if key is None:
        from ..errors import UsageError
        from ..i18n import t
        raise UsageError(t('core.unknown_framework', name=repr(name), names=', '.join(map(repr, known()))))
    return _REGISTRY[key]


def known() -> list[str]:
    """Every registered framework's name, in listing order (installed or not)."""
    _load()
    return [fw.name for fw in sorted(_REGISTRY.values(), key=lambda f: (f.order, f.name))]


def installed(name: str) -> bool:
    """True if a registered framework's package can be imported here (without importing it)."""
    try:
        return importlib.util.find_spec(framework(name).module) is not None
    except (ImportError, ValueError):
        return False


def available_frameworks() -> list[str]:
    """The registered frameworks installed here, in the book's order."""
    return [f for f in known() if installed(f)]


def frameworks_for(choice: str) -> list[str]:
    """'all' -> the installed frameworks; otherwise the one named, checked (CLI --framework, widgets)."""
    return available_frameworks() if choice == 'all' else [check_framework(choice)]


def check_framework(name) -> str:
    """THE edge check (CLI, dispatcher, widgets): the canonical name, or one line saying what to do."""
    fw = framework(name)
    if not installed(fw.name):
        from ..errors import FrameworkMissing
        from ..i18n import t
        raise FrameworkMissing(t(fw.missing))
    return fw.name


# A timeline row is a lane's id, or a lane's id and an engine worker: 'cpu(0)/w1' (frameworks with worker_rows, MXNet).
# Ids only: a display labels the row when it draws it (core.lane_worker_row).
WORKER_SEP = '/w'


def worker_row(lane_name: str, worker: int) -> str:
    """The row id of one engine worker thread of a lane ('cpu(0)/w1'), made by MXNet's lane_timeline."""
    return f'{lane_name}{WORKER_SEP}{worker}'


def split_row(row: str) -> tuple[str, int | None]:
    """A timeline row id as (lane id, worker number or None): 'cpu(0)/w1' -> ('cpu(0)', 1), 'cpu0' -> ('cpu0', None)."""
    name, sep, worker = row.rpartition(WORKER_SEP)
    return (name, int(worker)) if sep and worker.isdigit() else (row, None)
