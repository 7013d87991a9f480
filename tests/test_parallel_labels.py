"""13.3.0 and 13.3.1 reader findings (wave 5): every prediction says what it is made from, the scaling figure's
title poses no claim, one told-apart clause (display.apart), and 'above 2x' never contradicts its own numbers."""
import pathlib
from types import SimpleNamespace as NS

from d2l_ext.display import gaps as dg
from d2l_ext.display import lane_timeline as dl
from d2l_ext.display import parallel as dp
from d2l_ext.display import scaling as ds
from d2l_ext.i18n import catalogue, using_language
from d2l_ext.recorded import newest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _recorded_text(lang):
    from d2l_ext.display.parallel_recorded import recorded_overlap_text
    with using_language(lang):
        return recorded_overlap_text(newest(), baseline=True)


def test_the_two_predictions_of_the_recorded_together_time_say_what_each_is_made_from():
    en = _recorded_text('en')
    assert 'Predicted again at the times per product measured while both lanes ran, in the timeline: max(' in en
    assert "Together, predicted from each lane's time alone: 0.499 s; measured 0.504 s" in en
    assert "(both predicted from each lane's time alone)" in en
    # the old text: two bare "predicted" numbers side by side, neither saying what it came from
    assert 'Together: predicted' not in en and 'the prediction redone is' not in en
    zh = _recorded_text('zh')
    assert '按时间线中两条执行路同时运行时测得的每个乘积用时再次预测：max(' in zh
    assert '同时运行，由各执行路单独运行的用时预测：0.499 秒；实测 0.504 秒' in zh
    assert '同时运行：预测' not in zh


def _timeline():
    events = [dict(lane=lane, start=s, end=s + 0.2, role=f'lane {i}')
              for i, lane in enumerate(('a', 'b')) for s in (0.0, 0.2, 0.4, 0.6)]
    return NS(events=events, lanes=[dict(name='a'), dict(name='b')], iters=[4, 4], framework='torch')


def test_a_prediction_from_measured_rates_is_labelled_so_in_every_line():
    tl = _timeline()
    for lang, rates, both in (('en', 'one after the other predicted from the rates measured alone above',
                               'together predicted from the rates measured above while both lanes ran'),
                              ('zh', '先后运行由上面单独测得的速度预测',
                               '同时运行由上面两条执行路同时运行时测得的速度预测')):
        with using_language(lang):
            text = dl.overlap_text(tl, serial=0.8, together=0.8, expected=0.8, alone=[0.2, 0.2],
                                   labels=['lane 0', 'lane 1'], repeats=[0.79, 0.8, 0.82], expected_serial=1.6,
                                   source='rates_both', serial_source='rates')
            lines = dg.prediction_text({'x': 0.1, 'y': 0.2}, {'x': [0.1], 'y': [0.2]},
                                       sources={'x': 'rates', 'y': 'rates_both'})
            guess = dp.guess_text(None, 0.108, 0.102, prediction='rates_both')
            label = dg.source_label('rates_both')
        assert rates in text and both in text
        assert label in lines.splitlines()[1] and label in guess
        assert 'closed form' not in guess and '按公式' not in guess


def test_the_scaling_title_poses_no_claim_and_the_text_gives_the_verdict():
    for lang in ('en', 'zh'):
        title = catalogue(lang)['parallel.scaling_title']
        assert '?' not in title and '？' not in title
    assert 'less' not in catalogue('en')['parallel.scaling_title']
    rising = NS(framework='mxnet', points=[NS(size=n, speedup=s, expected_speedup=1.0)
                                           for n, s in ((64, 0.9), (512, 1.3))])
    with using_language('en'):
        fig = ds.plot_scaling([rising])
    assert fig.axes[0].get_title(loc='left') == catalogue('en')['parallel.scaling_title']


def test_one_told_apart_clause_no_local_copy():
    assert not hasattr(dp, 'apart_text')
    for name in ('parallel', 'lane_timeline', 'parallel_exercises', 'scaling', 'parallel_recorded', 'gaps'):
        assert 'apart_text' not in (ROOT / 'd2l_ext' / 'display' / f'{name}.py').read_text()


def test_above_two_against_a_timed_serial_row_does_not_claim_together_beat_the_slower_lane():
    # 13.3.1's CPU run: one after the other timed as its own row (0.2058 s), longer than the lanes' sum (0.2029 s)
    for lang, wrong, right in (('en', 'took less than the slower lane alone', 'longer than the sum of the lanes alone'),
                               ('zh', '还要快', '更长')):
        with using_language(lang):
            text = dp.verdict_text([0.1012, 0.1017], 0.2058, 0.1024)
        assert wrong not in text and right in text
    with using_language('en'):  # together below the slower lane: the sentence that says so stays
        assert 'took less than the slower lane alone' in dp.verdict_text([0.1, 0.1], 0.2, 0.09)
