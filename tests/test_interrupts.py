"""Ctrl-C at any moment (importing, starting processes, measuring) ends with one line, exit 130, nothing running.

Ctrl-C in a terminal reaches every process of the group, so the tests send SIGINT to the whole
group. They wait for events, not for time: `-X importtime` prints a line as each module finishes
importing, in the CLI and in every process it starts, so a line names the moment to interrupt.
"""
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from d2l_ext import cliparse
from d2l_ext.errors import UsageError

pytestmark = pytest.mark.skipif(not hasattr(os, 'killpg'), reason='needs process groups (POSIX)')


class Run:
    """The CLI in a session of its own; `wait_for(pred)` returns once a line of its stderr matches pred."""

    def __init__(self, *args):
        env = dict(os.environ, PYTHONPATH=os.getcwd(), TQDM_DISABLE='1')
        self.p = subprocess.Popen([sys.executable, '-X', 'importtime', '-m', 'd2l_ext', *args], env=env, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        self.lines, self.seen, self.pred = [], threading.Event(), None
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.p.stderr:
            self.lines.append(line.rstrip('\n'))
            if self.pred is not None and self.pred(self.lines):
                self.seen.set()
        self.seen.set()  # ended: wait_for returns (and the test sees the exit code)

    def wait_for(self, pred):
        self.pred = pred
        if pred(list(self.lines)):
            return
        assert self.seen.wait(240), 'the moment to interrupt never came'

    def interrupt(self, times=1):
        for _ in range(times):
            os.killpg(self.p.pid, signal.SIGINT)
        self.p.stdout.read()
        code = self.p.wait(120)
        self.reader.join(30)
        return code, [ln for ln in self.lines if not ln.startswith('import time:')]

    def live_processes(self, grace_s=10.0):
        """Processes of the run's session still alive after `grace_s` (zombies, already ended, do not count).

        A killed worker, or multiprocessing's resource tracker that sees its parent gone, may take a
        moment to exit after the CLI returns; one still there after the grace period was left running.
        """
        deadline = time.monotonic() + grace_s
        while True:
            out = subprocess.run(['ps', '-o', 'pid=,stat=', '-s', str(self.p.pid)], capture_output=True,
                                 text=True).stdout
            live = [line for line in out.splitlines() if line.split()[1:] and not line.split()[1].startswith('Z')]
            if not live or time.monotonic() > deadline:
                return live
            time.sleep(0.2)


def imported(module, times=1):
    """True once `module` finished importing `times` times (once per process that imports it)."""
    return lambda lines: sum(ln.startswith('import time:') and ln.split('|')[-1].strip() == module
                             for ln in lines) >= times


def importing(package):
    """True while the first process is inside `package`'s import: a submodule of it finished."""
    return lambda lines: any(ln.startswith('import time:') and ln.split('|')[-1].strip().startswith(f'{package}.')
                             for ln in lines)


def assert_one_line_130(run, times=1):
    code, err = run.interrupt(times)
    assert code == 130, err
    assert err == ['python -m d2l_ext: interrupted; no worker is left running'], err
    assert run.live_processes() == []


@pytest.mark.slow
@pytest.mark.parametrize('moment', ['importing numpy', 'starting the processes', 'measuring'])
def test_ctrl_c_during_allreduce(moment):
    pytest.importorskip('torch')
    run = Run('allreduce', '--repeats', '50')
    run.wait_for({'importing numpy': importing('numpy'),
                  'starting the processes': imported('torch', 2),  # the CLI's import, then a process's
                  'measuring': imported('d2l_ext.allreduce.worker', 3)}[moment])  # both processes run it
    assert_one_line_130(run)


@pytest.mark.slow
@pytest.mark.parametrize('moment, times', [('starting the worker', 1), ('measuring', 1), ('measuring', 2)])
def test_ctrl_c_during_parallel(moment, times):
    pytest.importorskip('torch')
    run = Run('parallel', '--size', '1500', '--iters', '50', '--yes')
    run.wait_for({'starting the worker': importing('numpy'), 'measuring': imported('torch')}[moment])
    assert_one_line_130(run, times)


def test_run_program_turns_an_interrupt_into_one_line_and_130(capsys):
    def work():
        raise KeyboardInterrupt
    cleaned = []
    assert cliparse.run_program('prog', work, cleanup=lambda: cleaned.append(1)) == 130
    assert capsys.readouterr().err == 'prog: interrupted; no worker is left running\n' and cleaned == [1]


def test_after_an_interrupt_the_odd_error_of_a_half_finished_import_is_reported_as_the_interrupt(capsys, monkeypatch):
    def work():
        raise AttributeError("module 'numpy.core' has no attribute 'numerictypes'")
    monkeypatch.setitem(cliparse._state, 'interrupted', True)
    assert cliparse.run_program('prog', work) == 130
    monkeypatch.setitem(cliparse._state, 'interrupted', False)
    with pytest.raises(AttributeError):  # without an interrupt, a bug stays a bug
        cliparse.run_program('prog', work)


def test_bad_input_is_one_line_and_exit_2(capsys):
    def work():
        raise UsageError('choose another size')
    assert cliparse.run_program('prog', work) == 2
    assert capsys.readouterr().err == 'prog: error: choose another size\n'


@pytest.mark.skipif(not hasattr(signal, 'pthread_sigmask'), reason='needs POSIX signal masks')
def test_a_guarded_program_starts_children_that_never_see_ctrl_c():
    code = ('import subprocess, sys\nfrom d2l_ext.cliparse import guard_interrupts\nguard_interrupts()\n'
            'print(subprocess.run([sys.executable, "-c", "import signal; '
            'print(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []))"], '
            'capture_output=True, text=True).stdout.strip())\n')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, PYTHONPATH=os.getcwd()))
    assert out.stdout.strip() == 'True', out.stderr


def test_a_reader_that_left_ends_the_program_quietly(capsys):
    def work():
        raise BrokenPipeError(32, 'Broken pipe')  # `python -m d2l_ext check --list | head -1`
    assert cliparse.run_program('prog', work) == 1
    assert capsys.readouterr().err == ''
