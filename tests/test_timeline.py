"""Timelines and repeat plots: thin bars stay visible, lanes keep their colours, predictions sit beside."""
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PathCollection
from matplotlib.colors import to_rgb, to_rgba
from matplotlib.patches import Rectangle

from d2l_ext.display import style
from d2l_ext.display.repeats import plot_repeats
from d2l_ext.display.timeline import draw_timeline
from d2l_ext.errors import UsageError
from d2l_ext.timing import Comparison, Measurement


def _pixels(fig):
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].astype(int)


def _count(pixels, hex_colour, tol=40):
    target = np.array(to_rgb(hex_colour)) * 255
    return int((np.abs(pixels - target).sum(axis=-1) < tol).sum())


def _bar_colours(fig):
    """{row label: set of bar face colours} of a timeline (bars are the filled Rectangles)."""
    ax = fig.axes[0]
    labels = [t.get_text().split('\n')[0] for t in ax.get_yticklabels()]
    out = {}
    for p in ax.patches:
        if isinstance(p, Rectangle) and p.get_fill():
            out.setdefault(labels[round(p.get_y() + p.get_height() / 2)], set()).add(to_rgba(p.get_facecolor()))
    return out


@pytest.mark.parametrize('share', [1e-3, 1e-5])  # about 1 px, and far below a pixel
def test_a_bar_much_shorter_than_the_span_is_visible(share):
    long = {'lane': 'GPU', 'name': 'compute', 'start': 0.0, 'end': 1.0}
    thin = {'lane': 'copy', 'name': 'copy', 'start': 0.5, 'end': 0.5 + share}
    thin_colour = style.color(style.lane_role(1))
    assert _count(_pixels(draw_timeline([long])), thin_colour) == 0
    pixels = _pixels(draw_timeline([long, thin]))
    assert _count(pixels, thin_colour) >= 20  # a line of at least 2 px over a row about 40 px high
    columns = np.nonzero((np.abs(pixels - np.array(to_rgb(thin_colour)) * 255).sum(axis=-1) < 40).any(axis=0))[0]
    assert 1 <= columns.size <= 6, columns  # drawn where it is, a few pixels wide, not smeared


def test_rows_keep_each_lane_s_colour_between_plan_and_timeline():
    rows = {'GPU 0': 'gpu', 'CPU': 'cpu'}
    plan = [{'lane': 'GPU 0', 'name': 'a', 'start': 0, 'end': 1}, {'lane': 'CPU', 'name': 'b', 'start': 0, 'end': 2}]
    measured = [{'lane': 'CPU', 'name': 'b', 'start': 0, 'end': 2.2},  # another order, as measured
                {'lane': 'GPU 0', 'name': 'a', 'start': 0, 'end': 1}]
    a, b = _bar_colours(draw_timeline(plan, rows=rows)), _bar_colours(draw_timeline(measured, rows=rows))
    assert a == b == {'GPU 0': {to_rgba(style.color('gpu'))}, 'CPU': {to_rgba(style.color('cpu'))}}


def test_lanes_without_roles_get_lane_colours_in_row_order():
    events = [{'lane': f'lane {i}', 'name': str(i), 'start': 0, 'end': 1} for i in range(3)]
    colours = _bar_colours(draw_timeline(events, rows=['lane 2', 'lane 1', 'lane 0']))
    assert colours['lane 2'] == {to_rgba(style.color('lane 0'))}
    assert len({c for cs in colours.values() for c in cs}) == 3


def test_event_role_and_predicted_total_appear_in_the_legend():
    events = [{'lane': 'GPU 0', 'name': 'mm', 'start': 0, 'end': 0.13, 'role': 'compute'},
              {'lane': 'GPU 0', 'name': 'cp', 'start': 0.01, 'end': 0.02, 'role': 'copy'}]
    fig = draw_timeline(events, predicted=0.134, title='The copy hides')
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == ['compute stream', 'copy stream', 'predicted: 134 ms']
    assert ax.get_xlim()[1] >= 134 and ax.get_xlabel() == 'time (ms)' and ax.get_title(loc='left') == 'The copy hides'


def test_predicted_per_lane_must_name_a_row():
    events = [{'lane': 'GPU 0', 'name': 'mm', 'start': 0, 'end': 1}]
    draw_timeline(events, predicted={'GPU 0': 0.9})
    with pytest.raises(UsageError, match='GPU 0'):
        draw_timeline(events, predicted={'GPU 1': 0.9})


@pytest.mark.parametrize('events, match', [
    ([{'lane': 'a', 'start': 1.0, 'end': 0.5}], 'before it starts'),
    ([{'lane': 'a', 'start': 0.0}], "'end'"),
    ([{'lane': 'a', 'start': 0.0, 'end': 1.0, 'role': 'blue'}], 'no colour'),
    ([], 'at least one'),
])
def test_bad_events_say_what_to_change(events, match):
    with pytest.raises(UsageError, match=match):
        draw_timeline(events)


def _dots(fig):
    return sum(len(c.get_offsets()) for c in fig.axes[0].collections if isinstance(c, PathCollection))


