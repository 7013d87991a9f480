"""display.apart: results.told_apart's one clause, its four outcomes, in English and Chinese (every lesson)."""
from d2l_ext.display.apart import apart
from d2l_ext.i18n import using_language
from d2l_ext.results import Measurement


def _m(times):
    return Measurement('x', list(times))


def test_told_apart_names_both_parts_and_the_faster_way():
    a, b = _m([1.0, 1.01, 1.02, 1.03, 1.04]), _m([1.5, 1.51, 1.52, 1.53, 1.54])
    with using_language('en'):
        v = apart(a, b, 's')
        assert v.told and v.outcome == 'yes' and v.faster == 'a'
        assert v.clause.startswith('the medians (1.02 s and 1.52 s) differ by 0.5 s, more than the larger')
        assert '(1.01–1.03 s and 1.51–1.53 s) do not overlap' in v.clause
        assert apart(b, a, 's').faster == 'b'
        assert apart(a, b, 's', medians=False).clause.startswith('the medians differ by 0.5 s')
        assert '(one 1.01–1.03 s and two 1.51–1.53 s)' in apart(a, b, 's', names=('one', 'two')).clause
    with using_language('zh'):
        assert '互不重叠' in apart(a, b, 's').clause and '秒' in apart(a, b, 's').clause


def test_not_told_apart_says_which_part_failed():
    a = _m([1.0, 1.1, 1.2, 1.3, 1.4])
    close = apart(a, _m([1.05, 1.15, 1.25, 1.35, 1.45]), 's')
    assert (close.told, close.outcome, close.faster) == (False, 'close', None)
    # medians 0.4 apart, IQRs 0.2 and 0.37, middle halves (1.1-1.3, 1.25-1.62) overlapping: the second part fails
    wide = apart(a, _m([1.0, 1.25, 1.6, 1.62, 1.7]), 's')
    assert (wide.told, wide.outcome) == (False, 'overlap')
    with using_language('en'):
        assert 'but the middle halves of the repeats overlap (1.1–1.3 s and 1.25–1.62 s)' in apart(
            a, _m([1.0, 1.25, 1.6, 1.62, 1.7]), 's').clause
        assert apart(a, _m([1.05, 1.15, 1.25, 1.35, 1.45]), 's').clause.endswith('not told apart')
    with using_language('zh'):
        assert apart(a, _m([1.05, 1.15, 1.25, 1.35, 1.45]), 's').clause.endswith('区分不出')


def test_one_median_each_has_no_spread_to_compare_and_auto_picks_ms():
    one = apart(Measurement('a', median=0.010), Measurement('b', median=0.020))
    assert one.outcome == 'single' and 'ms' in one.clause
