"""Round-2 readers of 13.3.0/13.3.1 (CPU build and the H200 edition): each sentence says what its number measures.

The GPU fakes carry the H200 edition's numbers (docs/h200-run 13.3.1: the book's cell 0.253 s, run_on_lanes 0.530 s,
the lanes alone 0.249 / 0.322 s; together 0.481 s against the slower lane's 0.386 s; the GPU lane's 718 products of
0.348 ms spread over 0.343 s).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from d2l_ext.display import lane_timeline as dl
from d2l_ext.display import parallel as dp
from d2l_ext.i18n import using_language
from d2l_ext.parallel import TimelineResult
from d2l_ext.results import Measurement

SRC = Path(__file__).resolve().parents[1] / 'notebooks' / 'src'
LABELS = ['GPU 0 (NVIDIA H200)', 'CPU (15 of 16 cores)']


def gpu_timeline():
    """The GPU edition's median repeat: 718 GPU products of 0.348 ms over 0.343 s (gaps between them), 12 CPU
    products over 0.481 s (11 of 33.6 ms, one long one)."""
    events, gap, t0 = [], (0.343 - 718 * 0.348e-3) / 717, 0.0
    for j in range(718):
        events.append({'lane': 'gpu0', 'name': f'mm {j + 1}', 'start': t0, 'end': t0 + 0.348e-3})
        t0 += 0.348e-3 + gap
    t0 = 0.0
    for j in range(12):
        d = 33.6e-3 if j < 11 else 0.481 - 11 * 33.6e-3
        events.append({'lane': 'cpu', 'name': f'mm {j + 1}', 'start': t0, 'end': t0 + d})
        t0 += d
    lanes = [dict(framework='torch', name='gpu0', kind='gpu', index=0),
             dict(framework='torch', name='cpu', kind='cpu', index=0, threads=15)]
    return TimelineResult('torch', 2000, [718, 12], lanes, events, 'thread clock', repeat=2)


TOGETHER = Measurement('together', [0.252, 0.4297, 0.481, 0.5310, 0.660])
GPU_ALONE = Measurement('gpu', [0.2488, 0.2489, 0.249, 0.2491, 0.2492])
CPU_ALONE = Measurement('cpu', [0.292, 0.35, 0.386, 0.45, 0.613])
BASELINE = Measurement('base', [0.2531, 0.2533, 0.253, 0.2535, 0.2536])


def test_the_books_cell_is_named_so_never_said_to_run_the_lanes_together():
    with using_language('zh'):
        zh = dp.book_text([0.1008, 0.1005], 0.2029)
        between = dp.book_text([0.1008, 0.1005], 0.1337)
    assert '两条执行路一起运行' not in zh and zh.startswith('书中的代码单元')
    assert '以前者为基准' in between and '以后者为基准' in between  # each percentage with its base
    with using_language('en'):
        en = dp.book_text([0.1008, 0.1005], 0.1337)
    assert en.startswith('The book\'s "both" cell took 0.134 s') and 'a share of the sum' in en


def test_run_on_lanes_is_set_against_the_books_cell_by_the_numbers():
    with using_language('en'):
        lost = dp.runner_text([0.2489, 0.3222], 0.2525, 0.5302)  # the GPU edition: 0.530 s against 0.253 s
        close = dp.runner_text([0.1, 0.1], 0.2, 0.205)
        won = dp.runner_text([0.1008, 0.1005], 0.2029, 0.1337)  # the CPU build
    assert 'run_on_lanes took 2.10x as long' in lost and 'did not beat the book' in lost and 'one timing each' in lost
    assert "2.5% apart (a share of the book's cell), within 10%" in close
    assert "the book's cell took 1.52x as long as run_on_lanes" in won
    with using_language('zh'):
        assert 'run_on_lanes 的用时是前者的 2.10 倍' in dp.runner_text([0.2489, 0.3222], 0.2525, 0.5302)


def test_the_verdict_says_whether_about_max_held():
    with using_language('en'):
        gpu = dp.verdict_text([GPU_ALONE, CPU_ALONE], 0.584, TOGETHER, BASELINE)
        close = dp.verdict_text([0.1, 0.1], 0.2, 0.105)
        above = dp.verdict_text([Measurement('a', [0.099, 0.1, 0.101]), Measurement('b', [0.099, 0.1, 0.101])], 0.2,
                                Measurement('g', [0.139, 0.14, 0.141]))
    assert 'Together took 1.25x the slower lane alone (0.386 s)' in gpu
    assert 'does not tell together from max(t1, t2)' in gpu and 'the slower lane alone 0.3500–0.4500 s' in gpu
    assert 'about max(t1, t2)' in close
    assert 'took longer than max(t1, t2)' in above
    with using_language('zh'):
        assert '区分不出同时运行与 max(t1, t2)' in dp.verdict_text([GPU_ALONE, CPU_ALONE], 0.584, TOGETHER, BASELINE)


def test_each_middle_half_against_one_device_says_whose_it_is():
    with using_language('en'):
        text = dp.versus_one_device(BASELINE, TOGETHER)
    assert 'one device doing both 0.2531–0.2535 s and together 0.4297–0.5310 s' in text
    with using_language('zh'):
        zh = dp.versus_one_device(BASELINE, TOGETHER)
    assert '一个设备做两份工作 0.2531–0.2535 秒与同时运行 0.4297–0.5310 秒' in zh


def test_a_lanes_span_beyond_products_times_the_median_is_printed_with_its_numbers():
    tl = gpu_timeline()
    with using_language('en'):
        text = dl.overlap_text(tl, 0.584, 0.481, 0.554, [0.347e-3, 32.1e-3], labels=LABELS, repeats=TOGETHER.times,
                               median_repeat=2, source='rates')
    assert '0.348 ms against 0.347 ms per product (1.00x as long)' in text  # what the ratio measures
    assert 'max(products x median time per product)' in text
    assert "GPU 0 (NVIDIA H200) spanned 0.343 s against 718 x 0.348 ms = 0.250 s, 0.093 s of the lane's span is " \
           'between products' in text
    assert 'its products took 0.481 s in all (0.078 s more than that)' in text and 'does not test why' in text
    with using_language('zh'):
        zh = dl.overlap_text(tl, 0.584, 0.481, 0.554, [0.347e-3, 32.1e-3], labels=LABELS, repeats=TOGETHER.times,
                             median_repeat=2, source='rates')
    assert '跨度中有 0.093 秒位于乘积之间' in zh
    even = TimelineResult('torch', 64, [2, 2], tl.lanes, [
        {'lane': 'gpu0', 'name': 'mm 1', 'start': 0.0, 'end': 0.1}, {'lane': 'gpu0', 'name': 'mm 2', 'start': 0.1,
                                                                     'end': 0.2},
        {'lane': 'cpu', 'name': 'mm 1', 'start': 0.0, 'end': 0.1}, {'lane': 'cpu', 'name': 'mm 2', 'start': 0.1,
                                                                    'end': 0.2}], 'thread clock')
    with using_language('en'):
        assert 'spanned' not in dl.overlap_text(even, 0.4, 0.2, 0.2, [0.1, 0.1])  # back to back: nothing to add


def test_the_zh_ratios_read_as_ratios():
    with using_language('zh'):
        text = dp.serial_above_two(2.10, 0.105, 0.12)
    assert '速度最多是先后运行的 2 倍' in text and '比更慢的那条执行路' in text and '比较慢' not in text
    from d2l_ext.i18n import catalogue
    assert not [k for k, v in catalogue('zh').items() if k.startswith(('parallel.', 'overview.')) and '比较慢' in v]


def test_an_engine_timeline_says_which_run_it_is_and_what_its_numbers_count():
    lanes = [dict(framework='mxnet', name='cpu(0)', kind='cpu', index=0),
             dict(framework='mxnet', name='cpu(1)', kind='cpu', index=1)]
    events = [{'lane': 'cpu(0)/w1', 'name': 'dot 1', 'start': 0.0, 'end': 0.01},
              {'lane': 'cpu(0)/w2', 'name': 'dot 2', 'start': 0.0, 'end': 0.012},
              {'lane': 'cpu(1)/w1', 'name': 'dot 3', 'start': 0.040, 'end': 0.05}]
    tl = TimelineResult('mxnet', 800, [2, 1], lanes, events, 'mxnet profiler')
    with using_language('en'):
        text = dl.timeline_caption(tl)
    assert 'a separate run of both lanes together, not one of the timed repeats' in text
    assert 'count all 3 products across every row' in text and 'first start at 40.0 ms' in text
    assert '2 products on 2 worker row(s)' in text


def test_scaling_says_what_did_not_fall_without_as_printed():
    from types import SimpleNamespace as NS

    from d2l_ext.display.scaling import scaling_text
    pts = [NS(size=n, speedup=s, expected_speedup=1.9) for n, s in ((64, 1.0), (128, 1.4), (256, 1.9))]
    with using_language('en'):
        text = scaling_text([NS(framework='torch', points=pts)])
    assert 'as printed' not in text and 'the median speedup did not fall' in text


def test_median_labels_keep_three_significant_digits():
    from d2l_ext.display.repeats import median_label
    assert median_label(0.2004) == '0.200' and median_label(0.4811) == '0.481' and median_label(12.34) == '12.3'


def test_the_recorded_sync_title_says_recorded_and_when():
    from d2l_ext.display.parallel_recorded import recorded_sync_title
    from d2l_ext.recorded import newest
    rec = newest()
    if rec is None:
        pytest.skip('no recording shipped')
    with using_language('en'):
        title = recorded_sync_title(rec)
    assert 'recorded' in title and rec.machine['date'][:10] in title


def test_the_sources_say_what_held_for_both_lane_kinds():
    one = (SRC / '13.3.1-Parallel-Computation-on-Devices.py').read_text()
    zero = (SRC / '13.3.0-Overview.py').read_text()
    assert "so the book's second `run` starts when the first has" not in one  # false where lane 0 is a GPU
    assert 'on a GPU lane `run` only *queues*' in one and '全局解释器锁（GIL）' in one
    assert 'every notebook draws this one' not in one and 'the line above says if' not in one
    assert '“不等待”那一行' not in one and '“完全不等待”那一行与“同步用到的每个设备”那一行' in one
    assert '（lane）' not in zero and '实际用时' not in zero
    assert 'separate cores of one CPU' in zero and '同一个CPU上各自分开的核心' in zero
    assert 'the hatched bar is the prediction' not in zero