def test_plot_repeats_draws_every_repeat_and_accepts_every_form():
    comparison = Comparison({'a': Measurement('a', [0.1, 0.12, 0.11]), 'b': Measurement('b', [0.2, 0.21])})
    lists = {'a': [0.1, 0.12, 0.11], 'b': [0.2, 0.21]}
    for results in (comparison, comparison.measurements, comparison.as_dict(), lists):
        fig = plot_repeats(results, predicted={'b': 0.19}, title='b is slower')
        assert _dots(fig) == 5
        assert [t.get_text().split('\n')[0] for t in fig.axes[0].get_yticklabels()] == ['a', 'b']
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ['a\nmedian 0.110 s', 'b\nmedian 0.205 s']
    assert not fig.axes[0].texts  # the medians under the rows' names: no label beside an outlier or under the legend
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend == ['each repeat', 'median', 'estimate: from the times alone']
    assert fig.axes[0].get_xlabel() == 'time (s)'


def test_a_far_repeat_is_an_arrowhead_at_the_edge_with_its_value_and_the_boxes_keep_the_axis():
    fig = plot_repeats({'one device': [0.0026, 0.0025, 0.054], 'together': [0.0036, 0.0037]}, unit='ms', halves=True)
    ax = fig.axes[0]
    assert ax.get_xlim()[1] < 15  # fitted to the medians (3.6 ms), not to the stalled 54 ms repeat
    assert _dots(fig) == 5  # every repeat still drawn: four dots and one arrowhead
    assert [t.get_text() for t in ax.texts] == ['54.0 ms']
    assert 'a repeat beyond the axis' in [t.get_text() for t in ax.get_legend().get_texts()]  # the arrowhead named
    assert not plot_repeats({'a': [0.0, 0.0, 0.5]}, unit='GB/s').axes[0].texts  # a zero median: no edge to clip at
    near = plot_repeats({'a': [0.1, 0.25]})  # within FAR x the median: drawn where it is, nothing written
    assert not near.axes[0].texts and near.axes[0].get_xlim()[1] > 0.25
    several = plot_repeats({'a': [0.0026, 0.0025, 0.054, 0.061, 0.0027]}, unit='ms').axes[0]
    assert [t.get_text() for t in several.texts] == ['61.0 ms']  # two arrowheads, the largest written once
    assert 8.1 <= several.get_xlim()[1] < 8.3  # the arrowheads at FAR x the median (2.7 ms), on the axis's end
    wide = plot_repeats({'fast': [1.0] * 8, 'spread': [1.0] * 4 + [5.0, 6.0, 6.0, 7.0]}, halves=True).axes[0]
    assert wide.get_xlim()[1] >= 6.0 and not wide.texts  # the grey box (up to 6.0 s) is on the axis, not behind arrows
    assert 'a repeat beyond the axis' not in [t.get_text() for t in wide.get_legend().get_texts()]
    share = plot_repeats({'overlap': [90.0, 95.0, 100.0]}, unit='%').axes[0]
    assert [x.get_text() for x in share.get_yticklabels()] == ['overlap\nmedian 95.0%']  # no space before %


def test_plot_repeats_units():
    assert plot_repeats({'a': [0.002]}, unit='auto').axes[0].get_xlabel() == 'time (ms)'
    fig = plot_repeats({'pinned': [55.0, 54.0]}, unit='GB/s')
    assert fig.axes[0].get_xlabel() == 'GB/s' and fig.axes[0].get_xlim()[1] > 55


@pytest.mark.parametrize('results, predicted, match', [
    ({}, None, 'non-empty'),
    ({'a': []}, None, 'no repeats'),
    ({'a': ['fast']}, None, 'list of numbers'),
    ({'a': [1.0]}, {'b': 1.0}, 'not measured'),
])
def test_plot_repeats_bad_input(results, predicted, match):
    with pytest.raises(UsageError, match=match):
        plot_repeats(results, predicted=predicted)


def test_a_row_of_thousands_of_bars_is_merged_into_busy_stretches_and_says_so():
    from d2l_ext.display.timeline import aggregate
    many = [{'lane': 'GPU', 'name': f'mm {i}', 'start': i * 1e-4, 'end': (i + 1) * 1e-4} for i in range(1000)]
    gap = [{'lane': 'GPU', 'name': 'late', 'start': 0.2, 'end': 0.3}]
    few = [{'lane': 'CPU', 'name': f'mm {i}', 'start': i * 0.01, 'end': i * 0.01 + 0.005} for i in range(5)]
    events, merged = aggregate(many + gap + few, max_bars=200)
    assert merged == {'GPU': 1001}
    gpu = sorted((e['start'], e['end']) for e in events if e['lane'] == 'GPU')
    assert gpu == [(0.0, pytest.approx(0.1)), (0.2, 0.3)]  # one stretch per busy interval, the gap kept
    assert len([e for e in events if e['lane'] == 'CPU']) == 5  # rows under the limit keep one bar per event
    assert aggregate(few, max_bars=200)[1] == {}


