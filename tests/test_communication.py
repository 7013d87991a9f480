"""13.3.2 on a CPU-only machine: a labelled analogue with every repeat, timelines with raw events."""
import json

import pytest

from d2l_ext.communication import (
    expected_overlap,
    measure_comm,
    measure_comm_timelines,
    measure_exercise_three,
    measure_first_copy,
)
from d2l_ext.lanes import fake_hardware, pick_lanes


def cpu_lanes():
    """This file tests the CPU analogue: pick CPU lanes on a GPU machine too."""
    with fake_hardware(gpus=0):
        return pick_lanes('torch')


def test_expectation_rules():
    assert expected_overlap(1.0, 0.5, 'separate') == 1.0
    assert expected_overlap(1.0, 0.5, 'one_stream') == 1.5
    assert expected_overlap(1.0, 0.5, 'engine') == 1.5


def test_comm_on_cpu_is_a_labelled_analogue():
    r = measure_comm(cpu_lanes(), size=64, iters=3, repeats=2)
    assert r.has_link is False and r.link_gbps is None
    (row,) = r.rows
    assert row.mode == 'cpu_analogue' and row.max_rel_error < 1e-4
    assert set(row.times) == {'run', 'copy', 'run_then_copy', 'overlapped'}
    assert all(len(m.times) == 2 for m in row.times.values())
    d = json.loads(json.dumps(r.to_json()))
    assert {'run', 'copy', 'run_then_copy', 'overlapped', 'expected', 'copy_gbps'} <= set(d['rows'][0])
    assert len(r.to_frame()) == 1


def test_timelines_first_copy_and_exercise_three_on_cpu():
    lanes = cpu_lanes()
    (tl,) = measure_comm_timelines(lanes, size=64, iters=3)
    assert tl.plan == 'cpu_analogue' and {e['role'] for e in tl.events} == {'compute', 'copy'}
    assert len(tl.events) == 6
    assert measure_first_copy(lanes).reason == 'communication.first_copy.no_gpu'
    ex = measure_exercise_three(lanes, size=64, iters=2, repeats=1)
    assert set(ex.times) == {'lane1_compute_and_copy', 'lane2_compute', 'together'}
    assert ex.serial_sum == pytest.approx(ex.times['lane1_compute_and_copy'].median + ex.times['lane2_compute'].median)


def test_rates_predict_and_texts_follow_the_numbers():
    from d2l_ext.communication import measure_rates
    from d2l_ext.display import communication as show
    from d2l_ext.i18n import using_language
    from d2l_ext.recorded import load_recordings
    from d2l_ext.timing import Comparison, Measurement
    lane = cpu_lanes()[0]
    r = measure_rates(lane, 64, repeats=2)
    assert r.gpu is False and r.flops > 0 and r.copy_gbps > 0
    s = r.seconds(3)
    assert s['run'] > 0 and s['copy'] > 0
    c = Comparison({'run': Measurement('run', [1.0]), 'run_then_copy': Measurement('r', [1.5]),
                    'overlapped': Measurement('o', [1.1])})
    fast = dict(measured=0.9, predicted=0.9, compute_busy=1.0)
    text = show.overlap_text(c, {'overlapped': 1.0}, fast)
    assert '90%' in text and '0.4000 s less' in text and 'slower' not in text
    # wall clock gained less than the overlap, and the products ran longer beside the copies: the cause is named
    c.measurements['overlapped'].times[:] = [1.45]
    slowed = show.overlap_text(c, {'overlapped': 1.0}, dict(fast, compute_busy=1.4))
    assert 'ran slower' in slowed and '1.40 times as long' in slowed
    # the same gap without products that ran longer: numbers only, no cause
    assert 'slower' not in show.overlap_text(c, {'overlapped': 1.0}, fast)
    c.measurements['overlapped'].times[:] = [2.0]
    assert '0.5000 s more' in show.overlap_text(c, {'overlapped': 1.0}, fast)
    assert 'no overlap to measure' in show.overlap_text(c, {}, dict(measured=None, predicted=0.0))
    assert 'None' in show.guess_text(None, 1.0, 1.2) and 'your guess 0.9000 s' in show.guess_text(0.9, 1.0, 1.2)
    assert 'None' in show.guess_text('soon', 1.0, 1.2)
    with using_language('en'):  # a closed form outside the repeats' range gets its ratio, in either direction
        assert '2.5x the measured time' in show.guess_text(None, 0.05, 0.02, repeats=[0.019, 0.02, 0.021])
        assert 'was 2.0x what' in show.guess_text(None, 0.01, 0.02, repeats=[0.019, 0.02, 0.021])
        assert 'x' not in show.guess_text(None, 0.02, 0.02, repeats=[0.019, 0.02, 0.021]).split('(median)')[-1]
    assert [show._two_digits(x) for x in (0.00064, 0.64, 9.99, 64.3, 6407)] == ['0.00064', '0.64', '10', '64', '6400']
    rec = show.newest(load_recordings())
    with using_language('zh'):
        assert '秒' in show.recorded_text(rec) and '秒' in show.recorded_prediction_text(rec)
    assert show.timelines_missing_text(None) and show.first_copy_text(None)


def test_recorded_captions_and_overlap_come_from_the_recording():
    from d2l_ext.display import communication as show
    from d2l_ext.recorded import load_recordings
    rec = show.newest(load_recordings())
    c = rec.comm[0]
    title = show.recorded_title(rec)
    assert rec.machine['gpus'][0] in title and f'{c.iters} products of {c.size} x {c.size}' in title
    o = show.recorded_overlap(rec)
    assert 0 <= o['measured'] <= 1 and 0 <= o['predicted'] <= 1 and o['copies'] == c.iters
    assert f"{o['measured']:.0%}" in show.recorded_text(rec)
    tl = rec.comm_timelines[-1]
    products = sum(e['role'] == 'compute' for e in tl.events)
    assert f'{products} products' in show.timeline_title(tl)


def test_profile_split_counts_each_copy_once():
    from types import SimpleNamespace

    from d2l_ext.display import communication as show
    # torch.profiler lists a device-to-host copy twice: the operator and its kernel, with the same time
    rows = [SimpleNamespace(key='aten::mm', self_device_time_total=131e3),
            SimpleNamespace(key='aten::copy_', self_device_time_total=57.9e3),
            SimpleNamespace(key='Memcpy DtoH (Device -> Pinned)', self_device_time_total=57.9e3)]
    prof = SimpleNamespace(key_averages=lambda: rows)
    text = show.profile_text(prof, gpu=True)
    assert '0.0579 s' in text and '0.1158' not in text
