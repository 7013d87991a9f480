"""13.3.1/13.3.2 measurements: in this process on lanes chosen with fake_hardware, and in their framework's worker."""
import glob
import os
import tempfile

import pytest

from d2l_ext import UsageError
from d2l_ext.communication import measure_comm
from d2l_ext.errors import RunTooLong
from d2l_ext.frameworks import frameworks_for
from d2l_ext.lanes import fake_hardware, find_lanes
from d2l_ext.parallel import measure_parallel, parallel, timeline
from d2l_ext.workers import shutdown, worker_pids
from tests.conftest import needs_mxnet


def cpu_lanes(cores: int):
    with fake_hardware(gpus=0, cores=cores):
        return find_lanes('torch')


def profiler_folders(pid: int) -> list[str]:
    return glob.glob(os.path.join(tempfile.gettempdir(), f'd2l_ext_mxprof_{pid}_*'))


def test_frameworks_for_checks_the_name():
    assert frameworks_for('torch') == ['torch'] and 'torch' in frameworks_for('all')
    with pytest.raises(UsageError, match="'jax'.*'torch'.*'mxnet'"):
        frameworks_for('jax')


def test_parallel_in_this_process_is_checked_against_float64():
    with fake_hardware(gpus=0, cores=2):
        r = measure_parallel(find_lanes('torch'), 64, 2, 1)
    assert r.correct and r.max_rel_error < 1e-4 and r.iters == [2, 2] and len(r.lane_times) == 2
    assert r.expectation.rule == 'shared' and r.expectation.ways == 2 and 1 <= r.expected_speedup <= 2


def test_one_core_promises_no_speedup():
    with fake_hardware(gpus=0, cores=1):
        r = measure_parallel(find_lanes('torch'), 64, 2, 1)
    assert r.expectation.ways == 1 and r.expected_speedup <= 1.0 + 1e-9


def test_comm_in_this_process_on_a_cpu_lane():
    with fake_hardware(gpus=0, cores=2):
        r = measure_comm(find_lanes('torch'), 64, 2, 1)
    assert r.rows and all(row.max_rel_error < 1e-4 for row in r.rows)


def test_a_run_estimated_too_long_is_refused_before_it_starts(monkeypatch):
    # A fixed speed (1 TFLOP/s) rather than this machine's: a busy shared core would turn the suggested
    # --iters into a smaller --size, and which one the learner reads is what this test checks.
    monkeypatch.setattr('d2l_ext.workloads.lane_speed', lambda lane, work=None: (1e12, 0.0))
    with fake_hardware(gpus=0, cores=2), pytest.raises(RunTooLong, match=r'would take about .* choose --iters \d+'):
        measure_parallel(find_lanes('torch'), 1000, 200, 3, max_seconds=1)


def test_parallel_runs_in_its_worker_not_here():
    try:
        r = parallel('torch', size=64, iters=2, repeats=1)
        assert r.correct and r.max_rel_error < 1e-4
        assert worker_pids('torch') and os.getpid() not in worker_pids('torch')
    finally:
        shutdown()


@pytest.mark.slow
@needs_mxnet
def test_mxnet_timeline_re_runs_in_one_worker_and_leaves_no_profiler_folder():
    try:
        r = parallel('mxnet', size=64, iters=2, repeats=1)
        assert r.framework == 'mxnet' and r.max_rel_error < 1e-4
        for _ in range(3):  # the engine's profiler is read again and again in the same worker (Run All twice)
            t = timeline('mxnet', size=64, iters=3)
            assert len(t.events) == 6 and all('/w' in e['lane'] for e in t.events)  # worker rows
        (pid,) = worker_pids('mxnet')
        (folder,) = profiler_folders(pid)
        assert os.listdir(folder) == []  # each trace is removed once read
    finally:
        shutdown()
    assert profiler_folders(pid) == []
