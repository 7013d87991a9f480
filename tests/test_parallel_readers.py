"""13.3.0 and 13.3.1 reader findings (wave 4): no sentence contradicts the number under it.

Each test fakes the numbers a reader saw (CPU build, GPU edition, the shipped recording) and checks the sentence
the package now chooses for them, in English and Chinese. No timing is asserted: every number here is given.
"""
import re
from types import SimpleNamespace as NS

import pytest

from d2l_ext.display import parallel_exercises as dx
from d2l_ext.display import scaling as ds
from d2l_ext.i18n import catalogue, using_language
from d2l_ext.lanes import make_lane
from d2l_ext.results import Times


def _t(times, label='x'):
    return Times.from_times(list(times), label)


# -- finding 1: the fair baseline, said plainly where it refers to this run ------------------------------------

def test_the_verdict_says_whether_the_second_lane_beat_one_device_doing_both_jobs():
    from d2l_ext.display import parallel as dp
    with using_language('en'):
        lost = dp.verdict_text([0.138, 0.138], 0.276, 0.152, 0.129)  # CPU build: all the cores 1.18x as fast
        same = dp.verdict_text([0.249, 0.223], 0.465, 0.252, 0.254)  # GPU edition: within 10%
        beaten = dp.verdict_text([0.1, 0.1], 0.2, 0.1, 0.18)
    assert 'did not beat one device doing both jobs' in lost and 'gained almost nothing' in same
    assert 'beat one device doing both jobs' in beaten and 'did not' not in beaten
    with using_language('zh'):
        assert '没有胜过一个设备做两份工作' in dp.verdict_text([0.138, 0.138], 0.276, 0.152, 0.129)


@pytest.mark.parametrize('baseline, said', [(0.129, 'one device doing both was 1.18x as fast'),
                                            (0.150, 'within 10%, so the second lane gained nothing here'),
                                            (0.20, 'together was 1.32x as fast as one device doing both')])
def test_the_overview_summary_compares_with_all_the_cores_three_ways(baseline, said):
    from d2l_ext.display import parallel as dp
    r = NS(baseline=_t([baseline] * 3), together=_t([0.152] * 3), baseline_lane=None, baseline_cores=2,
           speedup=1.81, expected_speedup=2.0, serial_sum=0.276, lane_times=[_t([0.138])] * 2)
    with using_language('en'):
        text = dp.overview_summary(r)
    assert said in text
    assert ('second lane beat one device' in text) == (baseline == 0.20)


def test_the_recorded_summary_says_the_gpu_alone_was_not_beaten():
    from d2l_ext.display.parallel_recorded import recorded_overlap_text, recorded_summary
    from d2l_ext.recorded import newest
    rec = newest()
    with using_language('en'):
        summary = recorded_summary(rec)
        # every together repeat below every baseline repeat, within 10%: said as measured, with both tests
        assert '0.508 s' in summary and 'together was faster than one device doing both, 0.7% apart' in summary
        assert 'gained almost nothing here' in summary and 'do not overlap' in summary
        assert 'did not beat' not in summary
        assert 'gained almost nothing' in recorded_overlap_text(rec, baseline=True)
        assert 'gained almost nothing' not in recorded_overlap_text(rec)  # 13.3.0 says it once, in its summary


# -- findings 2 and 3: the recorded timeline's caption and the lanes' times alone ------------------------------

def test_the_recorded_timeline_caption_says_what_is_drawn_and_keeps_numbers_with_their_words(faked_cjk_font):
    from matplotlib.patches import Rectangle

    from d2l_ext.display.parallel_recorded import recorded_figure
    from d2l_ext.recorded import newest
    rec = newest()
    for lang, back, merged in (('en', '26 products back to back, one bar each', '1440 products, drawn as busy'),
                               ('zh', '26 个乘积首尾相接', '1440 个乘积，画成忙碌区间')):
        with using_language(lang):
            fig = recorded_figure(rec)
        title = fig.axes[1].get_title(loc='left')
        flat = title.replace('\n', ' ' if lang == 'en' else '')
        assert back in flat and merged in flat, title
        assert not re.search(r'\d\n', title) and not re.search(r'(?<=[A-Za-z\u4e00-\u9fff])\n\d', title), title
        for line in fig.axes[0].get_title(loc='left').split('\n') + title.split('\n'):
            assert not re.match(r'[）)，。：；]', line), title  # no line starts with a closing mark
        cpu = [p for p in fig.axes[1].patches if isinstance(p, Rectangle) and p.get_fill() and p.get_linewidth() > 0]
        assert len(cpu) >= 26  # every product its own edged bar
        assert not fig.axes[1].texts  # 26 numbers do not fit: none drawn, rather than 1-9


