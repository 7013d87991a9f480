"""One visual language: a colour per role, projector-sized text, Chinese labels only with a font that draws them."""
import re
import warnings

import matplotlib as mpl
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.font_manager import FontProperties, findfont
from matplotlib.text import Text

from d2l_ext.display import fonts, style
from d2l_ext.display.repeats import plot_repeats
from d2l_ext.display.timeline import draw_timeline
from d2l_ext.errors import UsageError
from d2l_ext.i18n import text_in, using_language

CONTRACT_ROLES = ('lane 0', 'lane 1', 'lane 2', 'lane 3', 'gpu', 'cpu', 'compute', 'copy', 'backward',
                  'allreduce', 'optimizer', 'idle', 'measured', 'predicted')
# Roles drawn side by side must differ.
TOGETHER = (('lane 0', 'lane 1', 'lane 2', 'lane 3'), ('gpu', 'cpu'), ('compute', 'copy'),
            ('backward', 'allreduce', 'optimizer', 'idle'), ('measured', 'predicted'))
EVENTS = [{'lane': 'GPU 0', 'name': 'matmul', 'start': 0.0, 'end': 0.132, 'role': 'compute'},
          {'lane': 'GPU 0 copy', 'name': 'to CPU', 'start': 0.01, 'end': 0.03, 'role': 'copy'},
          {'lane': 'CPU (1 of 2 cores)', 'name': 'work', 'start': 0.0, 'end': 0.1}]


def _render(fig):
    """Lay out and draw the figure as the notebook's inline backend would (a bare Figure's canvas draws nothing)."""
    FigureCanvasAgg(fig).draw()


def _figures():
    return [draw_timeline(EVENTS, title='The copy hides behind the computation', predicted=0.134),
            plot_repeats({'one after the other': [0.19, 0.2, 0.18], 'overlapped': [0.13, 0.14, 0.135]},
                         predicted={'overlapped': 0.132}, title='Overlap saves 0.05 s')]


@pytest.fixture
def no_cjk_font(monkeypatch):
    """As on a machine without a CJK font: the lookup finds nothing and the hint has not been shown yet."""
    monkeypatch.setattr(fonts, 'cjk_font', lambda: None)
    monkeypatch.setitem(fonts._hint_shown, 'done', False)
    yield
    style.apply()


def test_every_role_has_a_colour():
    for role in CONTRACT_ROLES:
        assert re.fullmatch(r'#[0-9A-Fa-f]{6}', style.color(role)), role
    with pytest.raises(UsageError, match='lane 0'):
        style.color('lane 9')


@pytest.mark.parametrize('group', TOGETHER)
def test_roles_drawn_together_differ(group):
    colours = [style.color(r) for r in group]
    assert len(set(colours)) == len(colours), group


def test_text_is_at_least_11_pt_at_the_default_size():
    style.apply()
    assert tuple(mpl.rcParams['figure.figsize']) == (style.WIDTH_IN, style.ROW_HEIGHT_IN)
    for key in ('font.size', 'axes.titlesize', 'axes.labelsize', 'xtick.labelsize', 'ytick.labelsize',
                'legend.fontsize'):
        assert FontProperties(size=mpl.rcParams[key]).get_size_in_points() >= style.MIN_FONT_PT, key
    for fig in _figures():
        _render(fig)
        sizes = {t.get_text(): t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text()}
        assert sizes and min(sizes.values()) >= style.MIN_FONT_PT, sizes


def test_no_text_outside_the_figure():
    for fig in _figures():
        _render(fig)
        canvas = fig.bbox
        for text in fig.findobj(Text):
            if text.get_visible() and text.get_text():
                box = text.get_window_extent()
                assert box.x0 >= -1 and box.y0 >= -1 and box.x1 <= canvas.x1 + 1 and box.y1 <= canvas.y1 + 1, \
                    (text.get_text(), box, canvas)


def test_figure_makes_panels_with_constrained_layout():
    fig, axes = style.figure(ncols=2)
    assert len(axes) == 2 and fig.get_layout_engine() is not None
    with pytest.raises(UsageError):
        style.figure(ncols=0)


def test_time_unit_keeps_ticks_short():
    assert style.time_unit(2.0) == ('s', 1.0)
    assert style.time_unit(0.132) == ('ms', 1e3)
    assert style.time_unit(5e-5) == ('µs', 1e6)


@pytest.mark.skipif(not style.cjk_available(), reason='no CJK font installed (Debian: apt-get install fonts-noto-cjk)')
def test_chinese_labels_render_with_a_cjk_font():
    with using_language('zh'):
        assert style.plot_language() == 'zh'
        assert style.plot_text('style.time_axis', unit='s') == '时间（s）'
        fig = draw_timeline(EVENTS, title='复制被计算掩盖')
        assert style.cjk_font() in mpl.rcParams['font.family']
        with warnings.catch_warnings():
            warnings.simplefilter('error')  # matplotlib warns "Glyph ... missing" where it would draw a box
            _render(fig)
        path = findfont(FontProperties(family=style.cjk_font()))
        assert 'DejaVu' not in path
    style.apply()


