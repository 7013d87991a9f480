"""Lanes on CPU only, one GPU and two GPUs (faked counts), for both frameworks."""
import pytest

from d2l_ext import UsageError, find_lanes, pick_lanes
from d2l_ext.lanes import describe_lanes
from tests.conftest import needs_mxnet

FRAMEWORKS = ['torch', pytest.param('mxnet', marks=needs_mxnet)]


@pytest.mark.parametrize('fw', FRAMEWORKS)
def test_cpu_only_gives_two_cpu_lanes_that_say_what_they_are(fw):
    lanes = find_lanes(fw, gpus=0, cores=2)
    assert [lane.kind for lane in lanes] == ['cpu', 'cpu']
    assert len({lane.name for lane in lanes}) == 2 and len({lane.label for lane in lanes}) == 2
    assert all(lane.explanation for lane in lanes)
    if fw == 'torch':
        assert [lane.threads for lane in lanes] == [1, 1]
        assert not any(lane.asynchronous for lane in lanes)
        assert '1 of 2 cores' in lanes[0].label


def test_cpu_lanes_split_the_cores():
    lanes = find_lanes('torch', gpus=0, cores=16)
    assert [lane.threads for lane in lanes] == [8, 8]
    one = find_lanes('torch', gpus=0, cores=1)
    assert 'no speedup' in one[0].explanation


@pytest.mark.parametrize('fw', FRAMEWORKS)
def test_one_gpu_gives_the_gpu_and_the_cpu(fw):
    lanes = find_lanes(fw, gpus=1, cores=8)
    assert [lane.kind for lane in lanes] == ['gpu', 'cpu']
    assert lanes[0].name == ('cuda:0' if fw == 'torch' else 'gpu(0)')
    assert lanes[1].threads == (7 if fw == 'torch' else 8)  # torch leaves a core to feed the GPU


@pytest.mark.parametrize('fw', FRAMEWORKS)
def test_two_or_more_gpus_give_gpus(fw):
    assert [lane.index for lane in find_lanes(fw, gpus=2)] == [0, 1]
    assert [lane.kind for lane in find_lanes(fw, gpus=4)] == ['gpu', 'gpu']
    assert len(find_lanes(fw, 'all', gpus=4)) == 4


def test_asking_for_a_missing_lane_names_what_exists():
    with pytest.raises(UsageError) as e:
        pick_lanes('torch', 'cuda:1', gpus=1)
    assert 'cuda:1' in str(e.value) and 'cuda:0' in str(e.value) and 'cpu' in str(e.value)
    assert [lane.name for lane in pick_lanes('torch', 'cpu,cuda:0', gpus=1)] == ['cpu', 'cuda:0']


def test_unknown_framework_is_a_usage_error():
    with pytest.raises(UsageError, match="choose 'torch' or 'mxnet'"):
        find_lanes('jax')


def test_missing_mxnet_says_how_to_install(monkeypatch):
    import d2l_ext.machine as machine
    monkeypatch.setattr(machine, 'has_framework', lambda name: name != 'mxnet')
    with pytest.raises(UsageError, match=r"pip install 'd2l_ext\[mxnet\]'"):
        find_lanes('mxnet')


def test_describe_lanes_is_one_line_per_lane():
    text = describe_lanes(find_lanes('torch', gpus=1, cores=4))
    assert text.count('\n') == 1 and 'GPU 0' in text and 'CPU' in text


def test_cpu_steal_seconds_reads_proc_stat():
    import math
    from d2l_ext.machine import cpu_steal_seconds
    s = cpu_steal_seconds()
    assert math.isnan(s) or s >= 0
