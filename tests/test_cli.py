"""CLI exit codes, one-line errors, JSON shape, budget and record path checks."""
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from d2l_ext.machine import has_framework


def cli(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    return subprocess.run([sys.executable, '-m', 'd2l_ext', *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env=env)


@pytest.mark.parametrize('args, hint', [
    (['parallel', '--size', '0'], 'matrix size must be at least 1'),
    (['parallel', '--size', '64', '--iters', '0'], 'pass a positive --iters'),
    (['parallel', '--size', '100000000'], 'choose a size of at most'),
    (['parallel', '--framework', 'jax'], "choose 'torch' or 'mxnet'"),
    (['parallel', '--size', '64', '--iters', '2', '--lanes', 'cuda:3'], "lane 'cuda:3' does not exist"),
    (['parallel', '--size', '64', '--iters', '2', '--lanes', 'cpu0,cpu0'], 'named twice'),
    (['parallel', '--size', '3000', '--iters', '100'], 'or pass --yes to run it anyway'),
    (['parallel', '--size', '1', '--iters', '1000000000'], 'bookkeeping memory'),
    (['allreduce', '--world-size', '0'], 'world size must be at least 1'),
    (['comm', '--size', '-5'], 'at least 1'),
    (['parallel', '--size', 'big'], 'whole number'),
    (['record', '--out', '.'], 'is a folder'),
    (['frobnicate'], 'invalid choice'),
])
def test_bad_values_exit_2_with_one_line(args, hint):
    p = cli(*args)
    assert p.returncode == 2, p.stderr
    assert hint in p.stderr
    assert 'Traceback' not in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_tiny_matrices_with_huge_counts_are_refused_with_a_suggestion_that_is_accepted():
    from d2l_ext.lanes import find_lanes
    from d2l_ext.workloads import resolve_workload
    p = cli('parallel', '--size', '1', '--iters', '1000000000', '--json')
    assert p.returncode == 2 and p.stdout == '' and 'Traceback' not in p.stderr
    fit = int(re.search(r'choose --iters (\d+) or fewer', p.stderr).group(1))
    # validated, not run: the largest suggestion fills most of the memory (free memory moves a little meanwhile)
    assert resolve_workload(find_lanes('torch'), 1, int(fit * 0.9)).iters == [int(fit * 0.9)] * 2


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


@pytest.mark.skipif(not has_framework('mxnet'), reason='needs both frameworks')
def test_all_frameworks_refuse_a_lane_one_lacks_before_running():
    p = cli('parallel', '--framework', 'all', '--lanes', 'cpu0', '--json')
    assert p.returncode == 2 and p.stdout == '' and 'exists for torch but not for mxnet' in p.stderr


def test_record_refuses_an_existing_file_before_measuring(tmp_path):
    (tmp_path / 'r.json').write_text('{}')
    start = time.perf_counter()
    p = cli('record', '--out', str(tmp_path / 'r.json'))
    assert p.returncode == 2 and '--force' in p.stderr
    assert time.perf_counter() - start < 60  # refused at once, nothing measured


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


def test_comm_json_and_devices():
    p = cli('comm', '--size', '64', '--iters', '2', '--repeats', '1', '--json')
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)['results'][0]
    assert {'run', 'copy', 'run_then_copy', 'overlapped', 'expected', 'copy_gbps', 'times'} <= set(r['rows'][0])
    d = cli('devices', '--json')
    assert d.returncode == 0 and 'torch' in json.loads(d.stdout)['lanes']


def test_two_interrupts_print_one_line_each_and_no_traceback():
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    p = subprocess.Popen([sys.executable, '-m', 'd2l_ext', 'parallel', '--size', '1500', '--iters', '20', '--yes'],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(6)
    p.send_signal(signal.SIGINT)
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130 and 'Traceback' not in err and 'interrupted' in err