def test_without_a_cjk_font_plots_fall_back_to_english_with_one_hint(no_cjk_font, capsys):
    with using_language('zh'):
        assert style.plot_language() == 'en'
        assert style.plot_text('style.time_axis', unit='s') == 'time (s)'
        fig = draw_timeline(EVENTS)
        assert fig.axes[0].get_xlabel() == 'time (ms)'
        style.plot_text('style.median')
        hint = capsys.readouterr().err
    assert hint.count('\n') == 1 and 'fonts-noto-cjk' in hint
    assert hint.strip() == text_in('zh', 'style.no_cjk_font')
    assert mpl.rcParams['font.family'] == ['DejaVu Sans']


def test_english_needs_no_cjk_font(no_cjk_font, capsys):
    assert style.plot_language() == 'en'
    assert style.plot_text('style.median') == 'median'
    assert capsys.readouterr().err == ''


def _zh_figure_texts():
    """A zh timeline and repeats plot drawn from ids and keys: (row labels, title, legend, x label, repeats rows)."""
    events = [{'lane': 'cpu0', 'name': 'mm 1', 'start': 0, 'end': 1, 'role': 'copy'},
              {'lane': 'cuda:0', 'name': 'mm 1', 'start': 0, 'end': 1}]
    with using_language('zh'):
        fig = draw_timeline(events, title=style.plot_text('style.predicted_total', value='0.5 s'))
        fig2 = plot_repeats({'alone': [0.2, 0.21]}, labels={'alone': style.plot_lane('cpu1')},
                            title=style.plot_text('style.median'))
    ax, ax2 = fig.axes[0], fig2.axes[0]
    return ([x.get_text().split('\n')[0] for x in ax.get_yticklabels()], ax.get_title(loc='left'),
            [x.get_text() for x in ax.get_legend().get_texts()], ax.get_xlabel(),
            [x.get_text().split('\n')[0] for x in ax2.get_yticklabels()], ax2.get_title(loc='left'))


def test_a_zh_figure_without_a_cjk_font_draws_english_from_its_keys(no_cjk_font, capsys):
    rows, title, legend, xlabel, repeat_rows, title2 = _zh_figure_texts()
    assert rows == ['CPU lane 0', 'GPU 0'] and title == 'predicted: 0.5 s'
    assert legend == ['copy stream'] and xlabel == 'time (s)'
    assert repeat_rows == ['CPU lane 1'] and title2 == 'median'
    capsys.readouterr()


def test_a_zh_figure_with_a_cjk_font_draws_chinese(faked_cjk_font):
    rows, title, legend, xlabel, repeat_rows, title2 = _zh_figure_texts()
    assert rows == ['CPU 0', 'GPU 0'] and title == '预测：0.5 s'
    assert legend == ['复制流'] and xlabel == '时间（秒）'
    assert repeat_rows == ['CPU 1'] and title2 == '中位数'


def test_a_lane_is_labelled_from_its_ids_in_the_language_asked():
    from d2l_ext.lanes import label_of, make_lane
    lane = make_lane('torch', 'cpu', 1, threads=3, cores=6, label_key='core.lane_cpu_share_label')
    assert lane.label_in('en') == 'CPU lane 1 (3 of 6 cores)'
    assert lane.label_in('zh') == 'CPU 1（6个核心中的3个）'
    with using_language('zh'):
        assert lane.label == lane.label_in('zh') and label_of('cpu') == 'CPU'
    assert label_of('cuda:1') == 'GPU 1' and label_of('cpu(1)', 'en', 'mxnet') == 'MXNet cpu(1)'
    assert label_of('gpu') == 'gpu' and label_of('GPU 0 (NVIDIA H200)') == 'GPU 0 (NVIDIA H200)'


def test_time_units_are_drawn_in_the_plot_language(faked_cjk_font):
    with using_language('zh'):
        assert [style.unit_text(u) for u in ('s', 'ms', 'µs', 'us', 'GB/s')] == ['秒', '毫秒', '微秒', '微秒', 'GB/s']
        fig = draw_timeline([{'lane': 'cpu0', 'name': 'mm 1', 'start': 0, 'end': 0.002}], predicted=0.003)
        assert fig.axes[0].get_xlabel() == '时间（毫秒）'
        assert [x.get_text() for x in fig.axes[0].get_legend().get_texts()][-1] == '预测：3毫秒'
    with using_language('en'):
        assert [style.unit_text(u) for u in ('s', 'ms', 'us')] == ['s', 'ms', 'µs']
