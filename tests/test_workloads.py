"""Sizes and iterations come from one place, are refused by what they cost, and suggest valid input."""
import re

import pytest

from d2l_ext import UsageError
from d2l_ext.lanes import fake_hardware, find_lanes
from d2l_ext.workloads import Workload, check_budget, resolve_workload


def cpu_lanes():
    with fake_hardware(gpus=0, cores=2):  # two CPU lanes of one thread, on any machine (16 cores, a GPU)
        return find_lanes('torch')


def test_defaults_follow_the_hardware():
    with fake_hardware(gpus=2):
        w = resolve_workload(find_lanes('torch'))
    assert (w.size, w.iters) == (4000, [50, 50]) and w.estimated_seconds > 0
    w = resolve_workload(cpu_lanes())
    assert 100 <= w.size <= 3000 and w.iters == [10, 10]
    assert resolve_workload(cpu_lanes(), lesson=True).size == 800


def test_one_count_or_one_per_lane():
    assert resolve_workload(cpu_lanes(), 64, [2, 3]).iters == [2, 3]
    with pytest.raises(UsageError, match='one per lane'):
        resolve_workload(cpu_lanes(), 64, [2, 3, 4])


@pytest.mark.parametrize('size, iters, message', [
    (0, 2, 'matrix size must be at least 1'),
    (64, 0, r'iteration count must be at least 1, got 0: pass a positive --iters, e.g. 10'),
    ('big', 2, 'matrix size must be a whole number'),
    (10 ** 7, 2, 'choose a size of at most'),
])
def test_bad_input_says_what_to_change(size, iters, message):
    with pytest.raises(UsageError, match=message):
        resolve_workload(cpu_lanes(), size, iters)


def test_tiny_matrices_count_their_bookkeeping_and_suggest_fewer_iterations():
    with pytest.raises(UsageError) as e:
        resolve_workload(cpu_lanes(), 1, 10 ** 9)
    message = str(e.value)
    assert '\n' not in message and 'size of at most' not in message
    fit = int(re.search(r'--iters (\d+) or fewer', message).group(1))
    assert fit >= 1
    resolve_workload(cpu_lanes(), 1, min(fit, 1000))  # the suggestion is itself valid input


def test_tiny_matrices_beside_a_gpu_suggest_fewer_iterations_not_a_size_already_smaller():
    with fake_hardware(gpus=1):
        lanes = find_lanes('torch')
        with pytest.raises(UsageError) as e:
            resolve_workload(lanes, 1, 10 ** 9)
        assert 'size of at most' not in str(e.value)
        fit = int(re.search(r'--iters (\d+) or fewer', str(e.value)).group(1))
        resolve_workload(lanes, 1, min(fit, 1000))


def test_a_too_large_size_never_suggests_less_than_one():
    with pytest.raises(UsageError) as e:
        resolve_workload(cpu_lanes(), 10 ** 7, 2)
    assert int(re.search(r'at most (\d+)', str(e.value)).group(1)) >= 1


def test_budget_refuses_long_runs_with_the_estimate_and_a_valid_suggestion():
    w = Workload(1000, [100], 100 * 0.02, [(1e11, 1e-6)])  # 2 GFLOP per product at 100 GFLOP/s
    check_budget(w, 60, 'this run')  # 2 s: fine
    with pytest.raises(UsageError, match=r'would take about 20 s here.*limit of 5 s: choose --iters 24 or fewer'):
        check_budget(w, 5, 'this run', passes=10)
    with pytest.raises(UsageError, match=r'choose --size \d+ or smaller with --iters 1'):
        check_budget(w, 0.001, 'this run', passes=10)


def test_estimate_comes_from_a_calibration_here():
    w = resolve_workload(cpu_lanes(), 200, 5)
    assert len(w.calibration) == 2 and all(rate > 1e8 and call > 0 for rate, call in w.calibration)
    assert w.estimated_seconds == pytest.approx(sum(5 * (2 * 200 ** 3 / r + c) for r, c in w.calibration))


def test_balanced_counts_beside_a_gpu_shrink_together_to_fit_its_free_memory(monkeypatch):
    import d2l_ext.workloads as W
    with fake_hardware(gpus=1):
        lanes = find_lanes('torch')
        monkeypatch.setattr(W, 'balanced_iters', lambda lanes, n, seconds, work: [4883, 10])  # a fast GPU's share
        monkeypatch.setattr(W, '_free_bytes', lambda lane: 17 * 2**30 if lane.kind == 'gpu' else 64 * 2**30)
        w = resolve_workload(lanes, 1000, lesson=True)
    gpu, cpu = w.iters
    assert gpu < 4883 and (gpu + 2) * 4 * 1000 ** 2 <= W.HEADROOM * 17 * 2**30  # fits the GPU
    assert abs(gpu / cpu - 488.3) / 488.3 < 0.15  # the same ratio: the lanes stay balanced
