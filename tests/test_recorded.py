"""Recordings: old GPU files load as typed results, CPU recordings are never GPU evidence, paths checked first."""
import json

import pytest

from d2l_ext import UsageError
from d2l_ext.recorded import FOLDER, Recording, check_output, from_json, load_recordings


def test_shipped_gpu_recordings_load_typed():
    recs = load_recordings()
    assert recs and all(r.gpu for r in recs)
    for r in recs:
        assert r.label().startswith('recorded on NVIDIA')
        p = r.parallel[0]
        assert p.expectation.rule == 'separate' and p.expected == max(m.median for m in p.lane_times)
        assert len(r.comm[0].rows) == 4 and r.timelines[0].events
        json.dumps(r.to_json())


def test_cpu_recording_is_labelled_and_left_out_of_gpu_evidence(tmp_path):
    old = json.loads(sorted(FOLDER.glob('*.json'))[0].read_text())
    old['machine'] = dict(old['machine'], gpus=[])
    (tmp_path / 'cpu.json').write_text(json.dumps(old))
    assert load_recordings(folder=tmp_path) == []
    (rec,) = load_recordings(gpu_only=False, folder=tmp_path)
    assert not rec.gpu and rec.label().startswith('CPU recording (no GPU)')


def test_new_format_round_trips():
    rec = load_recordings()[0]
    again = from_json(json.loads(json.dumps(rec.to_json())))
    assert isinstance(again, Recording) and again.parallel[0].together == rec.parallel[0].together


@pytest.mark.parametrize('make, message', [
    (lambda p: p, 'is a folder'),
    (lambda p: (p / 'x.json').write_text('{}') and p / 'x.json', 'already exists'),
    (lambda p: p / 'missing' / 'x.json', 'does not exist'),
])
def test_output_path_checked_before_measuring(tmp_path, make, message):
    with pytest.raises(UsageError, match=message):
        check_output(make(tmp_path))


def test_force_allows_replacing(tmp_path):
    f = tmp_path / 'x.json'
    f.write_text('{}')
    assert check_output(f, force=True) == f
