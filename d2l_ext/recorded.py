"""Results recorded on other hardware (GPUs), labelled with where, when and on what (13.3.1, 13.3.2).

`python -m d2l_ext record` runs the section's experiments on this machine and writes one JSON
file here; the notebooks show every file in this folder on machines that cannot run them live.
"""
from __future__ import annotations

import datetime as _dt
import json
import pathlib

from .report import comm_text, parallel_text as _parallel_text, sync_mistake_text

FOLDER = pathlib.Path(__file__).with_name('recorded')


def load_all() -> list[dict]:
    """Every recording shipped with the package, oldest first."""
    return [json.loads(p.read_text()) for p in sorted(FOLDER.glob('*.json'))]


def label(rec: dict) -> str:
    """'NVIDIA H200 x1, driver ..., CUDA ..., torch ..., 2026-12-02 (python -m d2l_ext record)'."""
    m = rec['machine']
    v = m.get('versions', {})
    gpus = m.get('gpus') or ['no GPU']
    return (f"recorded on {gpus[0]} x{len(m.get('gpus') or [])}, {m.get('cpu_cores')} CPU cores, "
            f"driver {m.get('driver')}, CUDA {m.get('cuda')}, torch {v.get('torch')}, "
            f"numpy {v.get('numpy')}, Python {v.get('python')}, on {m.get('date', '')[:10]}")


def _recorded_text(kind: str, fmt, extra=lambda rec: []) -> str:
    """Every recording that has `kind` results, each under its label, formatted by `fmt`."""
    recs = [r for r in load_all() if r.get(kind)]
    if not recs:
        return 'No GPU recordings are in this package yet.'
    out = []
    for rec in recs:
        out.append('== ' + label(rec))
        out += [fmt(r) for r in rec[kind]]
        out += extra(rec)
    return '\n'.join(out)


def parallel_text() -> str:
    """The recorded 13.3.1 results, each under its label, with the book's timing mistake there."""
    def mistake(rec):
        m = rec.get('sync_mistake')
        return ["The book's timing mistake there:\n" + sync_mistake_text(m)] if m else []
    return _recorded_text('parallel', _parallel_text, mistake)


def comm_text_all() -> str:
    """The recorded 13.3.2 results, each under its label."""
    return _recorded_text('comm', comm_text)


def record(out=None, repeats: int = 5) -> pathlib.Path:
    """Run 13.3.1 and 13.3.2 for every installed framework here and write them with provenance."""
    from . import experiments
    from .isolation import call_in_worker
    from .machine import available_frameworks, provenance
    fws = available_frameworks()
    rec = {'recorded_with': 'python -m d2l_ext record', 'machine': provenance(),
           'parallel': [experiments.parallel(fw, repeats=repeats) for fw in fws],
           'comm': [experiments.comm(fw, repeats=repeats) for fw in fws],
           'timeline': [experiments.timeline(fw) for fw in fws],
           'sync_mistake': call_in_worker('torch', _sync_mistake_in_worker)}
    if out is None:
        gpu = (rec['machine']['gpus'] or ['cpu'])[0].replace(' ', '-')
        n = len(rec['machine']['gpus'])
        out = FOLDER / f"{gpu}-x{n}-{_dt.date.today().isoformat()}.json"
    out = pathlib.Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rec, indent=1))
    return out


def _sync_mistake_in_worker():
    from .parallel import book_sync_mistake
    return book_sync_mistake()
