"""13.3.2's waits on a GPU lane: the lane's own device is synchronized (a lane on cuda:1 waits on cuda:1).

torch.cuda is faked, so this runs on any machine: the fakes record which device each wait names.
"""
import threading
from types import SimpleNamespace

import pytest
import torch

from d2l_ext.communication import tracing
from d2l_ext.grading import copy as T


class FakeLane(SimpleNamespace):
    def device(self):
        return torch.device('cuda', self.index) if self.kind == 'gpu' else torch.device('cpu')


@pytest.fixture
def waits(monkeypatch):
    """Every torch.cuda.synchronize call's argument, on a fake machine with 2 started GPUs (cuda:0 current)."""
    calls = []
    monkeypatch.setattr(torch.cuda, 'synchronize', lambda device=None: calls.append(device))
    monkeypatch.setattr(torch.cuda, 'is_available', lambda: True)
    monkeypatch.setattr(torch.cuda, 'is_initialized', lambda: True)
    monkeypatch.setattr(torch.cuda, 'device_count', lambda: 2)
    return calls


def test_finish_waits_on_the_lanes_own_gpu(waits):
    tracing.finish(set(threading.enumerate()), lane=FakeLane(kind='gpu', index=1))
    assert waits == [torch.device('cuda', 1)]


def test_finish_without_a_lane_waits_on_every_gpu_and_a_cpu_lane_on_none(waits):
    tracing.finish(set(threading.enumerate()))
    assert waits == [0, 1]
    waits.clear()
    tracing.finish(set(threading.enumerate()), lane=FakeLane(kind='cpu', index=0))
    assert waits == []


def test_poison_waits_on_the_lanes_gpu(waits, monkeypatch):
    made = []
    monkeypatch.setattr(torch, 'full', lambda shape, value, device=None: made.append(device))
    T._poison(FakeLane(kind='gpu', index=1))
    assert made and set(made) == {torch.device('cuda', 1)} and waits == [torch.device('cuda', 1)]
    waits.clear()
    T._poison(FakeLane(kind='cpu', index=0))  # nothing to poison or wait for on a CPU lane
    assert waits == []


def test_profiled_run_waits_on_the_given_device(waits, monkeypatch):
    import torch.profiler

    class Profile:  # a profiler that records nothing and writes an empty trace
        def __init__(self, **kwargs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def export_chrome_trace(self, path):
            with open(path, 'w', encoding='utf-8') as f:
                f.write('{"traceEvents": []}')
    monkeypatch.setattr(torch.profiler, 'profile', Profile)
    value, events, wall = tracing._profiled(lambda: 42, torch.device('cuda', 1))
    # the call is timed between two waits on its own device: before it (earlier work) and after it
    assert value == 42 and events == [] and wall >= 0 and waits == [torch.device('cuda', 1)] * 2
