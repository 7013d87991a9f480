"""The book's workloads run on this machine's lanes and return checked, JSON-ready results."""
import json

import pytest

from d2l_ext import UsageError
from d2l_ext.parallel import parallel_experiment, parallel_timeline, book_sync_mistake
from d2l_ext.communication import comm_experiment
from d2l_ext.workloads import default_size
from d2l_ext import find_lanes
from tests.conftest import needs_mxnet

FRAMEWORKS = ['torch', pytest.param('mxnet', marks=needs_mxnet)]


@pytest.mark.parametrize('fw', ['torch'])
def test_parallel_result_shape(fw):
    r = parallel_experiment(fw, size=64, iters=3, repeats=2)
    json.dumps(r)
    assert r['iters'] == [3, 3] and len(r['lane_times']) == 2
    assert r['serial_sum'] == pytest.approx(sum(m['median'] for m in r['lane_times']))
    assert r['ideal'] == max(m['median'] for m in r['lane_times'])
    assert r['speedup'] == pytest.approx(r['serial_sum'] / r['together']['median'])
    assert r['max_rel_error'] < 1e-4 and r['correct']


def test_defaults_follow_the_hardware():
    assert default_size(find_lanes('torch', gpus=2)) == (4000, 50)
    n, k = default_size(find_lanes('torch', gpus=0, cores=2))
    assert 800 <= n <= 3000 and k == 10


@pytest.mark.parametrize('kwargs, message', [
    (dict(size=0), 'matrix size must be at least 1'),
    (dict(size=64, iters=0), 'iteration count must be at least 1'),
    (dict(size=64, iters=-3), 'iteration count must be at least 1'),
    (dict(size=10 ** 7, iters=2), 'choose a size of at most'),
    (dict(size=64, iters=2, repeats=0), 'repeats must be at least 1'),
    (dict(size=64, iters=2, lanes='cuda:7'), "lane 'cuda:7' does not exist"),
    (dict(size='big'), 'matrix size must be a whole number'),
])
def test_bad_input_says_what_to_change(kwargs, message):
    with pytest.raises(UsageError, match=message):
        parallel_experiment('torch', **kwargs)


def test_timeline_has_every_product_on_its_lane():
    t = parallel_timeline('torch', size=64, iters=3)
    assert len(t['events']) == 6
    assert {e['lane'] for e in t['events']} == set(t['lanes'])
    assert all(0 <= e['start'] <= e['end'] for e in t['events'])


def test_sync_mistake_needs_a_gpu_lane():
    r = book_sync_mistake(size=64, iters=2, fake=dict(gpus=0))
    assert r['times'] is None and 'no GPU lane' in r['reason']


def test_comm_on_cpu_is_a_labelled_analogue():
    r = comm_experiment('torch', size=64, iters=3, repeats=1, fake=dict(gpus=0))
    assert r['has_link'] is False and r['link_gbps'] is None
    (row,) = r['rows']
    assert 'CPU analogue' in row['mode'] and row['max_rel_error'] < 1e-4
    assert row['ideal'] == max(row['run'], row['copy'])


@needs_mxnet
def test_mxnet_in_its_worker():
    from d2l_ext import experiments
    r = experiments.parallel('mxnet', size=64, iters=2, repeats=1)
    assert r['framework'] == 'mxnet' and r['max_rel_error'] < 1e-4
    c = experiments.comm('mxnet', size=64, iters=2, repeats=1)
    assert [row['mode'] for row in c['rows']] == ['copyto(npx.cpu())', 'copyto(npx.cpu_pinned())']
    t = experiments.timeline('mxnet', size=64, iters=3)
    assert len(t['events']) == 6 and all('worker' in e['lane'] for e in t['events'])
