"""Both backends follow one written interface; the lane runner and the timelines work on this machine."""
import inspect

import pytest

from d2l_ext.backends import Backend, backend, mxnet_backend, torch_backend
from d2l_ext.checking import check_close
from d2l_ext.lanes import find_lanes, make_lane

METHODS = [name for name, _ in inspect.getmembers(Backend, inspect.isfunction) if not name.startswith('_')]


@pytest.mark.parametrize('module', [torch_backend, mxnet_backend])
def test_both_backends_have_every_method_of_the_protocol(module):
    assert set(METHODS) == {'run', 'copy_to_cpu', 'random_matrix', 'reference_product', 'run_on_lanes',
                            'lane_timeline', 'tolerance', 'wait', 'timeline_clock'}
    for name in METHODS:
        assert callable(getattr(module, name)), name
    assert 'gpu_first' in inspect.signature(module.run_on_lanes).parameters
    assert 0 < module.tolerance() < 1e-2


def test_backend_picks_the_module():
    assert backend('torch') is torch_backend and backend('pytorch') is torch_backend


def test_products_on_cpu_lanes_are_checked_against_float64():
    work = backend('torch')
    lanes = find_lanes('torch')
    xs = [work.random_matrix(lane, 32, seed=i) for i, lane in enumerate(lanes)]
    results = work.run_on_lanes(lanes, [lambda x=x: work.run(x, 3) for x in xs])
    for ys, x in zip(results, xs):
        assert len(ys) == 3
        check_close(ys, work.reference_product(x), 'lane')


def test_cpu_lanes_keep_their_thread_count_on_their_own_threads():
    import threading

    import torch
    lanes = [make_lane('torch', 'cpu', i, threads=1) for i in range(2)]
    both = threading.Barrier(2, timeout=30)  # each job waits for the other: they must run at once, on two threads

    def job():
        both.wait()
        return torch.get_num_threads(), threading.get_ident()
    seen = torch_backend.run_on_lanes(lanes, [job] * 2)
    assert [n for n, _ in seen] == [1, 1]
    assert len({ident for _, ident in seen} | {threading.get_ident()}) == 3


def test_torch_timeline_has_every_product_on_its_lane():
    lanes = find_lanes('torch')
    xs = [torch_backend.random_matrix(lane, 32) for lane in lanes]
    events = torch_backend.lane_timeline(lanes, xs, [3, 2])
    assert len(events) == 5 and {e['lane'] for e in events} == {lane.name for lane in lanes}  # ids
    assert all(0 <= e['start'] <= e['end'] for e in events)


def test_mxnet_runner_starts_cpu_lanes_first_unless_asked():
    gpu, cpu = make_lane('mxnet', 'gpu', 0), make_lane('mxnet', 'cpu', 0)
    order = []
    mxnet_backend.run_on_lanes([gpu, cpu], [lambda: order.append('gpu'), lambda: order.append('cpu')])
    mxnet_backend.run_on_lanes([gpu, cpu], [lambda: order.append('gpu'), lambda: order.append('cpu')],
                               gpu_first=True)
    assert order == ['cpu', 'gpu', 'gpu', 'cpu']


def test_mxnet_events_from_a_chrome_trace():
    lanes = [make_lane('mxnet', 'cpu', i) for i in range(2)]
    trace = [{'ph': 'B', 'name': 'dot', 'pid': 0, 'tid': 7, 'ts': 10}, {'ph': 'E', 'name': 'dot', 'pid': 0, 'tid': 7,
                                                                         'ts': 30},
             {'ph': 'B', 'name': 'dot', 'pid': 1, 'tid': 8, 'ts': 20}, {'ph': 'E', 'name': 'dot', 'pid': 1, 'tid': 8,
                                                                         'ts': 50}]
    events = mxnet_backend.events_from_trace(trace, lanes)
    assert [(e['lane'], e['start'], e['end']) for e in events] == [('cpu(0)/w1', 0.0, 20e-6),
                                                                   ('cpu(1)/w1', 10e-6, 40e-6)]
