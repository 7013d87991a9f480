"""Lanes on CPU only, one GPU and two GPUs (faked counts), for both frameworks."""
import pytest

from d2l_ext import UsageError, find_lanes, pick_lanes
from d2l_ext.lanes import describe_lanes, fake_hardware, make_lane
from d2l_ext.workers import lanes_for
from tests.conftest import needs_mxnet

FRAMEWORKS = ['torch', pytest.param('mxnet', marks=needs_mxnet)]


def lanes_on(fw, count=2, **hardware):
    with fake_hardware(**hardware):
        return find_lanes(fw, count)


@pytest.mark.parametrize('fw', FRAMEWORKS)
def test_cpu_only_gives_two_cpu_lanes_that_say_what_they_are(fw):
    lanes = lanes_on(fw, gpus=0, cores=2)
    assert [lane.kind for lane in lanes] == ['cpu', 'cpu']
    assert len({lane.name for lane in lanes}) == 2 and len({lane.label for lane in lanes}) == 2
    assert all(lane.explanation for lane in lanes)
    if fw == 'torch':
        assert [lane.threads for lane in lanes] == [1, 1]
        assert not any(lane.asynchronous for lane in lanes)
        assert '1 of 2 cores' in lanes[0].label


def test_cpu_lanes_split_the_cores():
    lanes = lanes_on('torch', gpus=0, cores=16)
    assert [lane.threads for lane in lanes] == [8, 8]
    one = lanes_on('torch', gpus=0, cores=1)
    assert 'no speedup' in one[0].explanation


@pytest.mark.parametrize('fw', FRAMEWORKS)
def test_one_gpu_gives_the_gpu_and_the_cpu(fw):
    lanes = lanes_on(fw, gpus=1, cores=8)
    assert [lane.kind for lane in lanes] == ['gpu', 'cpu']
    assert lanes[0].name == ('cuda:0' if fw == 'torch' else 'gpu(0)')
    assert lanes[1].threads == (7 if fw == 'torch' else 8)  # torch leaves a core to feed the GPU


@pytest.mark.parametrize('fw', FRAMEWORKS)
def test_two_or_more_gpus_give_gpus(fw):
    assert [lane.index for lane in lanes_on(fw, gpus=2)] == [0, 1]
    assert [lane.kind for lane in lanes_on(fw, gpus=4)] == ['gpu', 'gpu']
    assert len(lanes_on(fw, 'all', gpus=4)) == 4


def test_asking_for_a_missing_lane_names_what_exists():
    with fake_hardware(gpus=1), pytest.raises(UsageError) as e:
        pick_lanes('torch', 'cuda:1')
    assert 'cuda:1' in str(e.value) and 'cuda:0' in str(e.value) and 'cpu' in str(e.value)
    with fake_hardware(gpus=1):
        assert [lane.name for lane in pick_lanes('torch', 'cpu,cuda:0')] == ['cpu', 'cuda:0']


def test_the_same_lane_twice_is_refused_in_one_line():
    with fake_hardware(gpus=0), pytest.raises(UsageError, match="lane 'cpu0' is named twice") as e:
        pick_lanes('torch', 'cpu0,cpu0')  # cpu0 exists on a machine without GPUs
    assert '\n' not in str(e.value)


def test_explicit_lanes_are_accepted_and_checked():
    lanes = [make_lane('torch', 'cpu', i, threads=1) for i in range(2)]
    assert pick_lanes('torch', lanes) == lanes
    with pytest.raises(UsageError, match='named twice'):
        pick_lanes('torch', [lanes[0], lanes[0]])


@pytest.mark.slow
@needs_mxnet
def test_a_lane_one_framework_lacks_is_refused_before_anything_runs():
    with pytest.raises(UsageError, match="lane 'cpu0' does not exist here for mxnet"):
        lanes_for(['torch', 'mxnet'], 'cpu0')
    both = lanes_for(['torch', 'mxnet'])
    assert [lane.framework for lane in both['mxnet']] == ['mxnet', 'mxnet']
    every = lanes_for(['torch', 'mxnet'], count='all')  # the CLI's `devices`: one helper lists them all
    assert every['torch'][0].framework == 'torch' and len(every['mxnet']) >= 2


def test_lanes_are_built_in_one_place_with_keywords():
    gpu, cpu = make_lane('torch', 'gpu', 1), make_lane('torch', 'cpu', 0, threads=3, name='cpu')
    assert (gpu.name, gpu.asynchronous, gpu.threads) == ('cuda:1', True, 0)
    assert (cpu.name, cpu.asynchronous, cpu.threads) == ('cpu', False, 3)
    assert make_lane('mxnet', 'cpu', 1).asynchronous and make_lane('mxnet', 'cpu', 1).name == 'cpu(1)'


@needs_mxnet
def test_mxnet_lanes_say_each_context_has_its_own_worker_pool():
    lanes = lanes_on('mxnet', gpus=0, cores=2)
    text = describe_lanes(lanes)
    assert 'own pool' in text and 'not separate hardware' in text and 'MXNET_' not in text


def test_lane_texts_follow_the_language():
    from d2l_ext.i18n import set_language
    try:
        set_language('zh')
        text = describe_lanes(lanes_on('torch', gpus=0, cores=2))
        assert '计算资源' in text and 'cpu0' not in text and 'cpu1' not in text  # lanes named in words, ids in data
    finally:
        set_language('en')


def test_unknown_framework_is_a_usage_error():
    with pytest.raises(UsageError, match="choose one of 'torch', 'mxnet'"):
        find_lanes('jax')


def test_missing_mxnet_says_how_to_install(monkeypatch):
    import d2l_ext.frameworks as frameworks
    monkeypatch.setattr(frameworks, 'installed', lambda name: name != 'mxnet')
    with pytest.raises(UsageError, match=r"pip install 'd2l_ext\[mxnet\]'"):
        find_lanes('mxnet')


def test_describe_lanes_is_one_line_per_lane():
    text = describe_lanes(lanes_on('torch', gpus=1, cores=4))
    assert text.count('\n') == 1 and 'GPU 0' in text and 'CPU' in text


def test_cpu_steal_seconds_reads_proc_stat():
    import math

    from d2l_ext.machine import cpu_steal_seconds
    s = cpu_steal_seconds()
    assert math.isnan(s) or s >= 0


def test_a_lane_holds_ids_and_survives_json_and_pickle():
    import json
    import pickle

    from d2l_ext.i18n import using_language
    from d2l_ext.lanes import Lane
    lane = lanes_on('torch', gpus=0, cores=4)[1]
    d = json.loads(json.dumps(lane.as_dict()))
    assert Lane.from_dict(d) == lane == pickle.loads(pickle.dumps(lane))
    assert d['label'] == lane.label_in('en') == 'CPU lane 1 (2 of 4 cores)'
    with using_language('zh'):  # made when read, in the language asked for: never stored translated
        assert lane.label == 'CPU 1（4个核心中的2个）' and '计算资源' not in lane.label_in('en')
