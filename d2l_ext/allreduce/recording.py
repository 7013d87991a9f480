"""13.3.4 recorded at several world sizes on a 16-core host (a GPU machine's CPU), shipped and shown."""
from __future__ import annotations

import pathlib

from .. import recordings
from .results import AllreduceResult, result_from_dict

FORMAT = 1
FOLDER = pathlib.Path(__file__).with_name('recorded')  # the recordings shipped with the package
REQUIRED = ('format', 'section', 'machine', 'sizes', 'runs')
file_name, is_gpu_machine = recordings.file_name, recordings.on_gpu  # a GPU machine's: the ones shipped


def check_recording(rec, where='recording') -> dict:
    """The recording if this version can read it; else a UsageError saying what is wrong."""
    return recordings.check(rec, where, version=FORMAT, required=REQUIRED, section='13.3.4',
                            keys=('allreduce.recorded.bad_format', 'allreduce.recorded.missing'))


def newest(folder=None, gpu_only=True) -> dict | None:
    """The newest recording in `folder` (default the shipped ones), only from GPU machines unless gpu_only=False."""
    recs = recordings.load_all(folder or FOLDER, check_recording, gpu_only=gpu_only)
    return recordings.newest(recs, gpu_only=gpu_only)


def results(rec: dict) -> dict[int, AllreduceResult]:
    """{world size: its AllreduceResult}, so the lesson's own tables and drawings show a recorded run."""
    return {run['world_size']: result_from_dict(run['result']) for run in rec['runs']}

