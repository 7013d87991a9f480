"""Round-3 readers of 13.3.0/13.3.1 (CPU build): every "within 10%" prints the test's own percentage and its base,
each way named as its figure row, totals made from the per-product times as printed, no prediction asked without a
slot for it, the recorded figures and summary lines carry their workload.

The fakes carry the committed build's numbers (en 13.3.1: one device doing both 0.151 s, together 0.166 s; zh: the
prediction 0.159 s against 0.176 s measured; the rate cell's 15.95 ms per product on both lanes).
"""
from __future__ import annotations

import re
from pathlib import Path

from d2l_ext.display import gaps as dg
from d2l_ext.display import parallel as dp
from d2l_ext.i18n import using_language
from d2l_ext.recorded import newest
from d2l_ext.results import Measurement

SRC = Path(__file__).resolve().parents[1] / 'notebooks' / 'src'
LESSON = (SRC / '13.3.1-Parallel-Computation-on-Devices.py').read_text()
OVERVIEW = (SRC / '13.3.0-Overview.py').read_text()
EN_WITHIN = re.compile(r'(\d+\.\d+)% apart \(a share of [^)]*\), within 10%')
ZH_WITHIN = re.compile(r'相差 (\d+\.\d+)%（以[^）]*为基准），不超过 10%')


def _printed_within(text: str, zh: bool = False) -> list[float]:
    """The percentages printed beside 'within 10%' in a text; every 'within 10%' must have one."""
    found = [float(x) for x in (ZH_WITHIN if zh else EN_WITHIN).findall(text)]
    bare = text.count('不超过 10%') if zh else text.count('within 10%')
    assert len(found) == bare, text
    return found


def test_within_prints_the_tests_own_percentage_never_one_above_ten():
    base, together = Measurement('b', [0.145, 0.151, 0.158]), Measurement('g', [0.156, 0.166, 0.172])
    with using_language('en'):
        text = dp.versus_one_device(base, together)  # 0.166 against 0.151: 10.6% of 0.151, 9.0% of 0.166
        assert '10.6%' not in text and _printed_within(text) == [9.0]
    with using_language('zh'):
        gap = dg.gap_text('同时运行', 0.159, [0.170, 0.176, 0.180])  # 0.017 / 0.176 = 9.7%
        assert _printed_within(gap, zh=True) == [9.7] and '以较大者为基准' in gap
        for predicted, measured in ((0.160, 0.145), (0.319, 0.290)):
            assert all(p <= 10 for p in _printed_within(dg.gap_text('x', predicted, [measured]), zh=True))


def test_every_within_sentence_of_the_lesson_names_its_base():
    with using_language('en'):
        texts = [dp.balance_text(['a', 'b'], [0.111, 0.116]), dp.book_check_text(0.307, 0.341, 0.166),
                 dp.runner_text([0.1, 0.1], 0.2, 0.205), dp.max_text([0.14, 0.152], 0.166),
                 dp.no_wait_text({'no_wait': [0.001], 'every_device': [0.13], 'book_synchronize': [0.125]})]
        for text in texts:
            assert all(p <= 10 for p in _printed_within(text)) and _printed_within(text), text
        assert 'a share of the slower lane alone' in texts[3]  # max_text's test is a ratio to the slower lane
    assert dg.within(0.166, 0.152, 'slower') != dg.within(0.166, 0.152)  # the base named is the base used
    with using_language('en'):
        assert dg.within(0.307, 0.341).startswith('9.97% apart')  # 9.97% is not rounded up to 10.0% here


def test_the_books_synchronize_far_above_every_device_is_not_called_within():
    with using_language('en'):
        text = dp.no_wait_text({'no_wait': [0.001], 'every_device': [0.13], 'book_synchronize': [0.26]})
    assert 'within' not in text and '2.00x' in text and 'does not test why' in text


