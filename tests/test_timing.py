"""The timer waits for every device, repeats, reports median and IQR, and checks answers."""
import pytest
import torch

from d2l_ext import Benchmark, Lane, ResultMismatch, measure
from d2l_ext.timing import Measurement, wait_for_lanes


def gpu_lane(i, fw='torch'):
    return Lane(fw, f'cuda:{i}', 'gpu', i, f'GPU {i}', 'fake', 0, True)


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


def test_mxnet_lanes_wait_for_the_engine(monkeypatch):
    mx = pytest.importorskip('mxnet')
    calls = []
    monkeypatch.setattr(mx.nd, 'waitall', lambda: calls.append('waitall'))
    wait_for_lanes([Lane('mxnet', 'cpu(0)', 'cpu', 0, 'cpu', 'fake', 1, True)])
    assert calls == ['waitall']


def test_a_fast_wrong_answer_is_caught(monkeypatch):
    from d2l_ext import torch_work
    from d2l_ext.parallel import parallel_experiment
    real_run = torch_work.run
    monkeypatch.setattr(torch_work, 'run', lambda x, iters=50: [y * 1.01 for y in real_run(x, iters)])
    with pytest.raises(ResultMismatch, match='relative error'):
        parallel_experiment('torch', size=64, iters=2, repeats=1)


def test_the_check_sees_the_timed_result():
    seen = []
    measure(lambda: 42, repeats=2, check=seen.append)
    assert seen == [42]
