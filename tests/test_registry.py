"""The framework registry and the one dispatcher (issue 22 items 3, 6): names, lanes passed through, a third one."""
import inspect

import pytest

from d2l_ext import UsageError, frameworks
from d2l_ext.backends import Backend, backend
from d2l_ext.frameworks import available_frameworks, frameworks_for
from d2l_ext.lanes import fake_hardware, find_lanes, make_lane
from d2l_ext.workers import dispatch, shutdown


def test_the_registry_knows_both_frameworks_by_name_and_alias():
    assert frameworks.known()[:2] == ['torch', 'mxnet']
    assert frameworks.framework('PyTorch').name == 'torch' and frameworks.framework('mx').display == 'MXNet'
    with pytest.raises(UsageError, match='unknown framework'):
        frameworks.framework('jax')


def test_what_differs_between_frameworks_is_read_from_their_descriptions():
    torch_fw, mx_fw = frameworks.framework('torch'), frameworks.framework('mxnet')
    assert (torch_fw.lane_name('gpu', 1), mx_fw.lane_name('cpu', 1)) == ('cuda:1', 'cpu(1)')
    assert (torch_fw.shared_cpu_rule, mx_fw.shared_cpu_rule) == ('shared', 'engine')
    assert torch_fw.environment('first-copy') == {}
    assert mx_fw.environment('NaiveEngine')['MXNET_ENGINE_TYPE'] == 'NaiveEngine'
    assert 0 < torch_fw.tolerance() < 1e-2 and 0 < mx_fw.tolerance() < 1e-2


def _lanes_seen(lanes):
    return lanes


def _pid_and_lanes(lanes, tag):
    import os
    return os.getpid(), lanes, tag


@pytest.mark.slow
def test_the_lessons_lanes_reach_the_worker_unchanged():
    mine = [make_lane('torch', 'cpu', i, threads=1, cores=7, label_key='core.lane_cpu_share_label') for i in range(2)]
    pid, seen, tag = dispatch(_pid_and_lanes, 'pytorch', mine, tag='x')
    assert seen == mine and tag == 'x'
    last = find_lanes('torch')[-1].name  # a lane this machine has (cpu1 on a CPU, cpu beside a GPU)
    assert [lane.name for lane in dispatch(_lanes_seen, 'torch', last)] == [last]  # names: picked there
    assert dispatch(_lanes_seen, 'torch') == find_lanes('torch')  # None: this machine's default two


def test_a_lane_of_another_framework_is_refused_in_one_line():
    with pytest.raises(UsageError) as e:
        dispatch(_lanes_seen, 'torch', [make_lane('mxnet', 'cpu', 0)])
    assert 'cpu(0)' in str(e.value) and '\n' not in str(e.value)


def test_the_framework_is_checked_once_at_the_edge(monkeypatch):
    calls = []
    real = frameworks.check_framework

    def counting(name):
        calls.append(name)
        return real(name)
    import d2l_ext.workers as workers
    monkeypatch.setattr(workers, 'check_framework', counting)
    dispatch(_lanes_seen, 'torch', find_lanes('torch')[0].name)
    assert calls == ['torch']


@pytest.mark.slow
def test_a_third_framework_needs_only_its_description_and_backend():
    """README "Adding a framework": register a description whose backend is a module; one dispatch runs it."""
    from d2l_ext.parallel import measure_parallel
    from tests import fake_backend
    frameworks.register(fake_backend.FRAMEWORK, 'tests.fake_backend')
    try:
        assert 'fakenp' in available_frameworks() and frameworks_for('fakenp') == ['fakenp']
        assert backend('fakenp') is fake_backend
        methods = {n for n, _ in inspect.getmembers(Backend, inspect.isfunction) if not n.startswith('_')}
        assert all(callable(getattr(fake_backend, m)) for m in methods)
        with fake_hardware(gpus=0):
            assert [lane.name for lane in find_lanes('fakenp')] == ['np0', 'np1']
        r = dispatch(measure_parallel, 'fakenp', size=32, iters=2, repeats=1)  # in its own worker process
        assert r.framework == 'fakenp' and [lane['name'] for lane in r.lanes] == ['np0', 'np1']
        assert r.correct and r.max_rel_error < 1e-4 and r.expectation.rule == 'shared'
    finally:
        shutdown('fakenp')
        frameworks.unregister('fakenp')
    assert 'fakenp' not in frameworks.known()


def test_waiting_never_imports_a_framework():
    import subprocess
    import sys
    code = ('import sys\nfrom d2l_ext import frameworks\nfrom d2l_ext.lanes import make_lane\n'
            "for fw in frameworks.known():\n    frameworks.framework(fw).wait_loaded([make_lane(fw, 'cpu', 0)])\n"
            'from d2l_ext.timing import wait_for_everything\nwait_for_everything()\n'
            "print(sorted(m for m in ('torch', 'mxnet') if m in sys.modules))")
    done = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == '[]'


def test_the_worker_side_checks_the_framework_no_second_time(monkeypatch):
    """What runs in the worker (lanes chosen, 13.3.1's measurement) looks the framework up, never re-checks it."""
    import d2l_ext.lanes as lanes_module
    import d2l_ext.workers as workers
    from d2l_ext.parallel import measure_parallel
    last = find_lanes('torch')[-1].name  # before counting: a lane this machine has
    calls = []
    for module in (frameworks, lanes_module, workers):
        monkeypatch.setattr(module, 'check_framework', lambda name: calls.append(name) or name)
    lanes = workers._in_worker(_lanes_seen, 'torch', last, {}, False)  # the worker's side of dispatch
    measure_parallel(lanes, 32, 2, 1)
    assert calls == []