def test_wrapping_holds_a_number_with_its_measure_word():
    from d2l_ext.display.parallel_recorded import _wrapped
    with using_language('zh'):
        text = 'GPU 0（NVIDIA H200） 1440 个乘积，CPU（16 个核心中的 15 个） 26 个乘积（2000x2000）；' * 3
        lines = _wrapped(text, ems=20).split('\n')
    assert len(lines) > 3 and ''.join(lines).replace(' ', '') == text.replace(' ', '')
    assert not any(line.endswith(tuple('0123456789')) and nxt.startswith('个') for line, nxt in zip(lines, lines[1:]))
    assert not any(line.rstrip().endswith('GPU') for line in lines)
    with using_language('en'):
        en = _wrapped('Repeat 2 of 5 of "together": CPU (15 of 16 cores) 26 products back to back', ems=12)
    assert all(not line.endswith(('26', '15', '16', '2', '5')) for line in en.split('\n')), en


def test_the_lanes_times_alone_are_printed_with_a_sentence_when_more_than_ten_percent_apart():
    from d2l_ext.display.parallel import balance_text
    from d2l_ext.display.parallel_recorded import recorded_overlap_text
    from d2l_ext.recorded import newest
    with using_language('en'):
        text = recorded_overlap_text(newest())
        assert '0.499 s' in text and '0.416 s' in text and '1.20x apart' in text and 'did not give equal' in text
        assert 'within 10%' in balance_text(['a', 'b'], [0.111, 0.116])
    with using_language('zh'):
        assert '较大者是较小者的 1.20 倍' in recorded_overlap_text(newest())


# -- findings 4 and 5: one spread test for a named winner -----------------------------------------------------

def _small(kind, **ways):
    from d2l_ext.parallel.exercises import SmallOpsResult
    times = {k: _t([v * f for f in (1.0, 1.02, 0.98, 1.05, 0.97)], k) for k, v in ways.items()}
    return SmallOpsResult('cpu' if kind == 'cpu' else 'cuda:0', kind, 64, 800, 2, times, 14.8e-6, 1e-7,
                          rate_flops=177e9 if kind == 'cpu' else 0.0, rate_size=512 if kind == 'cpu' else 0)


def test_exercise_2_names_a_winner_only_beyond_the_spread():
    tied = _small('cpu', one_lane=800 * 8.8e-6, two_threads=800 * 8.5e-6, batched=800 * 10.8e-6)
    clear = _small('gpu', one_lane=800 * 12.7e-6, two_streams=800 * 12.6e-6, batched=800 * 0.83e-6,
                   cuda_graph=800 * 3.45e-6)
    with using_language('en'):
        said = dx.small_ops_lines(tied)
        title = dx.plot_small_ops(tied).axes[0].get_title(loc='left')
        assert 'not told apart' in said and 'fastest was' not in said and 'not told apart' in title
        assert 'fastest here' not in title
        won = dx.small_ops_lines(clear)
        assert 'fastest was "one batched product (torch.bmm)"' in won and 'told apart from every other way' in won
        assert "beyond the repeats' spread" not in won and won.count('do not overlap') == 3  # one clause per way
        assert 'fastest here was' in dx.plot_small_ops(clear).axes[0].get_title(loc='left')
    with using_language('zh'):
        assert '区分不出' in dx.small_ops_lines(tied)


def _independence(one, together, kind='gpu'):
    lane = make_lane('torch', kind, 0, **({} if kind == 'gpu' else {'threads': 1})).as_dict()
    times = {'one_at_a_time': _t(one), 'issued_together': _t(together)}
    ratio = times['one_at_a_time'].median / times['issued_together'].median
    return NS(framework='torch', engine='eager', lane=lane, threads=0 if kind == 'gpu' else 1, iters=10, size=2000,
              times=times, ratio=ratio, kind=kind)


