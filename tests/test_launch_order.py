"""The lane runner starts CPU lanes before it queues GPU work (13.3.1): a full launch queue blocks."""
import threading

import pytest

from d2l_ext.backends import torch_backend
from d2l_ext.lanes import make_lane
from d2l_ext.workloads import balanced_iters

# A stand-in GPU lane: asynchronous, so run_on_lanes calls its job from the caller's thread, as it
# does for a real GPU whose launch queue may be full.
GPU = make_lane('torch', 'gpu', 0)
CPU = make_lane('torch', 'cpu', 0, threads=1, name='cpu')


@pytest.fixture(autouse=True)
def no_gpu_wait(monkeypatch):
    """The stand-in GPU lane has no device to synchronize: the runner's final wait is a no-op here."""
    monkeypatch.setattr(torch_backend, 'wait', lambda lanes: None)
    monkeypatch.setattr(torch_backend.torch.cuda, 'synchronize', lambda *args: None)


def blocking_jobs(timeout: float):
    """A GPU job that blocks like a launch into a full queue until the CPU lane runs, and that CPU job."""
    cpu_started = threading.Event()

    def gpu_job():
        if not cpu_started.wait(timeout=timeout):
            raise AssertionError('the CPU lane did not start while the GPU work was being queued')
        return 'gpu'

    def cpu_job():
        cpu_started.set()
        return 'cpu'
    return [gpu_job, cpu_job]


def test_cpu_lane_runs_while_gpu_queuing_blocks():
    assert torch_backend.run_on_lanes([GPU, CPU], blocking_jobs(timeout=5)) == ['gpu', 'cpu']


def test_the_old_order_fails_this_test():
    """Control: queuing the GPU's work before starting the CPU thread (the order before the fix) blocks."""
    with pytest.raises(AssertionError, match='did not start'):
        torch_backend.run_on_lanes([GPU, CPU], blocking_jobs(timeout=0.5), gpu_first=True)


def test_gpu_first_keeps_the_old_order():
    order = []
    torch_backend.run_on_lanes([GPU, CPU], [lambda: order.append('gpu'), lambda: order.append('cpu')],
                            gpu_first=True)
    assert order == ['gpu', 'cpu']


def test_failed_gpu_queuing_still_joins_cpu_threads():
    done = threading.Event()

    def cpu_job():
        done.wait(timeout=0.2)
        done.set()

    def gpu_job():
        raise RuntimeError('CUDA out of memory (stand-in)')
    with pytest.raises(RuntimeError, match='stand-in'):
        torch_backend.run_on_lanes([GPU, CPU], [gpu_job, cpu_job])
    assert done.is_set()  # the CPU thread had finished before the error reached us


def test_balanced_iters_scale_with_the_time_asked_for():
    lane = CPU
    k = balanced_iters([lane], 100, seconds=0.05)
    assert len(k) == 1 and k[0] >= 1
    # 100 x 100 products take microseconds: a tenth of a second holds many more than two
    assert balanced_iters([lane], 100, seconds=0.1)[0] > 2