def test_each_way_of_waiting_is_named_as_its_figure_row():
    times = {'no_wait': [0.0013], 'every_device': [0.131]}
    with using_language('zh'):
        text = dp.no_wait_text(times)
        assert text.startswith('完全不等待：0.0013 秒；同步用到的每个设备：0.1310 秒') and '等待每条执行路' not in text
    with using_language('en'):
        assert dp.no_wait_text(times).startswith('No wait at all: 0.0013 s; synchronize every device used: 0.1310 s')


def test_predictions_are_the_count_times_the_per_product_time_as_printed():
    from d2l_ext.parallel.sharing import as_printed
    alone, side_by_side = 0.0159541, 0.0159459  # both printed as 15.95 ms: the old totals printed 0.160 and 0.159
    assert f'{alone * 1e3:.2f}' == f'{side_by_side * 1e3:.2f}'
    assert f'{10 * as_printed(alone):.3f}' == f'{10 * as_printed(side_by_side):.3f}'
    assert LESSON.count('as_printed(') >= 2  # the rate cell makes both rates from the times it prints


def test_no_prediction_is_asked_without_a_slot_and_exercise_2_names_no_fastest():
    for old in ('Predict what a second MXNet lane gains', '先预测第二条MXNet执行路',
                '小乘积的用时是否只与它的浮点运算量成比例？', 'Does a small product take only its share',
                'measures which way was fastest', '哪种方式最快'):
        assert old not in LESSON, old
    assert 'exercise 2 compares the ways' in LESSON and '练习2比较了' in LESSON


def test_counts_are_said_to_aim_at_equal_times_only_where_chosen_so():
    with using_language('en'):
        cpu = dp.balance_text(['CPU lane 0', 'CPU lane 1'], [0.133, 0.152])  # [10, 10]: not chosen from rates
        mixed = dp.balance_text(['GPU 0', 'CPU'], [0.499, 0.416], aimed=True)
    assert 'chosen to aim at equal times' not in cpu and 'not chosen to give equal times' in cpu
    assert 'chosen to aim at equal times' in mixed
    assert 'aimed=is_mixed(lanes)' in LESSON


def test_the_small_product_rate_names_its_lane_and_cores():
    from d2l_ext.parallel.exercises import SmallOpsResult
    from d2l_ext.results import Times
    times = {k: Times.from_times([v], k) for k, v in (('one_lane', 0.0168), ('two_threads', 0.0111),
                                                     ('batched', 0.0044))}
    r = SmallOpsResult('cpu', 'cpu', 64, 800, 2, times, 0.0, 1e-7, rate_flops=98e9, rate_size=512)
    with using_language('en'):
        assert 'one 512x512 product on one lane with all 2 core(s) (98 GFLOP/s)' in dg.small_ops_text(r)
    with using_language('zh'):
        assert '按一条用上全部 2 个核心的执行路做一次 512x512 乘法的速度' in dg.small_ops_text(r)


def test_the_recorded_sync_title_and_the_copy_summary_carry_their_workload():
    from d2l_ext.display.parallel_recorded import recorded_comm_summary, recorded_sync_title
    rec = newest()
    with using_language('en'):
        title = recorded_sync_title(rec).replace('\n', ' ')
        assert 'one GPU, 50 products of 4000x4000' in title and '2026-12-04' in title
        line = recorded_comm_summary(rec)
        assert 'reused pinned buffers' in line and '4000x4000' in line and '2026-12-04' in line
        assert '0.189 s on the same stream' in line and '0.132 s with a copy stream' in line
    with using_language('zh'):
        assert '重复使用的锁页内存缓冲区' in recorded_comm_summary(rec)
    assert recorded_comm_summary(None) == ''
    assert '第 1、2 点' in OVERVIEW and '第 1、2 行' not in OVERVIEW and 'recorded_comm_summary(rec)' in OVERVIEW


def test_the_control_sentence_has_no_doubled_de():
    from d2l_ext.i18n import catalogue
    assert '的对照的' not in catalogue('zh')['parallel.independence.overlapped']