def test_exercise_1_is_judged_by_the_spread_not_by_closeness_to_one():
    # GPU edition: every "issued together" repeat (3.49-3.5 ms) below every "one at a time" one (3.65-3.75 ms)
    apart = _independence([3.65e-3, 3.7e-3, 3.72e-3, 3.75e-3, 3.68e-3], [3.49e-3, 3.5e-3, 3.5e-3, 3.49e-3, 3.5e-3])
    # a ratio far from 1 whose repeats overlap
    overlapping = _independence([0.10, 0.20, 0.30, 0.12, 0.25], [0.09, 0.18, 0.31, 0.11, 0.15], kind='cpu')
    with using_language('en'):
        assert 'skipped waits' in dx.independence_text(apart) and 'close to 1' not in dx.independence_text(apart)
        text = dx.independence_text(overlapping)
        assert overlapping.ratio > 1.1 and 'not told apart' in text
    assert 'parallel.independence.in_order' not in catalogue('en')


# -- findings 6-10: rates, the book's single timing, the sync work, the scaling ratio, the overlap guess ---------

def test_the_book_cell_is_called_one_timing_and_set_beside_the_medians():
    from d2l_ext.display import parallel as dp
    with using_language('en'):
        above = dp.book_text([0.118, 0.118], 0.417)
        assert 'more than the sum' in above and 'one timing' in above and 'does not test why' in above
        assert 'one timing' not in dp.book_text([0.118, 0.118], 0.12)  # like the slower lane: nothing to caveat
        neither = dp.book_check_text(0.417, 0.244, 0.146)
        assert '1.71x the median of one after the other' in neither and 'does not test why' in neither
        assert 'within 10%' in dp.book_check_text(0.249, 0.465, 0.252)
        assert 'one after the other here' in dp.book_check_text(0.24, 0.232, 0.146)


def test_the_rate_line_prints_the_repeats_range():
    from d2l_ext.i18n import t
    for lang in ('en', 'zh'):
        with using_language(lang):
            line = t('parallel.rate', lane='CPU', size=2000, ms=8.72, gflops=1835, repeats=5, products=10,
                     low=8.6, high=15.9)
        assert '8.72' in line and '8.60' in line and '15.90' in line and '5' in line


def test_the_recorded_sync_names_the_work_and_the_gpu_edition_prints_the_books_row():
    from d2l_ext.display.parallel import no_wait_text
    from d2l_ext.display.parallel_recorded import recorded_sync_text
    from d2l_ext.recorded import newest
    with using_language('en'):
        rec = recorded_sync_text(newest())
        assert 'GPU 0 (NVIDIA H200) 50 products of 4000x4000' in rec and rec.count('0.1310 s') == 3
        live = no_wait_text({'no_wait': [0.009] * 3, 'every_device': [0.2489] * 3, 'book_synchronize': [0.2488] * 3})
        assert 'torch.cuda.synchronize() (the book: current device only): 0.2488 s' in live
    with using_language('zh'):
        assert '50 个乘积（4000x4000）' in recorded_sync_text(newest())


def test_the_scaling_sentence_says_which_ratio_it_prints():
    from d2l_ext.display.scaling import SHAPES
    for shape in SHAPES:
        assert 'speedup (one after the other / together)' in catalogue('en')[f'parallel.scaling.{shape}']
        assert '先后运行用时 ÷ 同时运行用时' in catalogue('zh')[f'parallel.scaling.{shape}']
    pts = [NS(size=n, speedup=s, expected_speedup=2.0, together=None, serial_sum=None, lane_times=None)
           for n, s in ((64, 0.92), (128, 1.5))]
    with using_language('en'):
        assert 'speedup (one after the other / together): 0.92x at n=64' in ds.scaling_text(
            [NS(framework='torch', points=pts)])


def test_the_overlap_guess_is_a_fraction_printed_with_its_percentage():
    from d2l_ext.display.parallel import guess_text
    with using_language('en'):
        text = guess_text(0.9, 1.0, 0.97, unit='%', name='my_overlap')
    assert 'your guess: 0.90 (90%)' in text and 'measured: 0.97 (97%)' in text


# -- finding 11: Chinese spacing around lane names -----------------------------------------------------------

AREAS = ('parallel', 'overview', 'panels', 'task_lanes', 'core')


def test_no_chinese_character_touches_a_lane_or_framework_name():
    """'MXNet CPU 上下文 0单独运行', '但GPU 0': a name that may end (or start) in Latin or a digit needs a gap."""
    zh = catalogue('zh')
    names = r'\{(?:lane|lanes|framework|device|gpu|engine|control_engine)\}'
    cjk = '[\u4e00-\u9fff]'
    bad = [k for k, v in zh.items() if k.split('.')[0] in AREAS and re.search(f'{cjk}{names}|{names}{cjk}', v)]
    assert not bad, bad
