"""Each framework runs in its own worker; a dead worker is reported at once and replaced; Ctrl-C leaves nothing."""
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from d2l_ext import UsageError, WorkerFailed, workers
from d2l_ext.errors import WorkerHung, one_line_errors_in_notebooks
from d2l_ext.workers import (
    call_in_worker,
    report_progress,
    shutdown,
    worker_environment,
    worker_pids,
)
from tests.conftest import needs_mxnet


def torch_thread_report() -> dict:
    """What a PyTorch worker sees: thread count, and whether MXNet got into this process (run in the worker)."""
    import torch
    return {'torch_threads': torch.get_num_threads(), 'mxnet_loaded': 'mxnet' in sys.modules,
            'pid': os.getpid()}


def mxnet_worker_report() -> dict:
    """What an MXNet worker sees: engine settings read at import, and whether torch is loaded (run in the worker)."""
    from d2l_ext.backends.mxnet_backend import setup_mxnet
    setup_mxnet()
    return {'MXNET_CPU_WORKER_NTHREADS': os.environ.get('MXNET_CPU_WORKER_NTHREADS'),
            'OMP_NUM_THREADS': os.environ.get('OMP_NUM_THREADS'),
            'torch_loaded': 'torch' in sys.modules, 'pid': os.getpid()}


def fresh_torch_threads():
    out = subprocess.run([sys.executable, '-c', 'import torch; print(torch.get_num_threads())'],
                         capture_output=True, text=True, check=True)
    return int(out.stdout)


def slow_with_progress(steps: int, pause: float) -> int:
    """Runs in the worker: reports progress, then sleeps long enough to be killed."""
    for i in range(steps):
        report_progress(i + 1, steps)
        time.sleep(pause)
    return os.getpid()


def refuse_size() -> None:
    from d2l_ext.lanes import pick_lanes
    from d2l_ext.workloads import resolve_workload
    resolve_workload(pick_lanes('torch'), size=0)


@pytest.mark.slow
@needs_mxnet
def test_torch_threads_are_the_same_whether_or_not_mxnet_ran_first():
    shutdown()
    try:
        before = call_in_worker('torch', torch_thread_report)
        shutdown('torch')
        mx = call_in_worker('mxnet', mxnet_worker_report)
        after = call_in_worker('torch', torch_thread_report)
    finally:
        shutdown()
    assert before['torch_threads'] == after['torch_threads'] == fresh_torch_threads()
    assert not after['mxnet_loaded'] and not mx['torch_loaded']
    assert mx['pid'] != after['pid']
    assert mx['OMP_NUM_THREADS'] == '1' and int(mx['MXNET_CPU_WORKER_NTHREADS']) >= 2


@pytest.mark.slow
@needs_mxnet
def test_the_interference_we_isolate_against_is_real_here():
    """Control: in one process, importing mxnet after torch changes torch's thread count."""
    code = 'import torch; a = torch.get_num_threads(); import mxnet; print(a, torch.get_num_threads())'
    a, b = map(int, subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                                   check=True).stdout.split())
    if a == 1:
        pytest.skip('one core: nothing to drop')
    assert b != a


def test_a_usage_error_comes_back_from_the_worker_as_itself():
    with pytest.raises(UsageError, match='matrix size must be at least 1'):
        call_in_worker('torch', refuse_size)
    shutdown()


def test_progress_comes_back_from_the_worker():
    seen = []
    call_in_worker('torch', slow_with_progress, 3, 0.01, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_a_killed_worker_is_reported_at_once_and_the_next_call_starts_a_fresh_one():
    first = call_in_worker('torch', os.getpid)
    started = threading.Event()

    def kill_when_running(done, total):
        if not started.is_set():
            started.set()
            os.kill(first, signal.SIGKILL)  # what the out-of-memory killer does
    with pytest.raises(WorkerFailed, match='PyTorch worker process stopped .* the next run starts a fresh one'):
        call_in_worker('torch', slow_with_progress, 100, 0.5, progress=kill_when_running)  # 50 s unless noticed
    assert started.is_set()
    assert worker_pids('torch') == []
    second = call_in_worker('torch', os.getpid)
    assert second != first
    shutdown()


def test_an_interrupt_in_the_caller_kills_the_worker():
    pid = call_in_worker('torch', os.getpid)

    def interrupt(done, total):
        raise KeyboardInterrupt  # as Ctrl-C arrives in the caller while it waits
    with pytest.raises(KeyboardInterrupt):
        call_in_worker('torch', slow_with_progress, 100, 0.5, progress=interrupt)
    assert worker_pids('torch') == []
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # nothing is left running


def test_a_hung_worker_is_stopped_after_its_time_limit_with_one_line():
    pid = call_in_worker('torch', os.getpid)
    with pytest.raises(WorkerHung) as e:
        call_in_worker('torch', time.sleep, 60, timeout_s=1)  # answers nothing, does not die
    assert 'gave no answer within 1 s' in str(e.value) and '\n' not in str(e.value)
    assert worker_pids('torch') == []
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert call_in_worker('torch', os.getpid) != pid  # the next call starts a fresh one
    shutdown()


@pytest.mark.skipif(not hasattr(signal, 'SIGSTOP'), reason='needs SIGSTOP (POSIX)')
def test_a_stopped_worker_is_found_by_its_silence_even_without_a_time_limit(monkeypatch):
    """As in a notebook cell, which gives no time limit: a worker stopped with SIGSTOP is killed after SILENCE_S."""
    monkeypatch.setattr(workers, 'SILENCE_S', 3.0)
    pid = call_in_worker('torch', os.getpid)
    stopped = threading.Event()

    def stop_when_running(done, total):
        if not stopped.is_set():
            stopped.set()
            os.kill(pid, signal.SIGSTOP)  # alive, but answers nothing and sends no heartbeat
    try:
        with pytest.raises(WorkerHung) as e:
            call_in_worker('torch', slow_with_progress, 1000, 0.05, progress=stop_when_running)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)
    assert stopped.is_set() and 'silent for 3 s' in str(e.value) and '\n' not in str(e.value)
    assert worker_pids('torch') == []
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert call_in_worker('torch', os.getpid) != pid  # the next call starts a fresh one
    shutdown()


