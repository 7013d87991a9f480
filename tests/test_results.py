"""One measurement type (every repeat, median, IQR, noise judgement) and one table renderer (issue 22 item 5)."""
import dataclasses
import pickle

import pandas as pd
import pytest

from d2l_ext import results
from d2l_ext.results import NOISE, Measurement, chance_gap, close, render


def test_statistics_are_computed_once_from_the_repeats():
    m = Measurement('x', [4.0, 1.0, 3.0, 2.0, 100.0])
    assert (m.median, m.iqr, m.min, m.max, m.repeats) == (3.0, pytest.approx(2.0), 1.0, 100.0, 5)
    assert (m.median, m.iqr) == results.spread(m.times)
    assert Measurement('one', [0.5]).iqr == 0.0


def test_json_round_trip_and_a_median_without_repeats():
    m = Measurement('x', [0.5, 0.25, 0.75])
    again = Measurement(**dataclasses.asdict(m))
    assert again == m and pickle.loads(pickle.dumps(m)) == m
    old = Measurement('median only', median=0.3)  # a recorded statistic whose repeats were not kept
    assert (old.label, old.median, old.times, old.repeated()) == ('median only', 0.3, [], [0.3])
    assert m.repeated() == [0.5, 0.25, 0.75]
    assert Measurement.of(m, 'renamed').times == m.times and Measurement.of(m, 'renamed').label == 'renamed'


def test_shipped_recordings_load_as_measurements_with_their_recorded_statistics():
    from d2l_ext.recorded import load_recordings
    recs = load_recordings(gpu_only=False)
    if not recs:
        pytest.skip('no recordings shipped')
    together = recs[-1].parallel[0].together
    assert isinstance(together, Measurement) and together.times
    assert (together.median, together.iqr) == results.spread(together.times)


def test_noise_judgement():
    assert close(1.0, 1.0 + NOISE) and not close(1.0, 1.0 + 2 * NOISE)
    assert close(2.0, 2.15, of=2.0) and not close(2.0, 2.25, of=2.0)
    steady, wobbly = Measurement('s', [1.0, 1.01, 0.99, 1.0]), Measurement('w', [1.0, 1.5, 0.6, 1.2])
    assert chance_gap(steady, wobbly) == wobbly.iqr and chance_gap() == 0.0


def test_one_renderer_writes_html_and_text_alike():
    df = pd.DataFrame([{'a': 0.123456, 'b': float('nan')}])
    page = render(df, classes='d2l-table')
    assert 'class="dataframe d2l-table"' in page and '0.1235' in page and 'NaN' not in page
    assert render(df, text=True).split() == ['a', 'b', '0.1235']


def test_display_tables_take_a_result_rows_or_a_frame():
    from d2l_ext.display import tables
    rows = [results.timing_row(Measurement('x', [0.5, 0.25]), variant='together')]
    from_rows = tables.html(rows)
    assert from_rows == tables.html(results.frame(rows)) and 'median (s)' in from_rows
    assert 'd2l-table' in from_rows and 'd2l-table' not in tables.html(results.frame(rows), classes=None)
    assert 'median (s)' in tables.text(rows)


def test_told_apart_needs_the_middle_halves_apart_and_5_percent():
    from d2l_ext.results import Measurement, quartiles, told_apart
    fast, slow = Measurement('a', [1.0, 1.1, 1.2, 1.3, 1.4]), Measurement('b', [2.0, 2.1, 2.2, 2.3, 2.4])
    assert told_apart(fast, slow) and told_apart(slow, fast)
    # one outlying repeat of the fast way, slower than every slow repeat: the middle halves still do not overlap
    outlier = Measurement('a', [1.0, 1.1, 1.2, 1.3, 9.0])
    assert quartiles(outlier) == (1.1, 1.3) and told_apart(outlier, slow)
    # middle halves overlapping, though the medians differ by more than the larger IQR
    low, high = Measurement('w', [0.0, 1.0, 1.0, 2.0, 2.0]), Measurement('n', [1.5, 1.5, 2.5, 2.5, 3.0])
    assert quartiles(low) == (1.0, 2.0) and quartiles(high) == (1.5, 2.5)
    assert abs(low.median - high.median) > max(low.iqr, high.iqr) and not told_apart(low, high)
    assert not told_apart(fast, Measurement('c', [1.15, 1.2, 1.25]))  # medians equal
    # boxes apart though one box is wider than the gap of the medians: what the figure shows decides
    wide, narrow = Measurement('w', [1.0, 1.0, 1.5, 3.0, 3.0]), Measurement('n', [3.1, 3.2, 3.2, 3.3, 3.3])
    assert wide.iqr > abs(wide.median - narrow.median) and told_apart(wide, narrow)
    # tight repeats, medians 1% apart: no clear difference (the rule wants at least 5% of the slower)
    tight_a, tight_b = Measurement('a', [1.000, 1.001, 1.002]), Measurement('b', [1.010, 1.011, 1.012])
    assert not told_apart(tight_a, tight_b)
    assert told_apart(tight_a, Measurement('b', [1.060, 1.061, 1.062]))
    assert quartiles(Measurement('m', median=0.5)) == (0.5, 0.5)  # a recording with a median alone


