"""13.3.4 recorded at several world sizes on a GPU host's CPU cores, shipped and shown: times, intervals, origin."""
from __future__ import annotations

import glob
import os
import pathlib
import shutil
import tempfile
import time

from ..errors import UsageError
from ..i18n import t
from ..machine import cpu_cores, provenance
from ..paths import read_json
from .results import AllreduceResult, result_from_dict

FORMAT = 1
FOLDER = pathlib.Path(__file__).with_name('recorded')  # the recordings shipped with the package
REQUIRED = ('format', 'section', 'machine', 'sizes', 'runs')
# The lesson's step versions, in its order: (a), (b), (c); (d) is every 'ddp-<MB>' id.
STEPS = ('serial', 'flat', 'hooks')
# Events kept for drawing: the step versions only (backward alone and all-reduce alone keep their statistics).
DRAWN = STEPS + ('buckets', 'ddp')
# JSON floats rounded to this many significant digits: the profiler's clock is microseconds.
DIGITS = 7


def _rounded(x):
    if isinstance(x, float):
        return float(f'{x:.{DIGITS}g}')
    if isinstance(x, dict):
        return {k: _rounded(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_rounded(v) for v in x]
    return x


def _run_json(result: AllreduceResult, seconds: float) -> dict:
    """One world size's result as JSON: no trace paths (they stay on the recording machine), events as ids only."""
    d = result.to_dict()
    d.pop('traces', None)
    # the lane label is text in the recording's language: a drawing makes it again from rank and stream
    d['events'] = {vid: [{k: v for k, v in e.items() if k != 'lane'} for e in events]
                   for vid, events in d['events'].items() if vid.split('-')[0] in DRAWN}
    return _rounded({'world_size': result.processes, 'seconds': seconds,
                     'shared_cores': result.processes > result.cores, 'result': d})


def record(world_sizes=(2, 4, 8), *, bucket_mb=(0.25, 1, 8, 25), repeats=7, profiled=2, layers=6, width=1024,
           batch=128, timeout=60.0, progress=None) -> dict:
    """Record 13.3.4 with gloo at each world size -> a JSON-ready recording (13.3.4)."""
    from .worker import run_allreduce
    out = {'format': FORMAT, 'section': '13.3.4', 'recorded_with': 'tools/record_allreduce.py',
           'machine': provenance(), 'backend': 'gloo', 'sizes': {'layers': layers, 'width': width, 'batch': batch},
           'bucket_mb': list(bucket_mb), 'repeats': repeats, 'profiled': profiled, 'runs': []}
    for i, n in enumerate(world_sizes):
        started = time.perf_counter()
        result = run_allreduce('gloo', n, bucket_mb=list(bucket_mb), repeats=repeats, profiled=profiled,
                               layers=layers, width=width, batch=batch, timeout=timeout,
                               share_cores=n > cpu_cores())
        out['runs'].append(_run_json(result, time.perf_counter() - started))
        if progress:
            progress(i + 1, len(world_sizes), n)
    return out


# -- reading recordings back ------------------------------------------------------------------------

def is_gpu_machine(rec: dict) -> bool:
    """Recorded on a machine with a GPU (the processes still run on its CPU cores): the machines the lesson ships."""
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


def summary(result: AllreduceResult) -> dict:
    """The numbers a caption states for one world size: medians, the overlaps beside the model's, the best bucket."""
    med = {v.id: v.median for v in result.versions}
    best = result.best_ddp()
    rows = {vid: result.overlap_row(vid) for vid in ('hooks', best.id if best else None) if vid}
    return {'median': med, 'best_ddp': best.id if best else None, 'best_mb': best.bucket_mb if best else None,
            'overlap': rows, 'repeats': len(result.version('serial').times)}


TRACE_PREFIX = 'd2l-allreduce-'  # then the pid of the process that shows the traces


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def trace_folder() -> tempfile.TemporaryDirectory:
    """13.3.4: a temporary folder for Chrome traces, removed when dropped; first the folders of ended processes
    (a killed kernel runs no clean-up) are removed, so traces stay only while a live notebook can show them."""
    for path in glob.glob(os.path.join(tempfile.gettempdir(), TRACE_PREFIX + '*')):
        pid = os.path.basename(path)[len(TRACE_PREFIX):].split('-')[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)
    return tempfile.TemporaryDirectory(prefix=f'{TRACE_PREFIX}{os.getpid()}-')
