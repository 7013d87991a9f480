"""13.3.4 recorded at several world sizes (allreduce.recording, display.allreduce_recorded, tools/record_allreduce).

The fixture tests/data/allreduce-recording-cpu.json was recorded on the 2-core CPU machine at a tiny size
(`tools/record_allreduce.py --world-sizes 2,4 --layers 2 --width 64 --batch 8 --repeats 2 --profiled 1
--bucket-mb 0.01,1`); it is never shipped as evidence. A GPU machine is faked by relabelling it in memory.
"""
from __future__ import annotations

import copy
import json
import pathlib
import subprocess
import sys

import pytest

from d2l_ext import recordings
from d2l_ext.allreduce import recording
from d2l_ext.allreduce.results import result_from_dict
from d2l_ext.errors import UsageError

ROOT = pathlib.Path(__file__).resolve().parents[1]
FIXTURE = ROOT / 'tests' / 'data' / 'allreduce-recording-cpu.json'
LESSON = ROOT / 'notebooks' / 'src' / '13.3.4-Allreduce-During-Backward.py'


def load(path) -> dict:
    return recordings.load(path, recording.check_recording)  # one recording, checked


@pytest.fixture(scope='module')
def rec():
    return load(FIXTURE)


def as_gpu(rec, date='2026-12-03T20:00:00+00:00'):
    """The recording relabelled, in memory, as if made on the H200 machine (for naming and caption tests only)."""
    rec = copy.deepcopy(rec)
    rec['machine'].update(gpus=['NVIDIA H200'], date=date, cpu_cores=16, driver='580.1', cuda='13.0')
    return rec


def test_fixture_holds_every_version_repeat_and_interval(rec):
    runs = recording.results(rec)
    assert sorted(runs) == [2, 4]
    for n, r in runs.items():
        ids = [v.id for v in r.versions]
        for vid in ('backward', 'allreduce', 'serial', 'flat', 'hooks'):
            assert vid in ids
        assert [v.bucket_mb for v in r.ddp_versions()] == rec['bucket_mb']
        for v in r.versions:  # every repeat, on every process
            assert len(v.times) == rec['repeats'] and all(len(per) == n for per in v.times)
        for vid in ('serial', 'flat', 'hooks', r.ddp_versions()[0].id):  # one step's intervals per process
            events = r.events[vid]
            assert {e['rank'] for e in events} == set(range(n))
            assert {e['role'] for e in events} >= {'backward', 'allreduce'}
            assert all(0 <= e['start'] <= e['end'] for e in events)
            assert 'lane' not in events[0]  # ids only: a drawing names the lane in its own language
            overlap = r.version(vid).overlap
            assert overlap is None or 0.0 <= overlap <= 1.0
        assert r.prediction.processes == n and r.prediction.bus_bandwidth > 0


def test_result_round_trips_through_json(rec):
    run = rec['runs'][0]
    again = result_from_dict(json.loads(json.dumps(recording.results(rec)[run['world_size']].to_dict())))
    first = recording.results(rec)[run['world_size']]
    assert [v.times for v in again.versions] == [v.times for v in first.versions]
    assert again.prediction == first.prediction
    assert again.overlap_row('hooks') == first.overlap_row('hooks')


def test_shared_cores_are_recorded(rec):
    shared = {run['world_size']: run['shared_cores'] for run in rec['runs']}
    assert shared[4] is True  # 4 processes on 2 cores took turns


def test_the_picture_is_c_against_a_by_the_rule_at_the_fewest_processes(rec):
    from d2l_ext.display import allreduce as show
    from d2l_ext.display import allreduce_recorded as R
    gpu = as_gpu(rec)
    assert R.recorded_text(gpu) == show.paid_line(recording.results(gpu)[2])
    assert R.recorded_text(gpu).startswith('2 processes, ')


def test_the_picture_is_one_figure_steps_without_the_formula_then_c_s_profiled_step(rec):
    from d2l_ext.display import allreduce_recorded as R
    top, timeline = R.plot_recorded(as_gpu(rec)).axes[:2]
    title = top.get_title(loc='left')
    assert ', 16-core host, ' in title and '2 processes' in title and 'GPU' not in title  # gloo used the CPU
    labels = [t.get_text().split('\n')[0] for t in top.get_yticklabels()]
    assert labels[:3] == ['step without all-reduce', '(a) after backward', '(c) hooks'] and 'DDP' in labels[3]
    assert not [p for p in top.patches if p.get_hatch()]  # no formula bars: the lesson defines the formula later
    assert len(timeline.get_yticks()) == 4  # the fewest processes (2): two rows each


def test_no_recording_says_so():
    from d2l_ext.display import allreduce_recorded as R
    assert R.recorded_text(None).strip()


def test_names_and_newest(rec, tmp_path):
    assert recording.file_name(rec).startswith('cpu-only-')
    assert recording.file_name(as_gpu(rec)) == 'NVIDIA-H200-x1-2026-12-03.json'
    (tmp_path / 'cpu.json').write_text(json.dumps(rec))
    assert recording.newest(tmp_path) is None  # a CPU recording is never shown as the recorded GPU machine's
    assert recording.newest(tmp_path, gpu_only=False)['file'] == 'cpu.json'
    for date in ('2026-12-01', '2026-12-03'):
        (tmp_path / f'{date}.json').write_text(json.dumps(as_gpu(rec, date=f'{date}T00:00:00+00:00')))
    assert recording.newest(tmp_path)['file'] == '2026-12-03.json'


def test_wrong_files_are_refused(rec, tmp_path):
    bad = tmp_path / 'bad.json'
    for content in ('not json', json.dumps({**rec, 'format': 99}), json.dumps({**rec, 'section': '13.3.3'}),
                    json.dumps({**rec, 'runs': []})):
        bad.write_text(content)
        with pytest.raises(UsageError):
            load(bad)


def test_shipped_recordings_are_from_a_gpu_machine():
    files = sorted(recording.FOLDER.glob('*.json'))
    if not files:
        pytest.skip('no 13.3.4 recording shipped yet')
    for path in files:
        shipped = load(path)
        assert recording.is_gpu_machine(shipped), f'{path.name} was not recorded on a GPU machine'
        assert path.name == recording.file_name(shipped)
        assert [r['world_size'] for r in shipped['runs']] == [2, 4, 8]
        assert not any(r['shared_cores'] for r in shipped['runs'])


def test_lesson_shows_the_recording():
    source = LESSON.read_text(encoding='utf-8')
    assert 'recording.newest()' in source and 'plot_recorded' in source


@pytest.mark.slow
def test_recorder_runs_here_at_a_tiny_size(tmp_path):
    out = tmp_path / 'r.json'
    done = subprocess.run([sys.executable, str(ROOT / 'tools' / 'record_allreduce.py'), '--out', str(out),
                           '--world-sizes', '2', '--layers', '2', '--width', '32', '--batch', '4', '--repeats', '1',
                           '--profiled', '1', '--bucket-mb', '1'], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rec = load(out)
    assert [r['world_size'] for r in rec['runs']] == [2] and 'ship it as' in done.stdout
    again = subprocess.run([sys.executable, str(ROOT / 'tools' / 'record_allreduce.py'), '--out', str(out)],
                           capture_output=True, text=True, timeout=60)
    assert again.returncode != 0 and 'exists' in again.stderr  # never replaced without --force
