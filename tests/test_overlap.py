"""The interval arithmetic every overlap in the lessons and graders comes from."""
import pytest

from d2l_ext.overlap import busy, intersection, overlap_fraction, subtract, union


def test_union_merges_touching_and_nested_intervals_and_drops_empty_ones():
    assert union([(3, 4), (0, 2), (1, 1.5), (2, 2.5), (5, 5), (7, 6)]) == [(0, 2.5), (3, 4)]
    assert busy([(0, 1), (0.5, 2)]) == 2


def test_fraction_is_of_the_measured_side_and_stays_in_zero_to_one():
    # communication 1..3, computation 0..2: half of the communication ran during computation
    assert overlap_fraction([(1, 3)], [(0, 2)]) == pytest.approx(0.5)
    # the other way round: computation 0..2 overlapped by communication for 1 of 2 s
    assert overlap_fraction([(0, 2)], [(1, 3)]) == pytest.approx(0.5)
    assert overlap_fraction([(0, 1)], [(1, 2)]) == 0.0          # back to back is no overlap
    assert overlap_fraction([(0, 1), (0, 1)], [(0, 5)]) == 1.0   # two streams at once count once
    assert overlap_fraction([], [(0, 1)]) is None


def test_intersection_and_subtract():
    assert intersection([(0, 2), (4, 6)], [(1, 5)]) == [(1, 2), (4, 5)]
    assert subtract([(0, 10)], [(2, 3), (5, 6)]) == [(0, 2), (3, 5), (6, 10)]
    assert subtract([(0, 1)], [(0, 1)]) == []
