"""CLI exit codes, one-line errors, JSON shape, budget, option ranges and output path checks."""
import json
import os
import re
import subprocess
import sys

import pytest

from d2l_ext import cli as cli_module
from d2l_ext.machine import has_framework


def cli(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    return subprocess.run([sys.executable, '-m', 'd2l_ext', *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env=env)


@pytest.mark.parametrize('args, hint', [
    (['parallel', '--size', '0'], 'matrix size must be at least 1'),
    (['parallel', '--size', '64', '--iters', '0'], 'pass a positive --iters'),
    (['parallel', '--size', '100000000'], 'choose a size of at most'),
    (['parallel', '--framework', 'jax'], "choose one of 'torch', 'mxnet'"),
    (['parallel', '--size', '64', '--iters', '2', '--lanes', 'cuda:99'], "lane 'cuda:99' does not exist"),
    (['parallel', '--size', '1', '--iters', '1000000000'], 'bookkeeping memory'),
    (['allreduce', '--world-size', '0'], '--world-size must be a whole number from 2 to'),
    (['allreduce', '--world-size', '2.5'], '--world-size must be a whole number from 2 to'),
    (['allreduce', '--timeout', '0'], '--timeout must be a number of seconds from 1 to 3600'),
    (['allreduce', '--timeout', '0.001'], '--timeout must be a number of seconds from 1 to 3600'),
    (['allreduce', '--timeout', '-1'], '--timeout must be a number of seconds from 1 to 3600'),
    (['allreduce', '--timeout', 'nan'], '--timeout must be a number of seconds from 1 to 3600'),
    (['allreduce', '--timeout', 'inf'], '--timeout must be a number of seconds from 1 to 3600'),
    (['allreduce', '--timeout', 'soon'], '--timeout must be a number of seconds from 1 to 3600'),
    (['allreduce', '--port', '80'], '--port must be a whole number from 1024 to 65535'),
    (['allreduce', '--port', '70000'], '--port must be a whole number from 1024 to 65535'),
    (['allreduce', '--port', 'http'], '--port must be a whole number from 1024 to 65535'),
    (['allreduce', '--width', '10000000'], 'choose --width'),
    (['allreduce', '--trace-dir', 'README.md'], 'is a file, not a folder: choose another --trace-dir'),
    (['allreduce', '--trace-dir', 'README.md/traces'], 'lies under a file, not a folder'),
    (['record', '--out', 'README.md/r.json'], 'lies under a file, not a folder'),
    (['comm', '--size', '-5'], 'at least 1'),
    (['parallel', '--size', 'big'], 'whole number'),
    (['record', '--out', '.'], 'is a folder'),
    (['frobnicate'], 'invalid choice'),
])
@pytest.mark.slow
def test_bad_values_exit_2_with_one_line(args, hint, capsys):
    # In this process (each case a fresh import would cost seconds on a 2-core machine); the same answer from a
    # fresh `python -m d2l_ext` is checked for one case of each subcommand below.
    try:
        code = cli_module.main(args)
    except SystemExit as e:  # argparse's own errors leave through sys.exit, as they do from the command line
        code = e.code
    assert code == 2
    err = capsys.readouterr().err
    assert hint in err
    assert 'Traceback' not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize('args, hint', [
    (['parallel', '--size', '0'], 'matrix size must be at least 1'),
    (['allreduce', '--timeout', 'nan'], '--timeout must be a number of seconds from 1 to 3600'),
    (['record', '--out', '.'], 'is a folder'),
    (['frobnicate'], 'invalid choice'),
])
def test_bad_values_exit_2_with_one_line_from_the_command_line(args, hint):
    p = cli(*args)
    assert p.returncode == 2, p.stderr
    assert hint in p.stderr
    assert 'Traceback' not in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_a_lane_named_twice_is_refused():
    from d2l_ext.lanes import find_lanes
    first = find_lanes('torch')[0].name  # cpu0 on a CPU-only machine, cuda:0 beside a GPU
    p = cli('parallel', '--size', '64', '--iters', '2', '--lanes', f'{first},{first}')
    assert p.returncode == 2 and 'named twice' in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_a_run_too_long_is_refused_with_the_cli_way_out(monkeypatch, capsys):
    from d2l_ext.errors import RunTooLong

    def too_long(*args):  # what the worker answers when the estimate exceeds the limit (any hardware)
        raise RunTooLong('this run would take about 20 min here, more than the limit of 3.0 min: choose --iters 5')
    monkeypatch.setattr(cli_module, '_one', too_long)
    assert cli_module.main(['parallel', '--size', '64', '--iters', '2']) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith('choose --iters 5, or pass --yes to run it anyway')


def test_tiny_matrices_with_huge_counts_are_refused_with_a_suggestion_that_is_accepted():
    from d2l_ext.lanes import find_lanes
    from d2l_ext.workloads import resolve_workload
    p = cli('parallel', '--size', '1', '--iters', '1000000000', '--json')
    assert p.returncode == 2 and p.stdout == '' and 'Traceback' not in p.stderr
    fit = int(re.search(r'choose --iters (\d+) or fewer', p.stderr).group(1))
    # validated, not run: the largest suggestion fills most of the memory (free memory moves a little meanwhile)
    assert resolve_workload(find_lanes('torch'), 1, int(fit * 0.9)).iters == [int(fit * 0.9)] * 2


@pytest.mark.slow
@pytest.mark.parametrize('system_path', ['/proc/d2l_ext-traces', '/sys/kernel'])
def test_trace_dir_in_a_system_folder_is_refused_before_anything_runs(system_path):
    if not os.path.isdir(os.path.dirname(system_path)):
        pytest.skip('no such system folder here')
    p = cli('allreduce', '--trace-dir', system_path)
    assert p.returncode == 2 and 'cannot write into' in p.stderr and '--trace-dir' in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and not os.path.exists(os.path.join(system_path, 'x'))


@pytest.mark.parametrize('system_path', ['/sys/kernel/x.json', '/proc/x.json'])
def test_record_into_a_system_folder_is_refused_before_measuring(system_path):
    if not os.path.isdir(os.path.dirname(system_path)):
        pytest.skip('no such system folder here')
    p = cli('record', '--out', system_path)
    assert p.returncode == 2 and 'cannot write into' in p.stderr and len(p.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_record_never_replaces_a_device_or_a_pipe_even_with_force(tmp_path):
    fifo = tmp_path / 'pipe'
    os.mkfifo(fifo)
    (tmp_path / 'link').symlink_to(fifo)
    for target in [fifo, tmp_path / 'link', *(['/dev/null'] if os.path.exists('/dev/null') else [])]:
        p = cli('record', '--out', str(target), '--force')
        assert p.returncode == 2 and 'is not a regular file' in p.stderr, (target, p.stderr)
    assert fifo.is_fifo() and (tmp_path / 'link').is_symlink()


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, 'sched_setaffinity'), reason='needs CPU affinity (Linux)')
def test_allreduce_on_one_core_gives_one_answer_for_the_world_size():
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    errors = [subprocess.run([sys.executable, '-m', 'd2l_ext', 'allreduce', '--world-size', n], capture_output=True,
                             text=True, timeout=120, env=env, preexec_fn=lambda: os.sched_setaffinity(0, {0})).stderr
              for n in ('1', '3')]
    # the same answer, whichever was asked, and why: the two processes take turns on the one core
    assert all(f'--world-size can only be 2 here, got {n}: this machine has 1 core for 2 processes: they take turns'
               in e for n, e in zip(('1', '3'), errors)), errors


def fake_record(path, repeats=5, progress=None):
    """Stands in for minutes of measuring: writes a small recording where it is told to."""
    with open(path, 'w') as f:
        f.write('{"machine": {}}')


def test_a_recording_that_cannot_be_written_at_the_end_is_saved_in_the_current_folder(tmp_path, monkeypatch, capsys):
    out = tmp_path / 'gone' / 'r.json'
    out.parent.mkdir()
    here = tmp_path / 'here'
    here.mkdir()
    monkeypatch.chdir(here)

    def record_then_lose_the_folder(path, repeats=5, progress=None):
        fake_record(path)
        out.parent.rmdir()  # the folder vanishes while we measure
    monkeypatch.setattr('d2l_ext.recorded.record', record_then_lose_the_folder)
    assert cli_module.main(['record', '--out', str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f'saved in {here / "r.json"}' in err[0]
    assert (here / 'r.json').read_text() == '{"machine": {}}'


def test_a_recording_replaces_an_existing_file_only_with_force(tmp_path, monkeypatch, capsys):
    out = tmp_path / 'r.json'
    out.write_text('old')
    monkeypatch.setattr('d2l_ext.recorded.record', fake_record)
    assert cli_module.main(['record', '--out', str(out)]) == 2 and out.read_text() == 'old'
    assert cli_module.main(['record', '--out', str(out), '--force']) == 0
    assert out.read_text() == '{"machine": {}}' and sorted(os.listdir(tmp_path)) == ['r.json']
    assert f'recorded to {out}' in capsys.readouterr().out


def test_traces_that_were_not_written_are_reported_and_not_listed(tmp_path, monkeypatch, capsys):
    pytest.importorskip('torch')
    written = tmp_path / 'allreduce-ddp-process0.json'
    written.write_text('{}')
    absent = str(tmp_path / 'allreduce-ddp-process1.json')

    class Result:
        traces = {'ddp': [str(written), absent]}

        def to_dict(self):
            return {'traces': self.traces}

    monkeypatch.setattr('d2l_ext.allreduce.worker.run_allreduce', lambda **kwargs: Result())
    assert cli_module.main(['allreduce', '--trace-dir', str(tmp_path), '--json']) == 1
    out = capsys.readouterr()
    assert json.loads(out.out)['traces'] == {'ddp': [str(written)]}
    assert '1 of 2 trace files could not be written' in out.err and absent in out.err


def test_the_hang_bound_is_a_few_times_the_estimated_run_and_at_least_the_floor():
    bound, run = cli_module.hang_bound('parallel', repeats=3, estimate=1.6)
    assert run == pytest.approx(2 * 4 * 1.6) and bound == pytest.approx(cli_module.HANG_FACTOR * run)
    assert cli_module.hang_bound('parallel', repeats=1, estimate=0.01)[0] == cli_module.HANG_FLOOR_S


def test_check_is_a_subcommand():
    p = cli('check', '--list')
    assert p.returncode == 0 and p.stdout.startswith('13.3.1-lanes')
    bad = cli('check', '13.3.1-lanes', 'no-such-file.py')
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_allreduce_is_a_subcommand():
    p = cli('allreduce', '--help')
    assert p.returncode == 0 and '--bucket-mb' in p.stdout


@pytest.mark.skipif(os.geteuid() == 0, reason='root may write into any folder')
def test_record_refuses_a_folder_it_cannot_write_into(tmp_path):
    tmp_path.chmod(0o500)
    try:
        p = cli('record', '--out', str(tmp_path / 'r.json'))
    finally:
        tmp_path.chmod(0o700)
    assert p.returncode == 2 and 'cannot write into' in p.stderr


@pytest.mark.slow
@pytest.mark.skipif(not has_framework('mxnet'), reason='needs both frameworks')
def test_all_frameworks_refuse_a_lane_one_lacks_before_running():
    p = cli('parallel', '--framework', 'all', '--lanes', 'cpu0', '--json')
    assert p.returncode == 2 and p.stdout == '' and 'exists for torch but not for mxnet' in p.stderr


def test_record_refuses_an_existing_file_before_measuring(tmp_path, monkeypatch, capsys):
    (tmp_path / 'r.json').write_text('{}')

    def measured(*args, **kwargs):
        raise AssertionError('measured before the path was checked')
    monkeypatch.setattr('d2l_ext.recorded.record', measured)
    assert cli_module.main(['record', '--out', str(tmp_path / 'r.json')]) == 2
    assert '--force' in capsys.readouterr().err and (tmp_path / 'r.json').read_text() == '{}'


@pytest.mark.slow
def test_parallel_json_shape():
    p = cli('parallel', '--framework', 'all', '--size', '64', '--iters', '2', '--repeats', '1', '--json')
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out['command'] == 'parallel'
    assert [r['framework'] for r in out['results']] == (['torch', 'mxnet'] if has_framework('mxnet') else ['torch'])
    for r in out['results']:
        assert {'lanes', 'lane_times', 'serial_sum', 'together', 'expected', 'expected_speedup', 'expectation',
                'speedup', 'max_rel_error', 'machine'} <= set(r)
        assert len(r['lanes']) == len(r['lane_times']) == 2


@pytest.mark.slow
def test_comm_json_and_devices():
    p = cli('comm', '--size', '64', '--iters', '2', '--repeats', '1', '--json')
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)['results'][0]
    assert {'run', 'copy', 'run_then_copy', 'overlapped', 'expected', 'copy_gbps', 'times'} <= set(r['rows'][0])
    d = cli('devices', '--json')
    assert d.returncode == 0 and 'torch' in json.loads(d.stdout)['lanes']