def test_chinese_names_are_measured_as_full_ems():
    """A bar's name fits by its drawn width: a Chinese character is a whole em, a Latin letter about 0.62 of one."""
    from d2l_ext.display.timeline import text_ems
    assert text_ems('mm 1') == pytest.approx(4 * 0.62)
    assert text_ems('前向') == pytest.approx(2.0) and text_ems('前向1') == pytest.approx(2.0 + 0.62)


def test_numbered_products_and_copies_are_drawn_in_words_and_keep_their_ids():
    from d2l_ext.display.timeline import event_texts
    from d2l_ext.i18n import using_language
    events = [{'lane': 'cpu0', 'name': 'mm 1', 'start': 0.0, 'end': 1.0},
              {'lane': 'copy stream', 'name': 'copy_ 1', 'start': 1.0, 'end': 2.0, 'role': 'copy'},
              {'lane': 'cpu0', 'name': 'x@W1', 'start': 2.0, 'end': 3.0}]
    for lang in ('en', 'zh'):
        with using_language(lang):
            product, copy = style.plot_text('style.event.product', number=1), style.plot_text('style.event.copy',
                                                                                               number=1)
            fig = draw_timeline(events)
            drawn = {t.get_text() for t in fig.axes[0].texts}
            assert {product, copy, 'x@W1'} <= drawn and not {'mm 1', 'copy_ 1'} & drawn
            assert event_texts('dot 12')[0] == style.plot_text('style.event.product', number=12)
    assert [e['name'] for e in events] == ['mm 1', 'copy_ 1', 'x@W1']  # the data keep the ids
    with using_language('en'):
        assert tuple(event_texts(x)[0] for x in ('mm 3', 'copy 2', 'mm')) == ('product 3', 'copy 2', 'mm')


def test_a_bar_too_narrow_for_the_words_still_shows_its_number():
    from d2l_ext.i18n import using_language
    events = [{'lane': 'cpu0', 'name': f'mm {j + 1}', 'start': j * 0.01, 'end': (j + 1) * 0.01} for j in range(12)]
    with using_language('en'):
        drawn = [t.get_text() for t in draw_timeline(events).axes[0].texts]
    assert drawn == [str(j + 1) for j in range(12)]


def test_a_row_is_numbered_only_when_every_bar_has_room_and_touching_bars_stay_countable():
    """Reader finding: 26 recorded products drew as one block numbered 1-9, which read as nine products."""
    from d2l_ext.display.timeline import EDGE_COLOUR
    from d2l_ext.i18n import using_language
    many = [{'lane': 'cpu', 'name': f'mm {j + 1}', 'start': j * 0.016, 'end': (j + 1) * 0.016} for j in range(40)]
    few = [{'lane': 'gpu', 'name': f'mm {j + 1}', 'start': j * 0.2, 'end': (j + 1) * 0.2} for j in range(3)]
    with using_language('en'):
        fig = draw_timeline(many + few, rows=['gpu', 'cpu'])
    ax = fig.axes[0]
    drawn = [t.get_text() for t in ax.texts]
    assert drawn == ['1', '2', '3']  # the wide row keeps its numbers; the crowded row shows none, not its first few
    bars = [p for p in ax.patches if isinstance(p, Rectangle) and p.get_fill()]
    assert len(bars) == 43 and all(p.get_linewidth() > 0 and to_rgba(p.get_edgecolor()) == to_rgba(EDGE_COLOUR)
                                   for p in bars)  # an edge between every two touching bars
    thin = [{'lane': 'x', 'name': 'a', 'start': 0.0, 'end': 1.0}, {'lane': 'y', 'name': 'b', 'start': 0.5,
                                                                    'end': 0.5001}]
    widths = sorted(p.get_linewidth() for p in draw_timeline(thin).axes[0].patches if isinstance(p, Rectangle))
    assert widths[0] == 0  # a bar of a pixel or less keeps no edge, which would erase it


def test_a_chart_shows_its_bars_alike_numbers_alone_when_one_bar_lacks_room_for_the_words():
    from d2l_ext.i18n import using_language
    wide = [{'lane': 'cpu0', 'name': f'mm {j + 1}', 'start': j * 0.25, 'end': (j + 1) * 0.25} for j in range(3)]
    narrow = [{'lane': 'cpu1', 'name': 'mm 4', 'start': 0.75, 'end': 0.77}]  # another row
    with using_language('en'):
        words = [t.get_text() for t in draw_timeline(wide).axes[0].texts]
        mixed = [t.get_text() for t in draw_timeline(wide + narrow).axes[0].texts]
    assert words == [f'product {j + 1}' for j in range(3)]
    assert mixed and all(text.isdigit() for text in mixed)


def test_the_dashed_marks_are_named_as_the_caller_says():
    events = [{'lane': 'a', 'name': 'x', 'start': 0.0, 'end': 1.0},
              {'lane': 'b', 'name': 'y', 'start': 0.0, 'end': 2.0}]
    fig = draw_timeline(events, predicted={'a': 1.1, 'b': 1.9}, predicted_label='median alone')
    assert 'median alone' in [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    legend = draw_timeline(events, predicted=1.5).axes[0].get_legend().get_texts()
    assert 'predicted' in legend[-1].get_text()  # a total: the default name, with its value
