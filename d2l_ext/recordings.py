"""The one loader of the recordings shipped with the package (13.3.1-13.3.4: d2l_ext.recorded, depgraph.recording,
allreduce.recording): JSON files in a section's `recorded/` folder, each with a `machine` header (machine.provenance:
where, when and on what it was made). A section passes its own `check`; the newest file of each machine kind is shown.
"""
from __future__ import annotations

import json
import pathlib

from .errors import UsageError
from .i18n import t


def header(rec) -> dict:
    """Where, when and on what a recording was made: a loaded file's 'machine', or a typed recording's .machine."""
    return rec.machine if hasattr(rec, 'machine') else rec['machine']


def on_gpu(rec) -> bool:
    """Recorded on a machine with a GPU: only these are shown as GPU evidence."""
    return bool(header(rec).get('gpus'))


def kind(rec, gpu=on_gpu) -> str | None:
    """The machine kind, 'NVIDIA H200 x1', or None for a CPU recording (`gpu(rec)` says which count as GPU ones)."""
    gpus = header(rec).get('gpus') or []
    return f'{gpus[0]} x{len(gpus)}' if gpu(rec) else None


def file_name(rec, gpu=on_gpu) -> str:
    """The name to ship a recording under: 'NVIDIA-H200-x1-2026-12-03.json' (or 'cpu-only-...')."""
    return f"{(kind(rec, gpu) or 'cpu-only').replace(' ', '-')}-{header(rec)['date'][:10]}.json"


def check(rec, where: str, *, version: int, required: tuple, keys: tuple[str, str], section: str | None = None):
    """A section's recording if this version reads it (its format number, section, required keys, a run at least); else
    a UsageError in the section's words: keys = (catalogue key of a wrong format, of missing parts)."""
    if not isinstance(rec, dict) or rec.get('format') != version or rec.get('section', section) != section:
        got = rec.get('format') if isinstance(rec, dict) else type(rec).__name__
        raise UsageError(t(keys[0], where=where, format=version, expected=version, got=repr(got)))
    missing = [k for k in required if k not in rec]
    if missing or not rec['runs']:
        raise UsageError(t(keys[1], where=where, missing=', '.join(missing) or 'runs'))
    return rec


def load(path, check=None) -> dict:
    """One recording from its file, checked by its section's `check(rec, where)`, with its file's name as 'file'."""
    path = pathlib.Path(path)
    try:
        rec = json.loads(path.read_text(encoding='utf-8'))
    except (OSError, ValueError) as e:
        raise UsageError(t('core.not_json', path=path, reason=e)) from None
    return (check(rec, str(path)) if check else rec) | {'file': path.name}


def _when(rec) -> tuple:
    return header(rec).get('date', ''), rec['file'] if isinstance(rec, dict) else rec.path


def load_all(folder, check=None, *, gpu=on_gpu, gpu_only=True) -> list[dict]:
    """The newest recording of each machine kind in `folder`, in the kinds' order; CPU ones too with gpu_only=False."""
    folder = pathlib.Path(folder)
    newest_of = {}
    for rec in sorted((load(p, check) for p in folder.glob('*.json')), key=_when):  # a later one replaces its kind's
        if gpu(rec) or not gpu_only:
            newest_of[kind(rec, gpu)] = rec
    return [newest_of[k] for k in sorted(newest_of, key=lambda k: k or '')]


def newest(recs, gpu=on_gpu, gpu_only=True):
    """The newest of `recs` (by date, then file), or None; only GPU ones unless gpu_only=False."""
    shown = [r for r in recs if gpu(r) or not gpu_only]
    return max(shown, key=_when) if shown else None
