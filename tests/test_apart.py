"""display.apart: results.told_apart's one clause, its four outcomes, in English and Chinese (every lesson)."""
import re

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
        assert v.clause.startswith('the medians (1.020 s and 1.520 s) differ by 0.500 s, more than the larger')
        assert '(1.010–1.030 s and 1.510–1.530 s) do not overlap' in v.clause
        assert apart(b, a, 's').faster == 'b'
        assert apart(a, b, 's', medians=False).clause.startswith('the medians differ by 0.500 s')
        assert '(one 1.010–1.030 s and two 1.510–1.530 s)' in apart(a, b, 's', names=('one', 'two')).clause
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
        assert 'but the middle halves of the repeats overlap (1.100–1.300 s and 1.250–1.620 s)' in apart(
            a, _m([1.0, 1.25, 1.6, 1.62, 1.7]), 's').clause
        assert apart(a, _m([1.05, 1.15, 1.25, 1.35, 1.45]), 's').clause.count(': not told apart') == 1
    with using_language('zh'):
        assert apart(a, _m([1.05, 1.15, 1.25, 1.35, 1.45]), 's').clause.count('：区分不出') == 1


def test_the_numbers_shown_add_up_and_keep_their_places():
    # 13.3.4's recording: 110.5 and 90.0 ms once read "111 ms and 90 ms differ by 20 ms"
    with using_language('en'):
        v = apart(_m([0.1100, 0.1105, 0.1110]), _m([0.0895, 0.0900, 0.0905]), 'ms')
        assert v.clause.startswith('the medians (110.5 ms and 90.0 ms) differ by 20.5 ms')
        assert '(110.0–111.0 ms and 89.8–90.3 ms)' in v.clause or '(110.2–110.8 ms and 89.8–90.2 ms)' in v.clause
        close = apart(_m([1.0, 1.1, 1.2, 1.3, 1.4]), _m([1.05, 1.15, 1.25, 1.35, 1.45]), 's')
        assert 'middle halves of the repeats: 1.100–1.300 s and 1.150–1.350 s' in close.clause


def test_one_median_each_has_no_spread_to_compare_and_auto_picks_ms():
    one = apart(Measurement('a', median=0.010), Measurement('b', median=0.020))
    assert one.outcome == 'single' and 'ms' in one.clause


def test_a_difference_of_two_ratios_is_a_plain_number():
    with using_language('en'):
        v = apart(_m([1.00, 1.02, 1.04]), _m([1.96, 1.98, 2.00]), 'x')
        assert v.clause.startswith('the medians (1.02x and 1.98x) differ by 0.96, more than the larger interquartile '
                                   'range (0.02)')


def test_more_places_where_rounding_would_print_the_opposite_of_the_test():
    # as 13.3.1's CPU build: medians 0.01602 s apart, the larger IQR 0.01596 s: both 0.0160 at four places
    a = _m([0.1490, 0.1500, 0.1510, 0.1515, 0.1520])
    b = _m([0.159, 0.1600, 0.16702, 0.17596, 0.177])
    with using_language('en'):
        v = apart(a, b, 's')
    assert v.outcome == 'yes'
    diff, gap = (float(x) for x in re.findall(r'differ by ([0-9.]+) s, more than the larger interquartile range '
                                              r'\(([0-9.]+) s\)', v.clause)[0])
    assert diff > gap, v.clause


def test_a_middle_half_that_spans_something_is_not_printed_as_one_number():
    # 13.3.1's GPU edition: "the medians (1.3 ms and 17.4 ms) ... middle halves (1.3–1.3 ms ...)"
    with using_language('en'):
        v = apart(_m([0.00124, 0.00125, 0.00125, 0.00126, 0.00127]), _m([0.0172, 0.0173, 0.0174, 0.0175, 0.0176]))
    assert '(1.25 ms and 17.40 ms)' in v.clause and '1.25–1.26 ms' in v.clause, v.clause
