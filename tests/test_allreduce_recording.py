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

from d2l_ext.allreduce import recording
from d2l_ext.allreduce.results import result_from_dict
from d2l_ext.errors import UsageError
from d2l_ext.i18n import using_language

ROOT = pathlib.Path(__file__).resolve().parents[1]
FIXTURE = ROOT / 'tests' / 'data' / 'allreduce-recording-cpu.json'
LESSON = ROOT / 'notebooks' / 'src' / '13.3.4-Allreduce-During-Backward.py'


@pytest.fixture(scope='module')
def rec():
    return recording.load(FIXTURE)


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
        for vid in ('serial', 'flat', 'hooks', r.best_ddp().id):  # one step's intervals per process
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
    text = __import__('d2l_ext.display.allreduce_recorded', fromlist=['x']).recorded_text(rec)
    assert 'taking turns' in text


def test_caption_comes_from_the_recording(rec):
    from d2l_ext.display import allreduce_recorded as R
    gpu = as_gpu(rec)
    text = R.recorded_text(gpu)
    assert 'NVIDIA H200 x1' in text and '16 CPU cores' in text and '2026-12-03' in text
    assert rec['machine']['versions']['torch'] in text and 'world sizes 2, 4' in text
    r2 = recording.results(rec)[2]
    assert f"{r2.version('serial').median * 1e3:.1f} ms" in text
    later = as_gpu(rec, date='2027-01-05T00:00:00+00:00')
    later['runs'][0]['result']['versions'][2]['times'][0][0] += 1.0  # one repeat slower: the caption changes
    assert '2027-01-05' in R.recorded_text(later) and R.recorded_text(later) != text
    with using_language('zh'):
        zh = R.recorded_text(gpu)
    assert '录制于' in zh and 'Recorded' not in zh


def test_the_caption_says_whether_this_machine_is_the_recordings(rec):
    from d2l_ext.display import allreduce_recorded as R
    gpu = as_gpu(rec)
    same = R.this_machine_text(gpu, here={'gpus': list(gpu['machine']['gpus']), 'cpu_cores': 16})
    assert same.startswith('This machine has what the recording') and 'NVIDIA H200 x1' in same
    other = R.this_machine_text(gpu, here={'gpus': [], 'cpu_cores': 2})
    assert 'differs' in other and 'no GPU and 2 CPU cores' in other and 'NVIDIA H200 x1 and 16' in other
    assert 'larger machine' not in R.recorded_text(gpu)


def test_no_recording_says_so():
    from d2l_ext.display import allreduce_recorded as R
    assert R.recorded_text(None).strip()


def test_figures_draw_from_the_recording(rec):
    from d2l_ext.display import allreduce_recorded as R
    fig = R.plot_recorded(as_gpu(rec))
    left, right = fig.axes[:2]
    assert [t.get_text() for t in left.get_xticklabels()] == ['2', '4']
    assert right.get_ylim() == (0.0, 1.05)  # an overlap is a fraction
    assert 'NVIDIA H200 x1' in fig._suptitle.get_text()
    tl = R.draw_recorded_timeline(rec, 4, 'hooks')
    assert len(tl.axes[0].get_yticks()) == 8  # two rows per process
    with pytest.raises(UsageError, match='8'):
        R.draw_recorded_timeline(rec, 8)


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
            recording.load(bad)


def test_shipped_recordings_are_from_a_gpu_machine():
    files = sorted(recording.FOLDER.glob('*.json'))
    if not files:
        pytest.skip('no 13.3.4 recording shipped yet')
    for path in files:
        shipped = recording.load(path)
        assert recording.is_gpu_machine(shipped), f'{path.name} was not recorded on a GPU machine'
        assert path.name == recording.file_name(shipped)
        assert [r['world_size'] for r in shipped['runs']] == [2, 4, 8]
        assert not any(r['shared_cores'] for r in shipped['runs'])


def test_lesson_shows_the_recording():
    source = LESSON.read_text(encoding='utf-8')
    assert 'recording.newest()' in source and 'plot_recorded' in source and 'draw_recorded_timeline' in source


@pytest.mark.slow
def test_recorder_runs_here_at_a_tiny_size(tmp_path):
    out = tmp_path / 'r.json'
    done = subprocess.run([sys.executable, str(ROOT / 'tools' / 'record_allreduce.py'), '--out', str(out),
                           '--world-sizes', '2', '--layers', '2', '--width', '32', '--batch', '4', '--repeats', '1',
                           '--profiled', '1', '--bucket-mb', '1'], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rec = recording.load(out)
    assert [r['world_size'] for r in rec['runs']] == [2] and 'ship it as' in done.stdout
    again = subprocess.run([sys.executable, str(ROOT / 'tools' / 'record_allreduce.py'), '--out', str(out)],
                           capture_output=True, text=True, timeout=60)
    assert again.returncode != 0 and 'exists' in again.stderr  # never replaced without --force


def test_overlap_text_filters_versions_and_says_when_processes_take_turns(rec):
    from d2l_ext.display import allreduce as show
    runs = recording.results(rec)
    shared, own = runs[4], runs[2]  # 4 processes took turns on 2 cores; 2 had a core each
    assert 'take turns' in show.overlap_text(shared) and 'take turns' not in show.overlap_text(own)
    only = show.overlap_text(own, ['hooks'])
    assert '(c)' in only and '(d)' not in only
    fig = show.plot_steps(own, ids=['serial', 'hooks'])
    assert len(fig.axes[0].get_yticks()) == 2


def test_panel_starts_from_a_run_already_made(rec, monkeypatch):
    pytest.importorskip('ipywidgets')
    from d2l_ext.display.allreduce_panel import BucketPanel

    def no_run(**_):
        raise AssertionError('the panel started processes although it was given a run')
    monkeypatch.setattr('d2l_ext.allreduce.run_allreduce', no_run)
    first = recording.results(rec)[2]
    panel = BucketPanel(bucket_mb=1.0).show(first=first)
    assert len(panel.rows) == len(first.ddp_versions()) and panel.figure is not None
    assert len(panel.results) == 1 and 'd2l-table' in panel.table.value