@pytest.mark.slow
def test_a_busy_worker_keeps_its_heartbeat_and_is_not_called_hung(monkeypatch):
    """A worker that only computes (sends no progress) is alive: its heartbeat keeps it from being stopped."""
    monkeypatch.setattr(workers, 'SILENCE_S', 3.0)
    pid = call_in_worker('torch', os.getpid)
    assert call_in_worker('torch', busy_for, 4.0) == pid
    shutdown()


def busy_for(seconds: float) -> int:
    """Runs in the worker: computes for `seconds` without reporting anything."""
    import torch
    end = time.monotonic() + seconds
    x = torch.ones(200, 200)
    while time.monotonic() < end:
        x = (x @ x).clamp_(max=1.0)
    return os.getpid()


def test_a_failed_worker_in_a_notebook_cell_shows_one_line(capsys):
    interactive = pytest.importorskip('IPython.core.interactiveshell')
    shell = interactive.InteractiveShell.instance()
    try:
        one_line_errors_in_notebooks()
        result = shell.run_cell('from d2l_ext import WorkerFailed\nraise WorkerFailed("the PyTorch worker stopped")')
        bad = shell.run_cell('from d2l_ext import UsageError\nraise UsageError("choose a smaller size")')
    finally:
        shell.set_custom_exc((), None)
        interactive.InteractiveShell.clear_instance()
    out = capsys.readouterr()
    shown = [line for line in (out.out + out.err).splitlines() if line.strip()]
    assert shown == ['WorkerFailed: the PyTorch worker stopped', 'UsageError: choose a smaller size']
    assert isinstance(result.error_in_exec, WorkerFailed) and isinstance(bad.error_in_exec, UsageError)


def test_a_worker_under_its_own_key_has_the_framework_environment_and_stops_alone():
    assert worker_environment('torch:first-copy') == worker_environment('torch') == {}
    assert worker_environment('mxnet:NaiveEngine')['MXNET_ENGINE_TYPE'] == 'NaiveEngine'
    assert 'MXNET_ENGINE_TYPE' not in worker_environment('mxnet:second')  # a name, not an engine
    try:
        main = call_in_worker('torch', os.getpid)
        other = call_in_worker('torch:first-copy', os.getpid)
        assert main != other and set(worker_pids('torch')) == {main, other}
        shutdown('torch:first-copy')
        assert worker_pids('torch') == [main] and worker_pids('torch:first-copy') == []
    finally:
        shutdown()
    assert worker_pids('torch') == []


def mxnet_profiler_folder() -> str:
    """Runs in an MXNet worker: one timeline, then the folder its profiler writes to."""
    from d2l_ext.backends import mxnet_backend
    from d2l_ext.lanes import find_lanes
    lanes = find_lanes('mxnet')
    xs = [mxnet_backend.random_matrix(lane, 32) for lane in lanes]
    mxnet_backend.lane_timeline(lanes, xs, [2, 2])
    return os.path.dirname(mxnet_backend._profile_path())


@pytest.mark.slow
@needs_mxnet
def test_a_killed_mxnet_worker_leaves_no_profiler_folder():
    try:
        folder = call_in_worker('mxnet', mxnet_profiler_folder)
        assert os.path.isdir(folder)
        os.kill(worker_pids('mxnet')[0], signal.SIGKILL)  # no atexit handler runs
        with contextlib.suppress(WorkerFailed):  # the pool notices the death before or during this call
            call_in_worker('mxnet', os.getpid)
        call_in_worker('mxnet', os.getpid)  # a fresh worker removes what the killed one left
        assert not os.path.exists(folder)
    finally:
        shutdown()


def test_a_worker_whose_caller_is_killed_ends_itself():
    code = ('import os\nfrom d2l_ext.workers import call_in_worker\nif __name__ == "__main__":\n'
            '    print(call_in_worker("torch", os.getpid), flush=True)\n    os._exit(0)\n')  # no shutdown, no atexit
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONPATH=os.getcwd()))
    pid = int(out.stdout)
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)
    raise AssertionError('the orphaned worker kept running')


def test_a_worker_that_died_while_idle_is_replaced_before_the_next_call():
    # A notebook: a run, then the worker is killed between cells (out-of-memory killer); the next run just works.
    first = call_in_worker('torch', os.getpid)
    os.kill(first, signal.SIGKILL)
    for _ in range(100):  # until the kernel has reaped it
        if first not in worker_pids('torch'):
            break
        time.sleep(0.05)
    second = call_in_worker('torch', os.getpid)  # no WorkerFailed: nothing was running when it died
    assert second != first and worker_pids('torch') == [second]
    shutdown()