def test_every_result_shows_its_statistics_on_demand_collapsed():
    import dataclasses

    from d2l_ext.results import Measurement, Result, timing_row

    @dataclasses.dataclass
    class Tiny(Result):
        m: Measurement

        def table_rows(self):
            return [timing_row(self.m, variant='together')]
    shown = Tiny(Measurement('together', [0.1, 0.2, 0.3])).details()
    html = shown._repr_html_()
    assert html.startswith('<details><summary>') and '0.2' in html and '0.1, 0.2, 0.3' in html
    assert '0.1, 0.2, 0.3' in repr(shown)


def test_one_verdict_line_one_rule():
    from d2l_ext.display import verdict
    from d2l_ext.i18n import using_language
    from d2l_ext.results import Measurement as M
    fast, slow = M('a', [0.100, 0.101, 0.102]), M('b', [0.200, 0.201, 0.202])
    wide = M('c', [0.09, 0.15, 0.30])
    with using_language('en'):
        shown = verdict.line('together', fast, 'one device', slow)
        assert shown == 'together 0.101 s vs one device 0.201 s: faster (50% less time)'
        assert verdict.line('one device', slow, 'together', fast).endswith(': slower (99% more time)')
        assert verdict.line('a', wide, 'b', slow).endswith(': no clear difference (grey boxes overlap)')
        tiny = M('d', [0.001, 0.00125, 0.0015])
        assert verdict.line('no wait', tiny, 'wait', slow).endswith(': faster (160x as fast)')  # 3x on: a ratio
        assert verdict.line('wait', slow, 'no wait', tiny).endswith(': slower (160x as long)')
        near = M('e', [0.1116] * 3), M('f', [0.1062] * 3)  # 4.8% apart: '0.112 vs 0.106' would read as 5.4%
        assert verdict.line('d', *near[:1], 'ddp', near[1]) == 'd 0.1116 s vs ddp 0.1062 s: no clear difference (' \
            'medians within 5%)'
        assert verdict.line('a', fast, 'b', slow).startswith('a 0.101 s vs b 0.201 s')  # 3 digits where they agree
        assert verdict.guess(None, 2, 1.5, 'x') == ''
        assert verdict.lines('a', verdict.guess(None, 2, 1.5), 'b') == 'a\nb'
    with using_language('zh'):
        assert verdict.line('同时运行', fast, '一个设备', slow) == (
            '同时运行0.101秒，一个设备0.201秒：更快（执行时间少50%）')


def test_a_worked_answer_prints_its_sentences_after_one_label():
    from d2l_ext.display import verdict
    from d2l_ext.i18n import using_language
    with using_language('en'):
        assert verdict.answer('Yes: 4.47 vs 7.21 ms.', '', 'The control is 6.36 ms.') == \
            'Worked answer: Yes: 4.47 vs 7.21 ms. The control is 6.36 ms.'
    with using_language('zh'):
        assert verdict.answer('是的：4.47毫秒。', '对照为6.36毫秒。') == '参考答案：是的：4.47毫秒。对照为6.36毫秒。'


def test_a_measurement_against_a_model_value_has_one_wording_with_the_model_as_base():
    from d2l_ext.display import verdict
    from d2l_ext.i18n import using_language
    with using_language('en'):
        assert verdict.vs_model('both', 0.135, 'the model', 0.140) == 'both 0.135 s: within 5% of the model 0.140 s'
        assert verdict.vs_model('(c)', 0.1141, 'formula', 0.0880, 'ms') == '(c) 114 ms: 30% above formula 88.0 ms'
        assert verdict.vs_model('x', 0.0940, 'model', 0.100) == 'x 0.0940 s: 6.0% below model 0.100 s'
        assert verdict.vs_model('x', 0.1049, 'model', 0.100) == 'x 0.1049 s: within 5% of model 0.1000 s'
        assert verdict.vs_model('x', 0.1052, 'model', 0.100).startswith('x 0.105 s: 5.2% above')  # base: the model
    with using_language('zh'):
        assert verdict.vs_model('同时运行', 0.135, '模型', 0.140) == '同时运行0.135秒，与模型0.140秒相差不到5%'
        assert verdict.vs_model('（c）', 0.114, '代价模型', 0.088) == '（c）0.114秒，比代价模型0.0880秒高30%'


def test_significant_figures_are_counted_after_rounding():
    from d2l_ext.display import verdict
    assert verdict.sig(0.09996) == '0.100' and verdict.sig(99.96) == '100' and verdict.sig(0.2) == '0.200'
    assert verdict.sig(0.1234) == '0.123' and verdict.num(0.09996, 'ms') == '100 ms'


def test_a_signed_difference_prints_plus_or_the_minus_sign():
    from d2l_ext.display import verdict
    assert verdict.signed('12.0') == '+12.0' and verdict.signed('-3.0') == '−3.0'
    assert verdict.signed('0.5 ms', negative=True) == '−0.5 ms' and verdict.signed('0 ms', negative=False) == '+0 ms'


def test_a_printed_gap_is_the_difference_of_the_printed_numbers_with_their_decimals():
    from d2l_ext.display import verdict
    assert verdict.printed_gap(8.814, 8.803) == '0.01' and verdict.printed_gap(27.04, 26.31) == '0.7'
    assert verdict.printed_gap(10.84, 8.674) == '2.13' and verdict.printed_gap(5.0, 5.001) == '0.00'
