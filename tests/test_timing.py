"""The timer waits for every device, repeats, reports median and IQR, and checks answers."""
import pytest
import torch

from d2l_ext import Benchmark, compare, measure
from d2l_ext.lanes import make_lane
from d2l_ext.timing import Measurement, wait_for_lanes


def gpu_lane(i, fw='torch'):
    return make_lane(fw, 'gpu', i)


def test_measurement_median_and_iqr():
    m = Measurement('x', [1.0, 2.0, 3.0, 4.0, 100.0])
    assert m.median == 3.0
    assert m.iqr == pytest.approx(2.0)
    assert m.as_dict()['repeats'] == 5


def test_wait_synchronizes_every_gpu_used(monkeypatch):
    calls = []
    monkeypatch.setattr(torch.cuda, 'synchronize', lambda device=None: calls.append(device))
    wait_for_lanes([gpu_lane(0), gpu_lane(1)])
    assert calls == [0, 1]  # not a bare synchronize(): that waits for the current device only


def test_measure_and_benchmark_wait_for_both_gpus_around_every_repeat(monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(torch.cuda, 'synchronize', lambda device=None: calls.append(device))
    lanes = [gpu_lane(0), gpu_lane(1)]
    m = measure(lambda: None, lanes=lanes, repeats=3, warmup=1)
    assert len(m.times) == 3
    assert calls.count(0) == calls.count(1) == 1 + 2 * 3  # warm-up, then before and after each repeat
    calls.clear()
    with Benchmark('GPU1 & GPU2', lanes=lanes):
        pass
    assert sorted(calls) == [0, 0, 1, 1]
    assert capsys.readouterr().out.startswith('GPU1 & GPU2: ')


def test_mxnet_lanes_wait_for_the_engine_without_importing_it(monkeypatch):
    """A stand-in module: importing MXNet here would drop this process's torch threads for every later test."""
    import sys
    import types
    calls = []
    fake = types.SimpleNamespace(nd=types.SimpleNamespace(waitall=lambda: calls.append('waitall')))
    monkeypatch.delitem(sys.modules, 'mxnet', raising=False)
    wait_for_lanes([make_lane('mxnet', 'cpu', 0)])  # MXNet not loaded: no work can be queued, nothing to wait for
    assert calls == [] and 'mxnet' not in sys.modules
    monkeypatch.setitem(sys.modules, 'mxnet', fake)
    wait_for_lanes([make_lane('torch', 'cpu', 0)])
    assert calls == []  # only MXNet lanes wait for its engine
    wait_for_lanes([make_lane('mxnet', 'cpu', 0), make_lane('mxnet', 'cpu', 1)])
    assert calls == ['waitall']  # one wait covers every context


def test_the_check_sees_the_timed_result():
    seen = []
    measure(lambda: 42, repeats=2, check=seen.append)
    assert seen == [42]


def test_compare_interleaves_the_variants_and_keeps_every_repeat():
    order, checked = [], {}
    c = compare({'a': lambda: order.append('a') or 'A', 'b': lambda: order.append('b') or 'B'}, repeats=3,
                warmup=1, check=lambda name, result: checked.update({name: result}))
    assert order == ['a', 'b'] * 4  # warm-up, then a, b, a, b, a, b
    assert checked == {'a': 'A', 'b': 'B'}
    assert [len(c[name].times) for name in c] == [3, 3]
    frame = c.to_frame()
    assert list(frame.index) == ['a', 'b'] and frame.loc['a', 'median (s)'] == c['a'].median
    assert len(frame.loc['b', 'every repeat (s)']) == 3


def test_compare_waits_for_the_lanes_around_every_run(monkeypatch):
    calls = []
    monkeypatch.setattr(torch.cuda, 'synchronize', lambda device=None: calls.append(device))
    compare({'x': lambda: None, 'y': lambda: None}, lanes=[gpu_lane(0)], repeats=2, warmup=0)
    assert len(calls) == 2 * 2 * 2


def test_a_wrong_answer_in_compare_is_caught():
    from d2l_ext import ResultMismatch, check_close
    ref = torch.eye(2, dtype=torch.float64)
    with pytest.raises(ResultMismatch, match='fast: relative error'):
        compare({'fast': lambda: torch.eye(2) * 1.1}, repeats=1,
                check=lambda name, result: check_close(result, ref, name))


def test_measurement_is_a_dataclass_for_json():
    import dataclasses
    import json
    m = Measurement('x', [0.5, 0.25])
    assert json.loads(json.dumps(dataclasses.asdict(m))) == {'label': 'x', 'median': 0.375, 'iqr': 0.125,
                                                             'min': 0.25, 'max': 0.5, 'times': [0.5, 0.25]}


def test_measure_and_compare_return_the_one_measurement_type():
    from d2l_ext import results
    m = measure(lambda: None, repeats=3, warmup=0, label='w')
    c = compare({'a': lambda: None}, repeats=2, warmup=0)
    assert type(m) is type(c['a']) is results.Measurement is results.Times
    assert (m.label, m.repeats, m.median) == ('w', 3, results.spread(m.times)[0])


def test_every_timed_run_starts_after_the_settling_pause(monkeypatch):
    # the previous run's spinning pool threads must not land in the next run's time (timing.settle, tools/omp_spin.py)
    from d2l_ext import timing
    events = []
    monkeypatch.setattr(timing, 'settle', lambda: events.append('settle'))
    monkeypatch.setattr(timing.time, 'perf_counter', lambda: events.append('clock') or 0.0)
    compare({'x': lambda: events.append('x'), 'y': lambda: events.append('y')}, repeats=2, warmup=0)
    runs = [i for i, e in enumerate(events) if e in ('x', 'y')]
    assert len(runs) == 4 and all(events[i - 2:i] == ['settle', 'clock'] for i in runs)


def test_the_depgraph_timer_settles_before_every_way(monkeypatch):
    from d2l_ext.depgraph import recording
    calls = []
    monkeypatch.setattr(recording, 'settle', lambda: calls.append(1))
    recording.record_step(batches=(16,), repeats=1, warmup=0, sizes={'hidden': 8})
    assert len(calls) == len(recording.VARIANTS)
