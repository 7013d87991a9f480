"""13.3.4 recorded at several world sizes on a GPU host's CPU cores, shipped and shown: times, intervals, origin."""
from __future__ import annotations

import glob
import os
import pathlib
import shutil
import tempfile

from ..errors import UsageError
from ..i18n import t
from ..paths import read_json
from .results import AllreduceResult, result_from_dict

FORMAT = 1
FOLDER = pathlib.Path(__file__).with_name('recorded')  # the recordings shipped with the package
REQUIRED = ('format', 'section', 'machine', 'sizes', 'runs')


def is_gpu_machine(rec: dict) -> bool:
    """Recorded on a machine with a GPU (the processes still ran on its CPU cores): those the lesson ships."""
    return bool(rec['machine'].get('gpus'))


def file_name(rec: dict) -> str:
    """The name to ship a recording under: 'NVIDIA-H200-x1-2026-12-03.json' (or 'cpu-only-...')."""
    gpus = rec['machine'].get('gpus') or []
    name = f'{gpus[0]} x{len(gpus)}'.replace(' ', '-') if gpus else 'cpu-only'
    return f"{name}-{rec['machine']['date'][:10]}.json"


def check_recording(rec, where='recording') -> dict:
    """The recording if this version can read it; else a UsageError saying what is wrong."""
    if not isinstance(rec, dict) or rec.get('format') != FORMAT or rec.get('section') != '13.3.4':
        got = rec.get('format') if isinstance(rec, dict) else type(rec).__name__
        raise UsageError(t('allreduce.recorded.bad_format', where=where, format=FORMAT, got=repr(got)))
    missing = [k for k in REQUIRED if k not in rec]
    if missing or not rec['runs']:
        raise UsageError(t('allreduce.recorded.missing', where=where, missing=', '.join(missing) or 'runs'))
    return rec


def load(path) -> dict:
    """One recording from its file, checked."""
    path, rec = read_json(path)
    return check_recording(rec, str(path)) | {'file': path.name}


def newest(folder=None, gpu_only=True) -> dict | None:
    """The newest recording in `folder` (default the shipped ones), only from GPU machines unless gpu_only=False."""
    folder = pathlib.Path(folder or FOLDER)
    recs = [load(p) for p in sorted(folder.glob('*.json'))] if folder.is_dir() else []
    recs = [r for r in recs if is_gpu_machine(r) or not gpu_only]
    return max(recs, key=lambda r: (r['machine'].get('date', ''), r['file'])) if recs else None


def results(rec: dict) -> dict[int, AllreduceResult]:
    """{world size: its AllreduceResult}, so the lesson's own tables and drawings show a recorded run."""
    return {run['world_size']: result_from_dict(run['result']) for run in rec['runs']}


TRACE_PREFIX = 'd2l-allreduce-'  # then the pid of the process that shows the traces


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        pass
    return True


def trace_folder() -> tempfile.TemporaryDirectory:
    """13.3.4: a temporary folder for Chrome traces, removed when dropped; first those of ended processes are (a
    killed kernel runs no clean-up)."""
    for path in glob.glob(os.path.join(tempfile.gettempdir(), TRACE_PREFIX + '*')):
        pid = os.path.basename(path)[len(TRACE_PREFIX):].split('-')[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)
    return tempfile.TemporaryDirectory(prefix=f'{TRACE_PREFIX}{os.getpid()}-')
