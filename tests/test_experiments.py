"""The old entry points forward to the sections' homes; each experiment runs in its framework's worker."""
import pytest

from d2l_ext import UsageError, experiments
from d2l_ext.workers import shutdown
from tests.conftest import needs_mxnet


def test_old_names_forward_to_the_new_homes():
    import d2l_ext.communication as communication
    import d2l_ext.parallel as parallel
    assert experiments.parallel is parallel.parallel and experiments.comm is communication.comm
    assert experiments.lanes is parallel.lanes_here
    with pytest.raises(AttributeError):
        experiments.no_such_experiment  # noqa: B018


def test_frameworks_for_checks_the_name():
    assert experiments.frameworks_for('torch') == ['torch']
    assert 'torch' in experiments.frameworks_for('all')
    with pytest.raises(UsageError, match="choose 'torch' or 'mxnet'"):
        experiments.frameworks_for('jax')


def test_parallel_runs_in_the_worker_and_is_checked():
    r = experiments.parallel('torch', size=64, iters=2, repeats=1)
    assert r.correct and r.max_rel_error < 1e-4 and r.iters == [2, 2]
    shutdown()


@needs_mxnet
def test_mxnet_in_its_worker():
    r = experiments.parallel('mxnet', size=64, iters=2, repeats=1)
    assert r.framework == 'mxnet' and r.max_rel_error < 1e-4
    for _ in range(2):  # the engine's profiler can be read again in the same worker
        t = experiments.timeline('mxnet', size=64, iters=3)
        assert len(t.events) == 6 and all('worker' in e['lane'] for e in t.events)
    shutdown()
