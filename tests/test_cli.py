"""CLI exit codes, one-line errors and JSON shape."""
import json
import subprocess
import sys

import pytest

from d2l_ext.machine import has_framework


def cli(*args):
    return subprocess.run([sys.executable, '-m', 'd2l_ext', *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize('args, hint', [
    (['parallel', '--size', '0'], 'matrix size must be at least 1'),
    (['parallel', '--size', '64', '--iters', '0'], 'at least 1'),
    (['parallel', '--size', '100000000'], 'choose a size of at most'),
    (['parallel', '--framework', 'jax'], "choose 'torch' or 'mxnet'"),
    (['parallel', '--size', '64', '--iters', '2', '--lanes', 'cuda:3'], "lane 'cuda:3' does not exist"),
    (['comm', '--size', '-5'], 'at least 1'),
    (['parallel', '--size', 'big'], 'whole number'),
    (['frobnicate'], 'invalid choice'),
])
def test_bad_values_exit_2_with_one_line(args, hint):
    p = cli(*args)
    assert p.returncode == 2, p.stderr
    assert hint in p.stderr
    assert 'Traceback' not in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_mxnet_missing_exits_2(tmp_path):
    # a sitecustomize that hides mxnet from this run only
    (tmp_path / 'sitecustomize.py').write_text(
        'import importlib.util as u\n_f = u.find_spec\n'
        'u.find_spec = lambda n, *a, **k: None if n == "mxnet" else _f(n, *a, **k)\n')
    import os
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{os.getcwd()}")
    p = subprocess.run([sys.executable, '-m', 'd2l_ext', 'parallel', '--framework', 'mxnet'],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 2 and "pip install 'd2l_ext[mxnet]'" in p.stderr


def test_parallel_json_shape():
    p = cli('parallel', '--framework', 'all', '--size', '64', '--iters', '2', '--repeats', '1', '--json')
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out['command'] == 'parallel'
    fws = [r['framework'] for r in out['results']]
    assert fws == (['torch', 'mxnet'] if has_framework('mxnet') else ['torch'])
    for r in out['results']:
        assert {'lanes', 'lane_times', 'serial_sum', 'together', 'ideal', 'speedup', 'max_rel_error',
                'machine'} <= set(r)
        assert len(r['lanes']) == len(r['lane_times']) == 2


def test_comm_json_and_devices():
    p = cli('comm', '--size', '64', '--iters', '2', '--repeats', '1', '--json')
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)['results'][0]
    assert {'run', 'copy', 'run_then_copy', 'overlapped', 'ideal', 'copy_gbps'} <= set(r['rows'][0])
    d = cli('devices', '--json')
    assert d.returncode == 0 and 'torch' in json.loads(d.stdout)['lanes']
